package compiler_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/flowc-dev/flowc/codegen"
	"github.com/flowc-dev/flowc/codegen/graph"
	"github.com/flowc-dev/flowc/compiler"
	"github.com/flowc-dev/flowc/compiler/diag"
	"github.com/flowc-dev/flowc/internal/gocheck"
	"github.com/flowc-dev/flowc/ir/plan"
)

// The fuzz targets below drive each front-end through the checker and the
// code generator. Their property, checked by compileAndCheck:
//
//   - nothing panics, and no input takes longer than slowInput;
//   - a rejected definition has at least one error, and every diagnostic
//     is positioned inside the file (line >= 1, col >= 1) on one line;
//   - an accepted definition generates Go that parses, type-checks against
//     the runtime and the standard library, carries no block comment or
//     directive, draws as a graph, and is the same on a second compilation.
//
// The package is never loaded (NoPackage), so a definition that names a
// type or reducer of its package is rejected quickly instead of running
// `go list`. Seeds are the definitions under golden/, examples/, bench/
// and asldiff/, valid and invalid; findings live in testdata/fuzz/<target>/.
// Run one with
//
//	go test -run '^$' -fuzz '^FuzzNative$' -fuzztime 1m ./compiler

// dialect is one front-end: the file names it compiles and its seeds.
type dialect struct {
	yamlName, jsonName string
	seeds              []string // globs, relative to this package
}

var (
	native = dialect{"fuzz.flow.yaml", "fuzz.flow.yaml", []string{
		"../golden/*/*.flow.yaml", "../golden/testdata/errors/*/input.flow.yaml",
		"../golden/testdata/hostile/*/*.flow.yaml", "../examples/*/*.flow.yaml", "../bench/*/*.flow.yaml",
	}}
	states = dialect{"fuzz.asl.yaml", "fuzz.asl.json", []string{
		"../golden/*/*.asl.*", "../golden/testdata/errors/*/input.asl.*",
		"../golden/testdata/hostile/*/*.asl.*", "../bench/*/*.asl.*", "../examples/*/*.asl.*", "../asldiff/cases/*/definition.asl.*",
	}}
	chains = dialect{"fuzz.chain.yaml", "fuzz.chain.json", []string{
		"../golden/*/*.chain.*", "../golden/testdata/errors/*/input.chain.*",
		"../golden/testdata/hostile/*/*.chain.*", "../examples/*/*.chain.*",
	}}
)

// FuzzNative fuzzes flowc's own YAML language.
func FuzzNative(f *testing.F) { fuzz(f, native) }

// FuzzASL fuzzes the States Language front-end, JSON and YAML.
func FuzzASL(f *testing.F) { fuzz(f, states) }

// FuzzChain fuzzes the task-chain front-end, JSON and YAML.
func FuzzChain(f *testing.F) { fuzz(f, chains) }

func fuzz(f *testing.F, d dialect) {
	if err := gocheck.Preload(); err != nil {
		f.Fatal(err)
	}
	for _, pattern := range d.seeds {
		paths, err := filepath.Glob(pattern)
		if err != nil {
			f.Fatal(err)
		}
		for _, p := range paths {
			src, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(src, strings.HasSuffix(p, ".json"))
		}
	}
	f.Fuzz(func(t *testing.T, src []byte, asJSON bool) {
		// A directory that does not exist: no package clause is read and
		// the default package is its name.
		name := d.yamlName
		if asJSON {
			name = d.jsonName
		}
		defer watchdog(src).Stop()
		compileAndCheck(t, filepath.Join("fuzzpkg", name), src)
	})
}

// slowInput bounds one definition's compilation and checking: the fuzzer
// has no timeout of its own and would only stall on an input that takes
// forever. Fuzz inputs are small; the bound is loose for busy CI machines.
const slowInput = 20 * time.Second

// watchdog crashes the process when the input is too slow, so that the
// fuzzer records it as a finding.
func watchdog(src []byte) *time.Timer {
	return time.AfterFunc(slowInput, func() {
		panic(fmt.Sprintf("compiling took over %s: %q", slowInput, src))
	})
}

// compileAndCheck asserts the fuzz property for one definition.
func compileAndCheck(t *testing.T, path string, src []byte) {
	t.Helper()
	w, ds := compiler.Compile(path, src, compiler.Options{NoPackage: true})
	checkDiagnostics(t, path, src, ds)
	if w == nil {
		if !ds.HasErrors() {
			t.Fatalf("rejected without an error: %q", ds.Lines())
		}
		return
	}
	got := generate(t, w)
	for _, src := range got {
		if bad := gocheck.Comments(src); len(bad) > 0 {
			t.Fatalf("generated comments a definition could abuse: %v\n%s", bad, src)
		}
	}
	if err := gocheck.Check(got...); err != nil {
		t.Fatal(err)
	}
	// Graphs print names from the definition too; they must not panic.
	graph.Mermaid(w)
	graph.Dot(w)
	again, _ := compiler.Compile(path, src, compiler.Options{NoPackage: true})
	if again == nil || !bytes.Equal(bytes.Join(got, nil), bytes.Join(generate(t, again), nil)) {
		t.Fatalf("output is not deterministic")
	}
}

// generate returns the contents of the workflow's file and its mock file.
func generate(t *testing.T, w *plan.Plan) [][]byte {
	t.Helper()
	files, err := codegen.Generate(w, codegen.Options{FileName: "fuzz_flow.go", Source: "fuzz.def"})
	if err != nil {
		t.Fatalf("accepted but not generated: %v", err)
	}
	if len(files) != 2 {
		t.Fatalf("%d files generated, want 2", len(files))
	}
	return [][]byte{files[0].Content, files[1].Content}
}

// checkDiagnostics: every diagnostic names the file, a line of it and a
// column, and prints on one line, so `file:line:col: message` stays
// parseable whatever text the definition holds.
func checkDiagnostics(t *testing.T, path string, src []byte, ds diag.List) {
	t.Helper()
	// An empty document or block scalar at the end is placed on the line
	// after the last, where its content would start.
	lines := lineBreaks(src) + 2
	for _, d := range ds {
		if d.Pos.File != path || d.Pos.Line < 1 || d.Pos.Line > lines || d.Pos.Col < 1 {
			t.Errorf("diagnostic not positioned in the file (%d lines): %s", lines, d)
		}
		if strings.ContainsAny(d.Msg, "\n\r") {
			t.Errorf("diagnostic spans lines: %q", d.String())
		}
	}
}

// lineBreaks bounds the line count of a YAML document from above: yaml.v3
// also breaks lines at a lone \r and at NEL, LS and PS.
func lineBreaks(src []byte) int {
	n := 0
	for _, r := range string(src) {
		switch r {
		case '\n', '\r', '\u0085', '\u2028', '\u2029':
			n++
		}
	}
	return n
}
