// Package graph draws a workflow's plan.Graph as a Mermaid flowchart, an SVG picture or a
// Graphviz dot digraph. The plan says what the nodes, groups and edges
// are and how they are labelled; this package only lays them out and
// escapes the labels, which hold text from the definition.
package graph

import (
	"fmt"
	"strings"

	"github.com/flowc-dev/flowc/ir/plan"
)

// Mermaid renders the graph of a workflow as a mermaid flowchart.
func Mermaid(p *plan.Plan) string { return mermaid(p.Graph()) }

func mermaid(g plan.Graph) string {
	var b strings.Builder
	b.WriteString("flowchart TD\n")
	b.WriteString("  start((start))\n")
	mermaidNodes(&b, g.Nodes, 1)
	fmt.Fprintf(&b, "  %s((end))\n", plan.GraphEnd)
	fmt.Fprintf(&b, "  start --> %s\n", g.Start)
	for _, e := range g.Edges {
		fmt.Fprintf(&b, "  %s -->|\"%s\"| %s\n", e.From, mermaidText(e.Label), e.To)
	}
	return b.String()
}

func mermaidNodes(b *strings.Builder, nodes []plan.GraphNode, depth int) {
	indent := strings.Repeat("  ", depth)
	for _, n := range nodes {
		if !n.Group {
			fmt.Fprintf(b, "%s%s[\"%s\"]\n", indent, n.Name, mermaidText(n.Label))
			continue
		}
		fmt.Fprintf(b, "%ssubgraph %s[\"%s\"]\n", indent, n.Name, mermaidText(n.Label))
		mermaidNodes(b, n.Nodes, depth+1)
		fmt.Fprintf(b, "%send\n", indent)
	}
}

// Dot renders the graph of a workflow in Graphviz's dot language, each
// group as a cluster.
func Dot(p *plan.Plan) string { return dot(p.Workflow.Name, p.Graph()) }

func dot(name string, g plan.Graph) string {
	var b strings.Builder
	fmt.Fprintf(&b, "digraph %s {\n", dotQuote(name))
	b.WriteString("  node [shape=box];\n  start [shape=circle];\n")
	fmt.Fprintf(&b, "  %s [label=\"end\", shape=doublecircle];\n", plan.GraphEnd)
	dotNodes(&b, g.Nodes, 1)
	fmt.Fprintf(&b, "  start -> %s;\n", g.Start)
	for _, e := range g.Edges {
		fmt.Fprintf(&b, "  %s -> %s [label=%s];\n", e.From, e.To, dotQuote(e.Label))
	}
	b.WriteString("}\n")
	return b.String()
}

func dotNodes(b *strings.Builder, nodes []plan.GraphNode, depth int) {
	indent := strings.Repeat("  ", depth)
	for _, n := range nodes {
		if !n.Group {
			fmt.Fprintf(b, "%s%s [label=%s];\n", indent, n.Name, dotQuote(n.Label))
			continue
		}
		fmt.Fprintf(b, "%ssubgraph cluster_%s {\n%s  label=%s;\n", indent, n.Name, indent, dotQuote(n.Label))
		dotNodes(b, n.Nodes, depth+1)
		fmt.Fprintf(b, "%s}\n", indent)
	}
}

var mermaidEscaper = strings.NewReplacer(`"`, "#quot;", "\n", " ", "|", "#124;", "<", "#lt;", ">", "#gt;")

func mermaidText(s string) string { return mermaidEscaper.Replace(s) }

var dotEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)

func dotQuote(s string) string { return `"` + dotEscaper.Replace(s) + `"` }
