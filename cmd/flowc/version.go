package main

import (
	"fmt"
	"io"
	"runtime/debug"

	flowcimpl "github.com/flowc-dev/flowc/runtime/impl"
)

// cmdVersion prints the version of the module flowc was built from, with
// the range of generated code its runtime compiles, so that a skew between
// a generated file and the runtime can be told from the two versions.
func cmdVersion(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintf(stderr, "usage: flowc version (it takes no arguments)\n")
		return exitUsage
	}
	bi, ok := debug.ReadBuildInfo()
	fmt.Fprintf(stdout, "flowc %s (generated code version %d to %d)\n", moduleVersion(bi, ok), flowcimpl.MinGenVersion, flowcimpl.GenVersion)
	return exitOK
}

// moduleVersion is the main module's version: a tag or pseudo-version when
// flowc was installed with `go install ...@version`, "(devel)" when built
// from a checkout without version control stamping.
func moduleVersion(bi *debug.BuildInfo, ok bool) string {
	if !ok || bi == nil || bi.Main.Version == "" {
		return "(devel)"
	}
	return bi.Main.Version
}
