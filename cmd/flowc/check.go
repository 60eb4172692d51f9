package main

import (
	"fmt"
	"io"
	"os"

	"github.com/flowc-dev/flowc/compiler"
)

// cmdCheck parses and type-checks definitions without generating anything.
func cmdCheck(args []string, _ io.Reader, _, stderr io.Writer) int {
	fs := newFlagSet("check", stderr)
	paths, err := parseInterleaved(fs, args)
	if err != nil {
		return exitUsage
	}
	if len(paths) == 0 {
		fmt.Fprintln(stderr, "flowc check: no definitions given")
		return exitUsage
	}
	defs, err := definitions(paths, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "flowc check: %v\n", err)
		return exitUsage
	}
	code := exitOK
	for _, def := range defs {
		src, err := os.ReadFile(def)
		if err != nil {
			fmt.Fprintf(stderr, "flowc check: %v\n", err)
			return exitUsage
		}
		w, ds := compiler.Compile(def, src, compiler.Options{})
		printDiags(stderr, ds)
		if w == nil {
			code = exitFailed
		}
	}
	return code
}
