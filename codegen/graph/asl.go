package graph

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/flowc-dev/flowc/ir"
)

// aslEdges lists the transitions of every state, nested ones included:
// Next and End, each choice rule, Default, catchers, and an edge from a
// Parallel or Map state into the start of each machine it holds. The end
// of a branch or iterator is where its subgraph ends, so only top-level
// states have an edge to the end of the run, and Fail states wherever they
// are.
func aslEdges(w *ir.Workflow) []edge {
	var out []edge
	top := map[*ir.State]bool{}
	for _, s := range w.States {
		top[s] = true
	}
	for _, s := range ir.AllStates(w.States) {
		add := func(to ir.Ref, label string) { out = append(out, edge{From: s.ID, To: to.ID, Label: label}) }
		a := s.ASL
		for i, m := range a.Branches {
			add(m.Start, branchWhat(s, i))
		}
		for _, c := range s.Catch {
			add(c.Next, "catch "+strings.Join(c.Errors, ", "))
		}
		switch t := s.Next; t.Kind {
		case ir.TransGoto:
			add(t.To, "next")
		case ir.TransSwitch:
			for i, c := range t.Cases {
				add(c.To, ruleLabel(a.Rules[i]))
			}
			if t.Default != nil {
				add(*t.Default, "default")
			}
		default:
			if a.Type == ir.ASLFail {
				add(ir.Ref{ID: aslEnd}, "fail")
			} else if top[s] {
				add(ir.Ref{ID: aslEnd}, "end")
			}
		}
	}
	return out
}

// ruleLabel renders a choice rule compactly: "$.x NumericGreaterThan 3".
func ruleLabel(r *ir.ChoiceRule) string {
	switch r.Op {
	case "And", "Or":
		parts := make([]string, len(r.Args))
		for i, a := range r.Args {
			parts[i] = ruleLabel(a)
		}
		return "(" + strings.Join(parts, " "+strings.ToLower(r.Op)+" ") + ")"
	case "Not":
		return "not " + ruleLabel(r.Args[0])
	case "Condition": // JSONata: the expression, or a literal
		switch c := r.Condition; {
		case c == nil:
			return r.Op
		case c.JSONata != nil:
			return c.JSONata.Source
		}
		return fmt.Sprint(r.Condition.Value)
	}
	operand := fmt.Sprint(r.Value)
	if r.Other != nil {
		operand = r.Other.Source
	}
	switch {
	case r.Fixed != nil && *r.Fixed: // folded: its Variable was a template parameter's constant
		return "always (" + r.Op + " " + operand + ")"
	case r.Fixed != nil:
		return "never (" + r.Op + " " + operand + ")"
	case r.Variable == nil:
		return r.Op + " " + operand
	}
	return r.Variable.Source + " " + r.Op + " " + operand
}

// branchWhat names the i-th machine of s: a Parallel branch, a Map's
// items, or the definition an Include, Workflow or startExecution state
// compiles in.
func branchWhat(s *ir.State, i int) string {
	switch {
	case s.ASL.Include != nil && s.ASL.Include.StateMachine != "":
		return "state machine " + s.ASL.Include.Template
	case s.ASL.Include != nil:
		return "template " + s.ASL.Include.Template
	case s.ASL.Type == ir.ASLMap:
		return "each item"
	}
	return "branch " + strconv.Itoa(i+1)
}

// aslNodes writes the states as nodes, the machines of Parallel and Map
// states as nested subgraphs.
func aslNodes(b *strings.Builder, states []*ir.State, ids map[string]string, dot bool, depth int) {
	indent := strings.Repeat("  ", depth)
	for _, s := range states {
		if dot {
			fmt.Fprintf(b, "%s%s [label=%s];\n", indent, ids[s.ID], dotQuote(s.ID))
		} else {
			fmt.Fprintf(b, "%s%s[\"%s\"]\n", indent, ids[s.ID], mermaidText(s.ID))
		}
		for i, m := range s.ASL.Branches {
			title := s.ID + " " + branchWhat(s, i)
			if s.ASL.Type == ir.ASLMap {
				title = s.ID + " iterator"
			}
			sub := fmt.Sprintf("%s_%d", ids[s.ID], i+1)
			if dot {
				fmt.Fprintf(b, "%ssubgraph cluster_%s {\n%s  label=%s;\n", indent, sub, indent, dotQuote(title))
				aslNodes(b, m.States, ids, dot, depth+1)
				fmt.Fprintf(b, "%s}\n", indent)
				continue
			}
			fmt.Fprintf(b, "%ssubgraph %s[\"%s\"]\n", indent, sub, mermaidText(title))
			aslNodes(b, m.States, ids, dot, depth+1)
			fmt.Fprintf(b, "%send\n", indent)
		}
	}
}

// aslEnd stands for the end of the run among a state machine's states: a
// key no state has, since a States Language machine may name a state "end".
const aslEnd = ""

// aslNodeIDs names every state s0, s1... in the order allStates gives.
func aslNodeIDs(w *ir.Workflow) map[string]string {
	ids := map[string]string{aslEnd: "finish"}
	for i, s := range ir.AllStates(w.States) {
		ids[s.ID] = fmt.Sprintf("s%d", i)
	}
	return ids
}
