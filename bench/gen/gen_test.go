// Package gen measures code generation for large workflows against checking
// them: generating must stay within a small factor of checking, and its
// memory linear in the number of states.
package gen

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/flowc-dev/flowc/codegen"
	"github.com/flowc-dev/flowc/compiler"
	"github.com/flowc-dev/flowc/internal/gocheck"
	"github.com/flowc-dev/flowc/ir/plan"
)

// linear writes a typed workflow of n states, each going to the next.
func linear(n int) []byte {
	var b bytes.Buffer
	b.WriteString("workflow: Big\npackage: big\nstate:\n  n: {type: int, reducer: add}\nstates:\n")
	for i := range n {
		fmt.Fprintf(&b, "  - id: s%d\n", i)
		if i < n-1 {
			fmt.Fprintf(&b, "    next: {state_id: s%d}\n", i+1)
		}
	}
	return b.Bytes()
}

func check(tb testing.TB, src []byte) *plan.Plan {
	dir := tb.TempDir()
	w, ds := compiler.Compile(filepath.Join(dir, "big.flow.yaml"), src, compiler.Options{})
	if len(ds) > 0 || w == nil {
		tb.Fatalf("compile: %v", ds)
	}
	return w
}

func generate(tb testing.TB, w *plan.Plan) []byte {
	files, err := codegen.Generate(w, codegen.Options{FileName: "big_flow.go"})
	if err != nil {
		tb.Fatal(err)
	}
	return files[0].Content
}

// wide writes a typed workflow whose state has n fields of every reducer
// kind that sets them, over a fan-out that joins them.
func wide(n int) []byte {
	var b bytes.Buffer
	b.WriteString("workflow: Wide\npackage: big\nstate:\n")
	for i := range n {
		fmt.Fprintf(&b, "  f%d: {type: int, reducer: add}\n", i)
	}
	b.WriteString("  list: {type: \"[]string\", reducer: append}\n")
	b.WriteString("states:\n  - id: split\n    next: {state_ids: [a, b]}\n  - id: a\n    next: {state_id: join}\n")
	b.WriteString("  - id: b\n    next: {state_id: join}\n  - id: join\n")
	return b.Bytes()
}

// An update of more fields than a word has bits keeps them in an array of
// words, and the code still type-checks.
func TestWideUpdates(t *testing.T) {
	for _, n := range []int{8, 9, 63, 64, 65, 130} {
		out := generate(t, check(t, wide(n)))
		if err := gocheck.Check(out); err != nil {
			t.Fatalf("%d fields: %v", n, err)
		}
	}
}

// A plain state costs at most 20 generated lines.
func TestLinesPerState(t *testing.T) {
	const n = 1000
	lines := bytes.Count(generate(t, check(t, linear(n))), []byte("\n"))
	if per := float64(lines) / n; per > 20 {
		t.Fatalf("%d lines for %d states: %.1f a state, want at most 20", lines, n, per)
	}
}

// BenchmarkStates10k checks and generates a workflow of 10,000 states; the
// two sub-benchmarks side by side give the ratio.
func BenchmarkStates10k(b *testing.B) {
	src := linear(10000)
	b.Run("check", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			check(b, src)
		}
	})
	b.Run("generate", func(b *testing.B) {
		w := check(b, src)
		b.ReportAllocs()
		for b.Loop() {
			generate(b, w)
		}
	})
}
