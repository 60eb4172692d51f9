package graph

import (
	"fmt"
	"slices"
	"strings"

	"github.com/flowc-dev/flowc/codegen/internal/gentext"
	"github.com/flowc-dev/flowc/ir"
)

// regionNodes writes the nodes of a native workflow in source order, each
// fan-out region as a subgraph (a dot cluster) right after the state that
// opens it, with one nested subgraph per parallel branch, and each child
// flow as a subgraph where its first state is.
func regionNodes(b *strings.Builder, w *ir.Workflow, ids map[string]string, dot bool) {
	order := make([]string, len(w.States))
	for i, s := range w.States {
		order[i] = s.ID
	}
	stateNodes(b, w, order, w.Subflows, ids, dot, 1)
}

// stateNodes writes the states of order at depth, those of each subflow
// of subs inside its own subgraph.
func stateNodes(b *strings.Builder, w *ir.Workflow, order []string, subs []*ir.Subflow, ids map[string]string, dot bool, depth int) {
	owner := map[string]*ir.Subflow{}
	for _, sf := range subs {
		for _, id := range sf.AllStates() {
			owner[id] = sf
		}
	}
	drawn := map[*ir.Subflow]bool{}
	for _, id := range order {
		if sf := owner[id]; sf != nil {
			if !drawn[sf] {
				drawn[sf] = true
				openGraph(b, fmt.Sprintf("%s_flow%d", ids[id], depth), sf.State+": flow "+sf.ID, dot, depth)
				stateNodes(b, w, within(order, sf.AllStates()), sf.Inner, ids, dot, depth+1)
				closeGraph(b, dot, depth)
			}
			continue
		}
		if w.RegionOf(id) == nil { // a region's states are drawn inside it
			node(b, id, ids, dot, depth)
			regionGraph(b, w.State(id), ids, dot, depth)
		}
	}
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

// regionGraph draws the fan-out s opens, if any.
func regionGraph(b *strings.Builder, s *ir.State, ids map[string]string, dot bool, depth int) {
	r := s.Next.Region
	if r == nil {
		return
	}
	if r.Kind == ir.RegionMap {
		subgraph(b, ids[s.ID]+"_each", s.ID+": each item of "+r.Items+gentext.ConcurrencyWords(r.MaxConcurrency), ir.RefIDs(r.Body), ids, dot, depth)
		return
	}
	openGraph(b, ids[s.ID]+"_parallel", s.ID+": parallel", dot, depth)
	for i, br := range r.Branches {
		subgraph(b, fmt.Sprintf("%s_%d", ids[s.ID], i+1), "branch "+br[0].ID, ir.RefIDs(br), ids, dot, depth+1)
	}
	closeGraph(b, dot, depth)
}

func node(b *strings.Builder, id string, ids map[string]string, dot bool, depth int) {
	indent := strings.Repeat("  ", depth)
	if dot {
		fmt.Fprintf(b, "%s%s [label=%s];\n", indent, ids[id], dotQuote(id))
		return
	}
	fmt.Fprintf(b, "%s%s[\"%s\"]\n", indent, ids[id], mermaidText(id))
}

func subgraph(b *strings.Builder, name, title string, states []string, ids map[string]string, dot bool, depth int) {
	openGraph(b, name, title, dot, depth)
	for _, id := range states {
		node(b, id, ids, dot, depth+1)
	}
	closeGraph(b, dot, depth)
}

// openGraph starts a subgraph; name is a neutral node name, title is quoted.
func openGraph(b *strings.Builder, name, title string, dot bool, depth int) {
	indent := strings.Repeat("  ", depth)
	if dot {
		fmt.Fprintf(b, "%ssubgraph cluster_%s {\n%s  label=%s;\n", indent, name, indent, dotQuote(title))
		return
	}
	fmt.Fprintf(b, "%ssubgraph %s[\"%s\"]\n", indent, name, mermaidText(title))
}

func closeGraph(b *strings.Builder, dot bool, depth int) {
	indent := strings.Repeat("  ", depth)
	if dot {
		fmt.Fprintf(b, "%s}\n", indent)
		return
	}
	fmt.Fprintf(b, "%send\n", indent)
}
