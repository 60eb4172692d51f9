package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/flowc-dev/flowc/codegen"
	"github.com/flowc-dev/flowc/compiler"
	"github.com/flowc-dev/flowc/compiler/diag"
	"github.com/flowc-dev/flowc/ir/plan"
)

// compiled is one definition with its generated file.
type compiled struct {
	def  string
	out  string // where the generated file goes
	wf   *plan.Plan
	file codegen.File
	mock codegen.File // the mock handlers, beside file; none for a Temporal file
}

// output is a file gen writes.
type output struct {
	path    string
	content []byte
}

// outputs are the files gen writes for c.
func (c compiled) outputs() []output {
	outs := []output{{c.out, c.file.Content}}
	if c.mock.Name != "" {
		outs = append(outs, output{filepath.Join(filepath.Dir(c.out), c.mock.Name), c.mock.Content})
	}
	return outs
}

// compileFile compiles one definition and generates its file in memory,
// printing diagnostics (warnings too) to stderr. ok is false on errors.
func compileFile(def, outDir string, stderr io.Writer) (c compiled, ok bool) {
	src, err := os.ReadFile(def)
	if err != nil {
		fmt.Fprintf(stderr, "flowc: %v\n", err)
		return c, false
	}
	if outDir == "" {
		outDir = filepath.Dir(def)
	}
	c.def, c.out = def, filepath.Join(outDir, compiler.OutputName(def))
	w, ds := compiler.Compile(def, src, compiler.Options{Generated: c.out})
	printDiags(stderr, ds)
	if w == nil {
		return c, false
	}
	c.wf = w
	files, err := codegen.Generate(w, codegen.Options{FileName: filepath.Base(c.out), Source: sourceRel(def, outDir)})
	if err != nil {
		fmt.Fprintf(stderr, "%v\n", err)
		return c, false
	}
	c.file, c.mock = files[0], files[1]
	return c, true
}

// sourceRel is the definition's path relative to the output directory,
// slash-separated, so the header is the same on every machine.
func sourceRel(def, outDir string) string {
	absDef, err1 := filepath.Abs(def)
	absOut, err2 := filepath.Abs(outDir)
	if err1 == nil && err2 == nil {
		if rel, err := filepath.Rel(absOut, absDef); err == nil {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.Base(def)
}

func printDiags(w io.Writer, ds diag.List) {
	for _, d := range ds {
		fmt.Fprintln(w, d.String())
	}
}
