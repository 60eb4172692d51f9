package main

import (
	"fmt"
	"io"
	"os"

	"github.com/flowc-dev/flowc/codegen/graph"
	"github.com/flowc-dev/flowc/compiler"
	"github.com/flowc-dev/flowc/ir/plan"
)

// drawings are the formats of `flowc graph --format`.
var drawings = map[string]func(*plan.Plan) string{"mermaid": graph.Mermaid, "dot": graph.Dot, "svg": graph.SVG}

// cmdGraph prints the state graph of one definition as a diagram.
func cmdGraph(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("graph", stderr)
	format := fs.String("format", "mermaid", "diagram `format`: mermaid, dot or svg")
	paths, err := parseInterleaved(fs, args)
	if err != nil {
		return exitUsage
	}
	if !oneDefinition("graph", paths, stderr) {
		return exitUsage
	}
	draw, ok := drawings[*format]
	if !ok {
		fmt.Fprintf(stderr, "flowc graph: unknown format %q (mermaid, dot or svg)\n", *format)
		return exitUsage
	}
	src, err := os.ReadFile(paths[0])
	if err != nil {
		fmt.Fprintf(stderr, "flowc graph: %v\n", err)
		return exitUsage
	}
	w, ds := compiler.Compile(paths[0], src, compiler.Options{})
	printDiags(stderr, ds)
	if w == nil {
		return exitFailed
	}
	fmt.Fprint(stdout, draw(w))
	return exitOK
}
