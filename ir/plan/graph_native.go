package plan

import (
	"fmt"
	"slices"
	"strings"

	"github.com/flowc-dev/flowc/ir"
)

// stateGraph is the graph of a workflow whose states are all listed at
// the top (every language but the States Language): nodes in source
// order, each fan-out region as a group right after the state that opens
// it, with one nested group per parallel branch, and each child flow as a
// group where its first state is.
func stateGraph(w *ir.Workflow) Graph {
	g := &stateDrawing{w: w, ids: map[string]string{ir.EndID: GraphEnd}}
	order := make([]string, len(w.States))
	for i, s := range w.States {
		g.ids[s.ID] = nodeName(i)
		order[i] = s.ID
	}
	return Graph{Start: g.ids[w.Start.ID], Nodes: g.nodes(order, w.Subflows, 1), Edges: g.edges()}
}

// stateDrawing derives a stateGraph: ids are the node names of states.
type stateDrawing struct {
	w   *ir.Workflow
	ids map[string]string
}

// nodes are the states of order at depth, those of each subflow of subs
// inside its own group.
func (g *stateDrawing) nodes(order []string, subs []*ir.Subflow, depth int) []GraphNode {
	owner := map[string]*ir.Subflow{}
	for _, sf := range subs {
		for _, id := range sf.AllStates() {
			owner[id] = sf
		}
	}
	var out []GraphNode
	drawn := map[*ir.Subflow]bool{}
	for _, id := range order {
		if sf := owner[id]; sf != nil {
			if !drawn[sf] {
				drawn[sf] = true
				out = append(out, GraphNode{
					Name: fmt.Sprintf("%s_flow%d", g.ids[id], depth), Label: sf.State + ": flow " + sf.ID, Group: true,
					Nodes: g.nodes(within(order, sf.AllStates()), sf.Inner, depth+1),
				})
			}
			continue
		}
		if g.w.RegionOf(id) == nil { // a region's states are drawn inside it
			out = append(out, g.node(id))
			out = g.appendRegion(out, g.w.State(id))
		}
	}
	return out
}

// within keeps the ids of order that are in set, in order.
func within(order, set []string) []string {
	var out []string
	for _, id := range order {
		if slices.Contains(set, id) {
			out = append(out, id)
		}
	}
	return out
}

// appendRegion appends the group of the fan-out s opens, if any.
func (g *stateDrawing) appendRegion(out []GraphNode, s *ir.State) []GraphNode {
	r := s.Next.Region
	if r == nil {
		return out
	}
	name := g.ids[s.ID]
	if r.Kind == ir.RegionMap {
		return append(out, g.group(name+"_each", s.ID+": each item of "+r.Items+ConcurrencyWords(r.MaxConcurrency), r.Body))
	}
	branches := make([]GraphNode, len(r.Branches))
	for i, br := range r.Branches {
		branches[i] = g.group(fmt.Sprintf("%s_%d", name, i+1), "branch "+br[0].ID, br)
	}
	return append(out, GraphNode{Name: name + "_parallel", Label: s.ID + ": parallel", Group: true, Nodes: branches})
}

func (g *stateDrawing) node(id string) GraphNode { return GraphNode{Name: g.ids[id], Label: id} }

// group is a group of the states of refs.
func (g *stateDrawing) group(name, title string, refs []ir.Ref) GraphNode {
	nodes := make([]GraphNode, len(refs))
	for i, r := range refs {
		nodes[i] = g.node(r.ID)
	}
	return GraphNode{Name: name, Label: title, Group: true, Nodes: nodes}
}

// edges lists every transition in source order.
func (g *stateDrawing) edges() []GraphEdge {
	var out []GraphEdge
	for _, s := range g.w.States {
		add := func(to ir.Ref, label string) {
			out = append(out, GraphEdge{From: g.ids[s.ID], To: g.ids[to.ID], Label: label})
		}
		for _, c := range s.Catch {
			add(c.Next, "catch "+strings.Join(c.Errors, ", "))
		}
		transitionEdges(s.Next, add)
	}
	return out
}

// transitionEdges adds the edges of t, each labelled with the condition,
// action, operator or error that takes it.
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
		add(t.To, "each item of "+t.Iter.Key+ConcurrencyWords(t.Iter.MaxConcurrency))
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
