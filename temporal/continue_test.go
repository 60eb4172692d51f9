package temporal_test

import (
	"errors"
	"os"
	"testing"

	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	flowcrt "github.com/flowc-dev/flowc/runtime"
	"github.com/flowc-dev/flowc/temporal/flowtemporal"
	"github.com/flowc-dev/flowc/temporal/golden/mocked"
)

// TestContinueAsNew runs golden/mocked (retries and loops, a dozen steps)
// two steps per Temporal run: each run continues as new from its last
// checkpoint, and the chain of runs ends where one long run would.
func TestContinueAsNew(t *testing.T) {
	defer func(n int) { flowtemporal.StepsPerRun = n }(flowtemporal.StepsPerRun)
	flowtemporal.StepsPerRun = 2
	data, err := os.ReadFile("golden/mocked/mocks.json")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := flowcrt.ParseMockConfig(data)
	if err != nil {
		t.Fatal(err)
	}
	mocks, err := cfg.Case("Mocked", "happy")
	if err != nil {
		t.Fatal(err)
	}
	name, in := mocked.MockedWorkflowName, any(mocked.MockedState{})
	var suite testsuite.WorkflowTestSuite
	for runs := 1; ; runs++ {
		env := suite.NewTestWorkflowEnvironment()
		mocked.RegisterMockedMock(env, mocks)
		env.ExecuteWorkflow(name, in)
		var next *workflow.ContinueAsNewError
		if err := env.GetWorkflowError(); errors.As(err, &next) {
			var cp flowcrt.Checkpoint
			if err := converter.GetDefaultDataConverter().FromPayloads(next.Input, &cp); err != nil {
				t.Fatal(err)
			}
			name, in = next.WorkflowType.Name, cp
			continue
		} else if err != nil {
			t.Fatal(err)
		}
		var out mocked.MockedState
		if err := env.GetWorkflowResult(&out); err != nil {
			t.Fatal(err)
		}
		if line := string(flowcrt.ResultLine(out, nil)); line != `{"status":"SUCCEEDED","output":{"items":["first","later","later","later"],"count":114}}` || runs < 4 {
			t.Errorf("after %d runs: %s", runs, line)
		}
		return
	}
}
