package main

import (
	"fmt"
	"io"
	"os"

	"github.com/flowc-dev/flowc/codegen/graph"
	"github.com/flowc-dev/flowc/compiler"
)

// cmdGraph prints the state graph of one definition as a diagram.
func cmdGraph(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("graph", stderr)
	format := fs.String("format", "mermaid", "diagram `format`: mermaid or dot")
	paths, err := parseInterleaved(fs, args)
	if err != nil {
		return exitUsage
	}
	if !oneDefinition("graph", paths, stderr) {
		return exitUsage
	}
	if *format != "mermaid" && *format != "dot" {
		fmt.Fprintf(stderr, "flowc graph: unknown format %q (mermaid or dot)\n", *format)
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
	if *format == "dot" {
		fmt.Fprint(stdout, graph.Dot(w))
	} else {
		fmt.Fprint(stdout, graph.Mermaid(w))
	}
	return exitOK
}
