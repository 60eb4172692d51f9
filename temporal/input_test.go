package temporal_test

import (
	"encoding/json"
	"testing"
	"time"

	"go.temporal.io/sdk/testsuite"

	flowcrun "github.com/flowc-dev/flowc/flowrun"
	flowcrt "github.com/flowc-dev/flowc/runtime"
	"github.com/flowc-dev/flowc/temporal/flowtemporal"
	"github.com/flowc-dev/flowc/temporal/golden/approval"
)

// TestNewInputWhileWaiting gives golden/approval's session new input while
// its approval waits, through the update flowtemporal.UpdateInput (what
// `flowc run --engine temporal --session --input` sends): the input is
// merged through the state's reducers, the approval asks again, and the
// decision then publishes the merged draft. Source: the native Invoke
// (runtime/impl/checkpoint_session.go), whose existing session merges new
// input into its state and goes on at its checkpoint's state.
func TestNewInputWhileWaiting(t *testing.T) {
	var suite testsuite.WorkflowTestSuite
	env := suite.NewTestWorkflowEnvironment()
	approval.RegisterPublishMock(env, &flowcrun.Mocks{})
	var taken bool
	var askedAgain []flowcrt.Pending
	env.RegisterDelayedCallback(func() {
		env.UpdateWorkflow(flowtemporal.UpdateInput, "input", &testsuite.TestUpdateCallback{
			OnAccept:   func() {},
			OnReject:   func(err error) { t.Errorf("the input was refused: %v", err) },
			OnComplete: func(_ any, err error) { taken = err == nil },
		}, json.RawMessage(`{"draft":"v2","revisions":2}`))
	}, 20*time.Minute) // within the approval's timeout of an hour
	env.RegisterDelayedCallback(func() {
		v, err := env.QueryWorkflow(flowtemporal.QueryPending)
		if err != nil || v.Get(&askedAgain) != nil {
			t.Errorf("query: %v", err)
		}
		env.SignalWorkflow(flowtemporal.SignalDecision, flowtemporal.Decision{Decision: "approve"})
	}, 40*time.Minute)
	env.ExecuteWorkflow(approval.PublishWorkflowName, approval.PublishState{Draft: "v1", Revisions: 1})
	var out approval.PublishState
	if err := env.GetWorkflowResult(&out); err != nil {
		t.Fatal(err)
	}
	if !taken {
		t.Error("the update never completed")
	}
	if len(askedAgain) != 1 || askedAgain[0].State != "review" {
		t.Errorf("pending after the input: %+v, want the approval asking again", askedAgain)
	}
	// draft is replaced, revisions added (reducer add): 1 + 2.
	if out.Draft != "v2" || out.Revisions != 3 {
		t.Errorf("final state %+v: want draft v2 and 3 revisions", out)
	}
}
