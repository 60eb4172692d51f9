package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/flowc-dev/flowc/compiler/asl"
	"github.com/flowc-dev/flowc/compiler/chain"
	"github.com/flowc-dev/flowc/compiler/diag"
	"github.com/flowc-dev/flowc/compiler/native"
)

// A dialect whose definitions editors can validate with a JSON Schema.
type schemaDialect struct {
	name, files, about string
	schema             func() ([]byte, error)
}

// schemaDialects are in the order `flowc schema` lists them. Typed YAML and
// CodeMie's JSON mode share one file shape, hence one schema.
var schemaDialects = []schemaDialect{
	{"native", "*.flow.yaml, *.flow.yml", "flowc YAML workflows, typed or CodeMie JSON mode", native.Schema},
	{"chain", "*.chain.yaml, *.chain.json", "task chains (contenox)", chain.Schema},
	{"asl", "*.asl.json, *.asl.yaml", "States Language and Agent State Language machines", asl.Schema},
}

// cmdSchema prints the JSON Schema of a dialect, or lists the dialects.
func cmdSchema(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	switch {
	case len(args) == 0:
		for _, d := range schemaDialects {
			fmt.Fprintf(stdout, "%-7s %-28s %s\n", d.name, d.files, d.about)
		}
		return exitOK
	case len(args) > 1 || strings.HasPrefix(args[0], "-"): // -h, --help
		fmt.Fprintf(stderr, "usage: flowc schema [DIALECT]\n")
		return exitUsage
	}
	var names []string
	for _, d := range schemaDialects {
		if d.name != args[0] {
			names = append(names, d.name)
			continue
		}
		src, err := d.schema()
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
