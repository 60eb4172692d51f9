package compiler_test

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/compiler"
	"github.com/flowc-dev/flowc/internal/gocheck"
	"github.com/flowc-dev/flowc/ir/plan"
)

// The limits tests compile definitions far larger than any written by hand
// and check that cost grows linearly: 10,000 states of each dialect must
// compile in under 30 times what 1,000 take (10 times, plus room for
// noise), the whole compilation and generation within a fixed bound, and
// the output still type-checks. docs/RELIABILITY.md records the measured
// figures; go test -v prints them. They run without -race (.ci/run runs
// them on their own), as the race detector would only measure itself.

const (
	// maxRatio bounds time(10k states) / time(1k states): linear growth is
	// 10, a quadratic step would be 100.
	maxRatio = 30
	// maxCompile bounds compiling (front-end and checker) 10,000 states;
	// it takes under half a second on one core.
	maxCompile = 10 * time.Second
	// maxGenerate bounds generating and formatting 10,000 states of Go
	// (about 11 MB); it takes under 10 seconds on one core.
	maxGenerate = 60 * time.Second
	// maxHeap bounds the live heap while compiling and generating 10,000
	// states.
	maxHeap = 1 << 30
)

// TestLimitsStates compiles 1,000 and 10,000 states of each dialect.
func TestLimitsStates(t *testing.T) {
	skipLimits(t)
	for _, d := range []struct {
		name, file string
		src        func(n int) []byte
	}{
		{"native", "big.flow.yaml", nativeStates},
		{"asl", "big.asl.json", aslStates},
		{"chain", "big.chain.yaml", chainStates},
	} {
		t.Run(d.name, func(t *testing.T) {
			path := "limits/" + d.file
			small := fastest(3, func() { mustCompile(t, path, d.src(1000)) })
			big := d.src(10000)
			var peak int64
			stop := sampleHeap(&peak)
			// The fastest of two, as for the small one: one run of 10k
			// states can take a collection or a preemption the other
			// misses, and the ratio is what the test is about.
			large := fastest(2, func() { mustCompile(t, path, big) })
			start := time.Now()
			out := generate(t, mustCompile(t, path, big))
			gen := time.Since(start)
			stop()
			t.Logf("%s: 1k states %v, 10k states %v (%.1fx), generate 10k %v (%d KB of Go), peak heap %d MB",
				d.name, small, large, float64(large)/float64(small), gen, len(bytes.Join(out, nil))>>10, peak>>20)
			assert.Less(t, large, maxRatio*small+50*time.Millisecond, "compiling 10k states is more than %dx 1k", maxRatio)
			assert.Less(t, large, maxCompile)
			assert.Less(t, gen, maxGenerate)
			assert.Less(t, peak, int64(maxHeap))
			require.NoError(t, gocheck.Check(out...))
		})
	}
}

// TestLimitsFanOut measures the one step known to grow faster than
// linearly: the flowc YAML front-end finds each parallel fan-out's join by
// walking everything its branches reach, so a line of R fan-outs over N
// states costs O(R x N). A bound keeps it from getting worse.
func TestLimitsFanOut(t *testing.T) {
	skipLimits(t)
	small := fastest(3, func() { mustCompile(t, "limits/fan.flow.yaml", fanOuts(1000)) })
	large := fastest(1, func() { mustCompile(t, "limits/fan.flow.yaml", fanOuts(4000)) })
	t.Logf("fan-out: 1k states %v, 4k states %v (%.1fx)", small, large, float64(large)/float64(small))
	assert.Less(t, large, maxGenerate)
}

// TestLimitsShapes covers what is large in other ways than its number of
// states: deep nesting, huge expressions, long strings and YAML bombs.
// Each is either compiled within the bounds or rejected with a positioned
// error that says why.
func TestLimitsShapes(t *testing.T) {
	skipLimits(t)
	long := strings.Repeat("x", 1<<20)
	for _, c := range []struct {
		name, file string
		src        []byte
		reject     string // "" when it compiles
	}{
		{"parallel nested 1000 deep", "deep.asl.json", nestedParallel(1000), ""},
		{"expression of 1000 terms", "expr.flow.yaml", condition(strings.Repeat("count > 0 and ", 1000) + "True"), ""},
		{"expression of 10000 terms", "expr.flow.yaml", condition(strings.Repeat("count > 0 and ", 10000) + "True"), "expression exceeds maximum allowed nodes"},
		{"expression nested 10000 deep", "expr.flow.yaml", condition(strings.Repeat("(", 10000) + "count > 0" + strings.Repeat(")", 10000)), ""},
		{"string literal of 1 MB", "expr.flow.yaml", condition("status == '" + long + "'"), ""},
		{"description of 1 MB", "desc.flow.yaml", []byte("description: " + long + "\nstate: {c: int}\nstates:\n  - id: a\n"), ""},
		{"state id of 1 MB", "id.flow.yaml", []byte("state: {c: int}\nstates:\n  - id: a" + long + "\n"), ""},
		{"YAML nested 100000 deep", "deep.flow.yaml", []byte("description: " + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + "\n"), "exceeded max depth"},
		{"YAML alias bomb", "bomb.flow.yaml", aliasBomb(), "unknown key"},
		{"ASL state name of 81 characters", "long.asl.json", []byte(`{"StartAt": "a", "States": {"a` + long[:80] + `": {"Type": "Succeed"}}}`), "1 to 80 characters"},
		// yaml.v3, which reads JSON too, takes no key over 1024 characters.
		{"JSON key of 1 MB", "long.asl.json", []byte(`{"StartAt": "a", "States": {"a` + long + `": {"Type": "Succeed"}}}`), "invalid JSON"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := "limits/" + c.file
			var peak int64
			stop := sampleHeap(&peak)
			start := time.Now()
			w, ds := compiler.Compile(path, c.src, compiler.Options{NoPackage: true})
			var out [][]byte
			if w != nil {
				out = generate(t, w)
			}
			took := time.Since(start)
			stop()
			t.Logf("%s: %d KB in, %v, %d KB of Go, peak heap %d MB", c.name, len(c.src)>>10, took, len(bytes.Join(out, nil))>>10, peak>>20)
			assert.Less(t, took, maxGenerate)
			assert.Less(t, peak, int64(maxHeap))
			checkDiagnostics(t, path, c.src, ds)
			if c.reject != "" {
				require.Nil(t, w, "should be rejected")
				assert.Contains(t, ds.Lines(), c.reject)
				return
			}
			require.NotNil(t, w, ds.Lines())
			require.NoError(t, gocheck.Check(out...))
		})
	}
}

func skipLimits(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("measures time and memory: run without -short and -race")
	}
	if err := gocheck.Preload(); err != nil {
		t.Fatal(err)
	}
}

func mustCompile(t *testing.T, path string, src []byte) *plan.Plan {
	w, ds := compiler.Compile(path, src, compiler.Options{NoPackage: true})
	require.NotNil(t, w, "%.2000s", ds.Lines())
	return w
}

// fastest runs f n times and returns its shortest run, the one least
// disturbed by other work on the machine.
func fastest(n int, f func()) time.Duration {
	best := time.Duration(1<<63 - 1)
	for range n {
		runtime.GC()
		start := time.Now()
		f()
		best = min(best, time.Since(start))
	}
	return best
}

// sampleHeap records the largest live heap seen until stop is called.
func sampleHeap(peak *int64) (stop func()) {
	runtime.GC()
	var done atomic.Bool
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		var m runtime.MemStats
		for !done.Load() {
			runtime.ReadMemStats(&m)
			if h := int64(m.HeapAlloc); h > atomic.LoadInt64(peak) {
				atomic.StoreInt64(peak, h)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	return func() { done.Store(true); <-finished }
}

// nativeStates is a typed workflow of n states in a line, each with a
// retry policy and a condition.
func nativeStates(n int) []byte {
	var b strings.Builder
	b.WriteString("workflow: Big\nstate:\n  count: {type: int, reducer: add}\n  status: string\nstates:\n")
	for i := range n {
		next := fmt.Sprintf("s%d", i+1)
		if i == n-1 {
			next = "end"
		}
		fmt.Fprintf(&b, "  - id: s%d\n    retry: [{errors: [Flaky], max_attempts: 2}]\n", i)
		fmt.Fprintf(&b, "    next: {condition: {expression: \"count > %d and status != 'x'\", then: %s, otherwise: end}}\n", i, next)
	}
	return []byte(b.String())
}

// aslStates is a state machine of n states cycling through Task, Choice
// and Pass, with 50 resources.
func aslStates(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"StartAt": "s0", "States": {`)
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		switch {
		case i == n-1:
			fmt.Fprintf(&b, `"s%d": {"Type": "Succeed"}`, i)
		case i%3 == 0:
			fmt.Fprintf(&b, `"s%d": {"Type": "Task", "Resource": "r%d", "Parameters": {"x.$": "$.x"}, "Retry": [{"ErrorEquals": ["E"]}], "Next": "s%d"}`, i, i%50, i+1)
		case i%3 == 1:
			fmt.Fprintf(&b, `"s%d": {"Type": "Choice", "Choices": [{"Variable": "$.x", "NumericGreaterThan": %d, "Next": "s%d"}], "Default": "s%d"}`, i, i, i+1, i+1)
		default:
			fmt.Fprintf(&b, `"s%d": {"Type": "Pass", "Result": {"k": "v%d"}, "ResultPath": "$.p", "Next": "s%d"}`, i, i, i+1)
		}
	}
	b.WriteString("}}")
	return []byte(b.String())
}

// chainStates is a chain of n tasks over 100 handlers, each with a
// template, on_failure and two branches.
func chainStates(n int) []byte {
	var b strings.Builder
	b.WriteString("tasks:\n")
	for i := range n {
		next := fmt.Sprintf("t%d", i+1)
		if i == n-1 {
			next = "end"
		}
		fmt.Fprintf(&b, "  - id: t%d\n    handler: h%d\n    prompt_template: \"step {{.v}}\"\n    transition:\n      on_failure: end\n", i, i%100)
		fmt.Fprintf(&b, "      branches:\n        - {operator: contains, when: x, goto: %s, compose: {with_var: v}}\n        - {operator: default, goto: %s}\n", next, next)
	}
	return []byte(b.String())
}

// nestedParallel nests a Parallel state in the branch of another, depth
// times.
func nestedParallel(depth int) []byte {
	inner := `{"StartAt": "leaf", "States": {"leaf": {"Type": "Pass", "End": true}}}`
	for i := range depth {
		inner = fmt.Sprintf(`{"StartAt": "p%d", "States": {"p%d": {"Type": "Parallel", "Branches": [%s], "End": true}}}`, i, i, inner)
	}
	return []byte(inner)
}

// condition is a typed workflow whose one condition is expr.
func condition(expr string) []byte {
	return []byte("state: {count: int, status: string}\nstates:\n  - id: a\n    next: {condition: {expression: \"" + expr + "\", then: end, otherwise: end}}\n")
}

// aliasBomb is the "billion laughs": ten levels of ten aliases each.
func aliasBomb() []byte {
	var b strings.Builder
	b.WriteString("a: &a [x, x, x, x, x, x, x, x, x, x]\n")
	for c := 'b'; c <= 'j'; c++ {
		fmt.Fprintf(&b, "%c: &%c [%s]\n", c, c, strings.TrimSuffix(strings.Repeat("*"+string(c-1)+", ", 10), ", "))
	}
	b.WriteString("state: *j\nstates:\n  - id: a\n")
	return []byte(b.String())
}

// fanOuts is a typed workflow of n states: n/5 parallel fan-outs in a line,
// each joined and followed by an iteration.
func fanOuts(n int) []byte {
	var b strings.Builder
	b.WriteString("workflow: Fan\nstate:\n  count: {type: int, reducer: add}\n  items: {type: \"[]string\"}\nstates:\n")
	for i := range n / 5 {
		next := fmt.Sprintf("a%d", i+1)
		if i == n/5-1 {
			next = "end"
		}
		fmt.Fprintf(&b, "  - id: a%d\n    next: {state_ids: [b%d, c%d]}\n", i, i, i)
		fmt.Fprintf(&b, "  - id: b%d\n    next: {state_id: d%d}\n  - id: c%d\n    next: {state_id: d%d}\n", i, i, i, i)
		fmt.Fprintf(&b, "  - id: d%d\n    next: {state_id: m%d, iter_key: items}\n  - id: m%d\n    next: {state_id: %s}\n", i, i, i, next)
	}
	return []byte(b.String())
}
