package asl

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrun "github.com/flowc-dev/flowc/flowrun"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// machine is what every generated state machine offers.
type machine interface {
	Run(ctx context.Context, input any) (any, error)
}

// newMachine builds a generated machine over mocks.
type newMachine func(m *flowcrun.Mocks, opts ...flowcrt.Option) machine

// benchCase is one definition of bench.mjs's BENCH_CASES.
type benchCase struct {
	corpus, def string // asldiff case name suffix, local definition
	machine     newMachine
}

var cases = []benchCase{
	{"io-task-full-order", "taskorder.asl.json", func(m *flowcrun.Mocks, o ...flowcrt.Option) machine { return NewTaskorderMock(m, o...) }},
	{"retry-then-catch", "retrycatch.asl.json", func(m *flowcrun.Mocks, o ...flowcrt.Option) machine { return NewRetrycatchMock(m, o...) }},
	{"choice-loop-counter", "choiceloop.asl.json", func(m *flowcrun.Mocks, o ...flowcrt.Option) machine { return NewChoiceloopMock(m, o...) }},
	{"parallel-branch-multi-state", "parallel.asl.json", func(m *flowcrun.Mocks, o ...flowcrt.Option) machine { return NewParallelMock(m, o...) }},
	{"map-task-mock-sequence", "mapmock.asl.json", func(m *flowcrun.Mocks, o ...flowcrt.Option) machine { return NewMapmockMock(m, o...) }},
	{"fn-nested", "intrinsics.asl.json", func(m *flowcrun.Mocks, o ...flowcrt.Option) machine { return NewIntrinsicsMock(m, o...) }},
}

// fixture is a case's input, mocks and expected line, read from asldiff.
type fixture struct {
	dir      string
	input    []byte
	mocks    *flowcrun.MockConfig
	expected map[string]any
}

func load(t testing.TB, c benchCase) fixture {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join("..", "..", "asldiff", "cases", "*-"+c.corpus))
	require.NoError(t, err)
	require.Len(t, dirs, 1, "asldiff case %s", c.corpus)
	f := fixture{dir: dirs[0]}
	f.input, err = os.ReadFile(filepath.Join(f.dir, "input.json"))
	require.NoError(t, err)
	raw, err := os.ReadFile(filepath.Join(f.dir, "mocks.json"))
	require.NoError(t, err)
	f.mocks, err = flowcrun.ParseMockConfig(raw)
	require.NoError(t, err)
	raw, err = os.ReadFile(filepath.Join(f.dir, "expected.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &f.expected))
	return f
}

// execute runs one execution with fresh mocks and returns its result line.
func execute(t testing.TB, c benchCase, f fixture) []byte {
	m, err := f.mocks.Case("", "default")
	if err != nil {
		t.Fatal(err)
	}
	in, err := flowcrt.DecodeASLInput(f.input)
	if err != nil {
		t.Fatal(err)
	}
	out, err := c.machine(m, flowcrt.WithClock(flowcrt.NewFakeClock(time.Unix(0, 0)))).Run(context.Background(), in)
	return flowcrt.ResultLine(out, err)
}

// TestSameDefinitions keeps the copies in step with the corpus.
func TestSameDefinitions(t *testing.T) {
	for _, c := range cases {
		f := load(t, c)
		want, err := os.ReadFile(filepath.Join(f.dir, "definition.asl.json"))
		require.NoError(t, err)
		got, err := os.ReadFile(c.def)
		require.NoError(t, err)
		assert.True(t, bytes.Equal(want, got), "%s differs from %s: copy it again and run go generate", c.def, f.dir)
	}
}

// TestExpected checks that what is measured is right.
func TestExpected(t *testing.T) {
	for _, c := range cases {
		f := load(t, c)
		var got map[string]any
		require.NoError(t, json.Unmarshal(execute(t, c, f), &got))
		if _, ok := f.expected["cause"]; !ok {
			delete(got, "cause")
		}
		assert.Equal(t, f.expected, got, c.corpus)
	}
}

func BenchmarkASL(b *testing.B) {
	for _, c := range cases {
		f := load(b, c)
		b.Run(c.corpus, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				execute(b, c, f)
			}
		})
	}
}
