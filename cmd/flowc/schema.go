package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/flowc-dev/flowc/compiler"
	"github.com/flowc-dev/flowc/compiler/diag"
)

// cmdSchema prints the JSON Schema of a dialect, or lists the dialects.
func cmdSchema(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	switch {
	case len(args) == 0:
		tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
		for _, d := range compiler.Dialects {
			fmt.Fprintf(tw, "%s\t%s\t%s\n", d.Name, d.Files(), d.About)
		}
		tw.Flush()
		return exitOK
	case len(args) > 1 || strings.HasPrefix(args[0], "-"): // -h, --help
		fmt.Fprintf(stderr, "usage: flowc schema [DIALECT]\n")
		return exitUsage
	}
	var names []string
	for _, d := range compiler.Dialects {
		if d.Name != args[0] && !slices.Contains(d.Aliases, args[0]) {
			names = append(names, d.Name)
			continue
		}
		src, err := d.Schema()
		if err != nil {
			fmt.Fprintf(stderr, "flowc: %v\n", err)
			return exitFailed
		}
		fmt.Fprintf(stdout, "%s\n", src)
		return exitOK
	}
	fmt.Fprintf(stderr, "flowc schema: unknown dialect %q%s; `flowc schema` lists them\n", args[0], diag.DidYouMean(args[0], names))
	return exitUsage
}
