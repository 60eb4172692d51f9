// Package jsonata compares flowc's JSONata evaluator (runtime/jsonata) with
// github.com/blues/jsonata-go, the library flowc used before, and with
// jsonata-js under Node, on the expressions of JSONata's own test suite. It
// is a module of its own so that the library stays out of flowc's go.mod:
//
//	cd bench/jsonata
//	go test -run '^$' -bench . -benchmem -count 10 | tee jsonata.txt
//	go run golang.org/x/perf/cmd/benchstat jsonata.txt
//	npm install --no-save jsonata@2 && node bench.mjs   # jsonata-js, same expressions
package jsonata

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	blues "github.com/blues/jsonata-go"

	"github.com/flowc-dev/flowc/runtime/jsonata"

	"github.com/flowc-dev/flowc/internal/sharedtest"
)

// suiteDir is JSONata's test suite, converted to JSON (../shared beside
// the repository; see its README).
const suiteDir = "../../../shared/conformance/jsonata/cases"

// expression is one case both evaluators take: an expression over a
// dataset, with no bindings, that neither fails on.
type expression struct {
	Expr  string `json:"expr"`
	Input any    `json:"input"`
}

// suite reads the cases over datasets, in file order, leaving out the
// groups that measure limits rather than evaluation.
func suite(tb testing.TB) []expression {
	raw := sharedtest.ReadFile(tb, filepath.Join(suiteDir, "datasets.json"))
	var datasets map[string]any
	if err := json.Unmarshal(raw, &datasets); err != nil {
		tb.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(suiteDir, "*.json"))
	slices.Sort(files)
	skip := []string{"datasets.json", "performance.json", "tail-recursion.json", "range-operator.json"}
	var out []expression
	for _, f := range files {
		if slices.Contains(skip, filepath.Base(f)) {
			continue
		}
		var cases []struct {
			Expr     string          `json:"expr"`
			Dataset  *string         `json:"dataset"`
			Bindings json.RawMessage `json:"bindings"`
			Code     string          `json:"code"`
		}
		raw, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		if err := json.Unmarshal(raw, &cases); err != nil {
			tb.Fatal(f, err)
		}
		for _, c := range cases {
			if c.Dataset == nil || c.Code != "" || len(c.Bindings) > 2 || c.Expr == "" {
				continue
			}
			out = append(out, expression{Expr: c.Expr, Input: datasets[*c.Dataset]})
		}
	}
	return out
}

// compiled are the expressions both evaluators compile and evaluate
// without an error.
func compiled(tb testing.TB) ([]expression, []*jsonata.Expr, []*blues.Expr) {
	var exprs []expression
	var ours []*jsonata.Expr
	var theirs []*blues.Expr
	for _, e := range suite(tb) {
		x, err := jsonata.Compile(e.Expr)
		if err != nil {
			continue
		}
		y, err := blues.Compile(e.Expr)
		if err != nil {
			continue
		}
		if _, _, err := x.Eval(context.Background(), e.Input, nil); err != nil {
			continue
		}
		if _, err := evalBlues(y, e.Input); err != nil && err != blues.ErrUndefined {
			continue
		}
		exprs, ours, theirs = append(exprs, e), append(ours, x), append(theirs, y)
	}
	return exprs, ours, theirs
}

// evalBlues evaluates with the library, which panics on some inputs.
func evalBlues(y *blues.Expr, input any) (v any, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = blues.ErrUndefined
		}
	}()
	return y.Eval(input)
}

// TestWriteExpressions writes the expressions the benchmark measures to
// expressions.json, for bench.mjs to run the same ones under jsonata-js.
func TestWriteExpressions(t *testing.T) {
	exprs, _, _ := compiled(t)
	data, err := json.Marshal(exprs)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("expressions.json", data, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d expressions", len(exprs))
}

// BenchmarkSuite evaluates every expression once per iteration.
func BenchmarkSuite(b *testing.B) {
	exprs, ours, theirs := compiled(b)
	b.Run("flowc", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for i, x := range ours {
				_, _, _ = x.Eval(context.Background(), exprs[i].Input, nil)
			}
		}
	})
	b.Run("blues", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for i, y := range theirs {
				_, _ = evalBlues(y, exprs[i].Input)
			}
		}
	})
}
