package plan

import (
	"strconv"

	"github.com/flowc-dev/flowc/ir"
)

// Graph is the shape of a workflow as a diagram, for whichever language
// it was written in: its states as nodes in drawing order, the groups
// they nest in (fan-out regions and their branches, Map iterators,
// compiled-in machines, child flows) and the labelled transitions between
// them. Labels word conditions as the workflow's language does. Nodes
// have neutral names (s0, s1...), so that ids from the definition only
// ever appear in labels.
type Graph struct {
	Start string      // the node a run starts at
	Nodes []GraphNode // in drawing order, groups holding theirs
	Edges []GraphEdge // in source order
}

// GraphEnd is the node name of the end of a run, which edges lead to.
const GraphEnd = "finish"

// GraphNode is a state, or a group of nodes: a subgraph titled Label.
type GraphNode struct {
	Name  string // neutral: a state's s0, s1..., a group's derived from its state's
	Label string // the state's id, or the group's title
	Group bool
	Nodes []GraphNode // a group's
}

// GraphEdge is one transition, labelled with the condition, action,
// operator or error that takes it.
type GraphEdge struct {
	From, To, Label string
}

// Graph is the workflow's shape, for diagrams. Only they need it, so it
// is derived when asked for, not with the rest of the plan.
func (p *Plan) Graph() Graph { return graphOf(p.Workflow) }

// graphOf is the graph of w, drawn the way its language nests states: a
// States Language machine holds its branches and iterators, the other
// languages list every state at the top and group them by region and
// child flow.
func graphOf(w *ir.Workflow) Graph {
	if w.Mode == ir.ModeASL {
		return aslGraph(w)
	}
	return stateGraph(w)
}

// nodeName is the neutral name of the i-th state in drawing order.
func nodeName(i int) string { return "s" + strconv.Itoa(i) }

// ConcurrencyWords describes a fan-out's concurrency limit after its
// branches or items: "" for none, ", one after another" for 1. Graphs and
// the generated code's comments both say it so.
func ConcurrencyWords(limit int) string {
	switch limit {
	case 0:
		return ""
	case 1:
		return ", one after another"
	}
	return ", at most " + strconv.Itoa(limit) + " at a time"
}
