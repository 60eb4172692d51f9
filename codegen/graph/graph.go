package graph

import (
	"fmt"
	"strings"

	"github.com/flowc-dev/flowc/codegen/internal/gentext"
	"github.com/flowc-dev/flowc/ir"
)

// edge is one labelled transition of the state graph; To is ir.EndID for
// the end of the run.
type edge struct {
	From, To, Label string
}

// edges lists every transition of w in source order, each labelled with the
// condition, action, operator or error that takes it.
func edges(w *ir.Workflow) []edge {
	if w.Mode == ir.ModeASL {
		return aslEdges(w)
	}
	var out []edge
	for _, s := range w.States {
		add := func(to ir.Ref, label string) { out = append(out, edge{From: s.ID, To: to.ID, Label: label}) }
		for _, c := range s.Catch {
			add(c.Next, "catch "+strings.Join(c.Errors, ", "))
		}
		transitionEdges(s.Next, add)
	}
	return out
}

func transitionEdges(t *ir.Transition, add func(ir.Ref, string)) {
	switch t.Kind {
	case ir.TransEnd:
		add(ir.Ref{ID: ir.EndID}, "end")
	case ir.TransGoto:
		add(t.To, "next")
	case ir.TransParallel:
		for _, e := range t.Targets {
			add(e, "parallel")
		}
	case ir.TransMap:
		add(t.To, "each item of "+t.Iter.Key+gentext.ConcurrencyWords(t.Iter.MaxConcurrency))
	case ir.TransCondition:
		add(t.Then, t.Cond.Source)
		add(t.Otherwise, "otherwise")
	case ir.TransSwitch:
		for _, c := range t.Cases {
			add(c.To, c.Cond.Source)
		}
	case ir.TransActions:
		for _, a := range t.Actions {
			add(a.To, "action "+a.Name)
		}
	case ir.TransBranches:
		if t.OnFailure != nil {
			add(*t.OnFailure, "on_failure")
		}
		for _, b := range t.Branches {
			add(b.To, branchLabel(b))
		}
	}
	if t.Default != nil {
		add(*t.Default, "default")
	}
	if implicitEnd(t) {
		add(ir.Ref{ID: ir.EndID}, "no match")
	}
}

// implicitEnd: an action or eval that nothing matches ends the run.
func implicitEnd(t *ir.Transition) bool {
	return (t.Kind == ir.TransActions && t.Default == nil) || (t.Kind == ir.TransBranches && !t.HasDefaultBranch())
}

func branchLabel(b *ir.Branch) string {
	if b.Operator == ir.OpDefault {
		return "default"
	}
	return fmt.Sprintf("%s %s", b.Operator, b.When)
}

// Mermaid renders the graph of a checked workflow as a mermaid flowchart.
func Mermaid(c *ir.Checked) string {
	w := c.Workflow
	var b strings.Builder
	b.WriteString("flowchart TD\n")
	ids := nodeIDs(w)
	b.WriteString("  start((start))\n")
	if w.Mode == ir.ModeASL {
		aslNodes(&b, w.States, ids, false, 1)
	} else {
		regionNodes(&b, w, ids, false)
	}
	b.WriteString("  finish((end))\n")
	fmt.Fprintf(&b, "  start --> %s\n", ids[w.Start.ID])
	for _, e := range edges(w) {
		fmt.Fprintf(&b, "  %s -->|\"%s\"| %s\n", ids[e.From], mermaidText(e.Label), ids[e.To])
	}
	return b.String()
}

// Dot renders the graph of a checked workflow in Graphviz's dot language.
func Dot(c *ir.Checked) string {
	w := c.Workflow
	var b strings.Builder
	fmt.Fprintf(&b, "digraph %s {\n", dotQuote(w.Name))
	b.WriteString("  node [shape=box];\n  start [shape=circle];\n  finish [label=\"end\", shape=doublecircle];\n")
	ids := nodeIDs(w)
	if w.Mode == ir.ModeASL {
		aslNodes(&b, w.States, ids, true, 1)
	} else {
		regionNodes(&b, w, ids, true)
	}
	fmt.Fprintf(&b, "  start -> %s;\n", ids[w.Start.ID])
	for _, e := range edges(w) {
		fmt.Fprintf(&b, "  %s -> %s [label=%s];\n", ids[e.From], ids[e.To], dotQuote(e.Label))
	}
	b.WriteString("}\n")
	return b.String()
}

// nodeIDs gives states neutral node names (s0, s1...) so that ids from the
// definition only ever appear inside quoted labels.
func nodeIDs(w *ir.Workflow) map[string]string {
	if w.Mode == ir.ModeASL {
		return aslNodeIDs(w)
	}
	ids := map[string]string{ir.EndID: "finish"}
	for i, s := range w.States {
		ids[s.ID] = fmt.Sprintf("s%d", i)
	}
	return ids
}

var mermaidEscaper = strings.NewReplacer(`"`, "#quot;", "\n", " ", "|", "#124;", "<", "#lt;", ">", "#gt;")

func mermaidText(s string) string { return mermaidEscaper.Replace(s) }

var dotEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)

func dotQuote(s string) string { return `"` + dotEscaper.Replace(s) + `"` }
