package plan

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/flowc-dev/flowc/ir"
)

// aslEnd stands for the end of the run among a state machine's states: a
// key no state has, since a States Language machine may name a state "end".
const aslEnd = ""

// aslGraph is the graph of a States Language machine: the machines of
// Parallel, Map and compiled-in states as groups nested in their state,
// states named s0, s1... in the order ir.AllStates gives.
func aslGraph(w *ir.Workflow) Graph {
	ids := map[string]string{aslEnd: GraphEnd}
	for i, s := range ir.AllStates(w.States) {
		ids[s.ID] = nodeName(i)
	}
	return Graph{Start: ids[w.Start.ID], Nodes: aslNodes(w.States, ids), Edges: aslEdges(w, ids)}
}

// aslNodes are the states as nodes, each followed by the groups of the
// machines it holds.
func aslNodes(states []*ir.State, ids map[string]string) []GraphNode {
	var out []GraphNode
	for _, s := range states {
		out = append(out, GraphNode{Name: ids[s.ID], Label: s.ID})
		for i, m := range s.ASL.Branches {
			title := s.ID + " " + branchWhat(s, i)
			if s.ASL.Type == ir.ASLMap {
				title = s.ID + " iterator"
			}
			out = append(out, GraphNode{
				Name: fmt.Sprintf("%s_%d", ids[s.ID], i+1), Label: title, Group: true,
				Nodes: aslNodes(m.States, ids),
			})
		}
	}
	return out
}

// aslEdges lists the transitions of every state, nested ones included:
// Next and End, each choice rule, Default, catchers, and an edge from a
// Parallel or Map state into the start of each machine it holds. The end
// of a branch or iterator is where its group ends, so only top-level
// states have an edge to the end of the run, and Fail states wherever they
// are.
func aslEdges(w *ir.Workflow, ids map[string]string) []GraphEdge {
	var out []GraphEdge
	top := map[*ir.State]bool{}
	for _, s := range w.States {
		top[s] = true
	}
	for _, s := range ir.AllStates(w.States) {
		add := func(to ir.Ref, label string) {
			out = append(out, GraphEdge{From: ids[s.ID], To: ids[to.ID], Label: label})
		}
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
