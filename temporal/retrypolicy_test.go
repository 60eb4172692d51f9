package temporal_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/testsuite"

	flowcrt "github.com/flowc-dev/flowc/runtime"
	"github.com/flowc-dev/flowc/temporal/golden/retrypolicy"
)

// TestRetryPolicy runs golden/retrypolicy in the test environment: the
// rule of "fetch" (every error, plain backoff) is its activity's
// RetryPolicy, so Temporal makes the attempts of one activity; the rule
// of "store" (one error name) is the workflow's, which starts an activity
// per attempt after a durable timer, and its activity is not retried by
// Temporal.
func TestRetryPolicy(t *testing.T) {
	var suite testsuite.WorkflowTestSuite
	env := suite.NewTestWorkflowEnvironment()
	h := &flaky{}
	retrypolicy.RegisterRetried(env, h)
	env.ExecuteWorkflow(retrypolicy.RetriedWorkflowName, retrypolicy.RetriedState{})
	var out retrypolicy.RetriedState
	err := env.GetWorkflowError()
	if err == nil {
		err = env.GetWorkflowResult(&out)
	}
	if err != nil || !slices.Equal(out.Log, []string{"fetched", "stored"}) {
		t.Fatalf("result %+v, %v", out, err)
	}
	want := []string{
		"fetch fetch#1 attempt 1", "fetch fetch#1 attempt 2", "fetch fetch#1 attempt 3",
		"store store#2 attempt 1", "store store#3 attempt 1",
	}
	if !slices.Equal(h.calls, want) {
		t.Errorf("calls %q\nwant %q", h.calls, want)
	}
}

// flaky fails fetch twice and store once, and records each call.
type flaky struct{ calls []string }

func (f *flaky) record(ctx context.Context, state string) int {
	info := activity.GetInfo(ctx)
	f.calls = append(f.calls, fmt.Sprintf("%s %s attempt %d", state, info.ActivityID, info.Attempt))
	return len(f.calls)
}

func (f *flaky) Fetch(ctx context.Context, _ retrypolicy.RetriedState) (retrypolicy.RetriedUpdate, error) {
	if f.record(ctx, "fetch") < 3 {
		return retrypolicy.RetriedUpdate{}, &flowcrt.Error{Name: "Down", Cause: "not yet"}
	}
	return retrypolicy.RetriedUpdate{}.WithLog([]string{"fetched"}), nil
}

func (f *flaky) Store(ctx context.Context, _ retrypolicy.RetriedState) (retrypolicy.RetriedUpdate, error) {
	if f.record(ctx, "store") < 5 {
		return retrypolicy.RetriedUpdate{}, &flowcrt.Error{Name: "Busy", Cause: "locked"}
	}
	return retrypolicy.RetriedUpdate{}.WithLog([]string{"stored"}), nil
}
