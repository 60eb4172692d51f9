package temporal_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	flowcrun "github.com/flowc-dev/flowc/flowrun"
	flowcrt "github.com/flowc-dev/flowc/runtime"
	"github.com/flowc-dev/flowc/temporal/flowtemporal"
	"github.com/flowc-dev/flowc/temporal/golden/aslloop"
	"github.com/flowc-dev/flowc/temporal/golden/chaintoolloop"
	"github.com/flowc-dev/flowc/temporal/golden/jsonloop"
	"github.com/flowc-dev/flowc/temporal/golden/mocked"
	"github.com/flowc-dev/flowc/temporal/golden/typedmap"
)

// TestContinueAsNew runs loops of every dialect two steps per Temporal
// run: each run continues as new from its last checkpoint (typed, JSON
// mode, the States Language) or between two tasks (a task chain), and the
// chain of runs ends with the result line the native engine gives.
func TestContinueAsNew(t *testing.T) {
	defer func(n int) { flowtemporal.StepsPerRun = n }(flowtemporal.StepsPerRun)
	flowtemporal.StepsPerRun = 2
	for _, c := range []struct {
		dir, machine, test string
		name               string // of the workflow
		in, out            any
		register           func(worker.Registry, *flowcrun.Mocks)
		native             func(context.Context, *flowcrun.Mocks) (any, error)
	}{
		{"mocked", "Mocked", "happy", mocked.MockedWorkflowName, mocked.MockedState{}, &mocked.MockedState{},
			func(r worker.Registry, m *flowcrun.Mocks) { mocked.RegisterMockedMock(r, m) },
			func(ctx context.Context, m *flowcrun.Mocks) (any, error) {
				return mocked.NewMockedMock(m).Run(ctx, mocked.MockedState{})
			}},
		{"jsonloop", "loop", "approved", jsonloop.LoopWorkflowName, json.RawMessage(`{"topic":"tides"}`), new(any),
			func(r worker.Registry, m *flowcrun.Mocks) { jsonloop.RegisterLoopMock(r, m) },
			func(ctx context.Context, m *flowcrun.Mocks) (any, error) {
				return jsonloop.NewLoopMock(m).Run(ctx, map[string]any{"topic": "tides"})
			}},
		{"aslloop", "count", "default", aslloop.CountWorkflowName, json.RawMessage(`{"topic":"tides"}`), new(any),
			func(r worker.Registry, m *flowcrun.Mocks) { aslloop.RegisterCountMock(r, m) },
			func(ctx context.Context, m *flowcrun.Mocks) (any, error) {
				return aslloop.NewCountMock(m).Run(ctx, map[string]any{"topic": "tides"})
			}},
		{"chaintoolloop", "toolloop", "three-rounds", chaintoolloop.ToolloopWorkflowName, json.RawMessage(`{"question":"weather?"}`), &flowcrt.ChainState{},
			func(r worker.Registry, m *flowcrun.Mocks) { chaintoolloop.RegisterToolloopMock(r, m) },
			func(ctx context.Context, m *flowcrun.Mocks) (any, error) {
				return chaintoolloop.NewToolloopMock(m).Run(ctx, map[string]any{"question": "weather?"})
			}},
	} {
		t.Run(c.dir, func(t *testing.T) {
			want := flowcrt.ResultLine(c.native(context.Background(), goldenMocks(t, c.dir, c.machine, c.test)))
			mocks := goldenMocks(t, c.dir, c.machine, c.test)
			runs := continuing(t, func(r worker.Registry) { c.register(r, mocks) }, c.name, c.in, c.out)
			var out any = c.out
			if p, ok := c.out.(*any); ok {
				out = *p
			}
			if got := flowcrt.ResultLine(out, nil); string(got) != string(want) || runs < 3 {
				t.Errorf("after %d runs: %s\nwant, in more than two runs: %s", runs, got, want)
			}
		})
	}
}

// continuing runs workflow name, registered by register, on in, in the
// test environment, following every continue-as-new, and decodes the last
// run's result into out. It returns the number of runs.
func continuing(t *testing.T, register func(worker.Registry), name string, in, out any) int {
	var suite testsuite.WorkflowTestSuite
	for runs := 1; ; runs++ {
		env := suite.NewTestWorkflowEnvironment()
		register(env)
		env.ExecuteWorkflow(name, in)
		var next *workflow.ContinueAsNewError
		err := env.GetWorkflowError()
		if errors.As(err, &next) {
			var at json.RawMessage // a checkpoint, or a chain's point
			if err := converter.GetDefaultDataConverter().FromPayloads(next.Input, &at); err != nil {
				t.Fatal(err)
			}
			name, in = next.WorkflowType.Name, at
			continue
		}
		if err == nil {
			err = env.GetWorkflowResult(out)
		}
		if err != nil {
			t.Fatal(err)
		}
		return runs
	}
}

// goldenMocks reads test case test of machine from golden/<dir>/mocks.json.
func goldenMocks(t *testing.T, dir, machine, test string) *flowcrun.Mocks {
	data, err := os.ReadFile(filepath.Join("golden", dir, "mocks.json"))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := flowcrun.ParseMockConfig(data)
	if err != nil {
		t.Fatal(err)
	}
	mocks, err := cfg.Case(machine, test)
	if err != nil {
		t.Fatal(err)
	}
	return mocks
}

// TestMockOrder runs golden/typedmap, a fan-out over six items three at a
// time, over mocks whose k-th answer for "score" differs for every k: on
// Temporal the items call the mock in item order, every time (the order a
// native run usually has; activities in the test environment would
// otherwise run in any order).
func TestMockOrder(t *testing.T) {
	data, err := os.ReadFile("testdata/typedmap_mocks.json")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := flowcrun.ParseMockConfig(data)
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		mocks, err := cfg.Case("Scores", "six-pages")
		if err != nil {
			t.Fatal(err)
		}
		var out typedmap.ScoresState
		continuing(t, func(r worker.Registry) { typedmap.RegisterScoresMock(r, mocks) }, typedmap.ScoresWorkflowName, typedmap.ScoresState{}, &out)
		if !slices.Equal(out.Scores, []int{1, 2, 3, 4, 5, 6}) {
			t.Fatalf("scores %v: want the answers in item order", out.Scores)
		}
	}
}
