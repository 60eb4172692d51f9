package codegen

import (
	"fmt"
	"strings"

	"github.com/flowc-dev/flowc/ir"
)

// regionNodes writes the nodes of a native workflow in source order, each
// fan-out region as a subgraph (a dot cluster) right after the state that
// opens it, with one nested subgraph per parallel branch.
func regionNodes(b *strings.Builder, w *ir.Workflow, ids map[string]string, dot bool) {
	for _, s := range w.States {
		if w.RegionOf(s.ID) != nil {
			continue // drawn inside its region
		}
		node(b, s.ID, ids, dot, 1)
		r := s.Next.Region
		if r == nil {
			continue
		}
		if r.Kind == ir.RegionMap {
			subgraph(b, ids[s.ID]+"_each", s.ID+": each item of "+r.Items+concurrencyWords(r.MaxConcurrency), refIDs(r.Body), ids, dot, 1)
			continue
		}
		openGraph(b, ids[s.ID]+"_parallel", s.ID+": parallel", dot, 1)
		for i, br := range r.Branches {
			subgraph(b, fmt.Sprintf("%s_%d", ids[s.ID], i+1), "branch "+br[0].ID, refIDs(br), ids, dot, 2)
		}
		closeGraph(b, dot, 1)
	}
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
