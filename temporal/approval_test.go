package temporal_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/testsuite"

	flowcrun "github.com/flowc-dev/flowc/flowrun"
	flowcrt "github.com/flowc-dev/flowc/runtime"
	"github.com/flowc-dev/flowc/temporal/flowtemporal"
	"github.com/flowc-dev/flowc/temporal/golden/approval"
	"github.com/flowc-dev/flowc/temporal/golden/review"
)

// TestApprovalSignalAndBound runs golden/review in the test environment:
// the fan-out keeps at most two checks running and joins them in list
// order; the approval waits, shows in the query, ignores a decision that
// is not an option, and takes the signalled one.
func TestApprovalSignalAndBound(t *testing.T) {
	var suite testsuite.WorkflowTestSuite
	env := suite.NewTestWorkflowEnvironment()
	h := &boundHandlers{}
	review.RegisterReview(env, h)
	var pending []flowcrt.Pending
	env.RegisterDelayedCallback(func() {
		v, err := env.QueryWorkflow(flowtemporal.QueryPending)
		if err != nil || v.Get(&pending) != nil {
			t.Errorf("query: %v", err)
		}
		env.SignalWorkflow(flowtemporal.SignalDecision, flowtemporal.Decision{Decision: "maybe"})
		env.SignalWorkflow(flowtemporal.SignalDecision, flowtemporal.Decision{State: "approve", Decision: "drop"})
	}, 24*time.Hour)
	pages := []string{"a", "bb", "ccc", "dddd", "eeeee"}
	env.ExecuteWorkflow(review.ReviewWorkflowName, review.ReviewState{Pages: pages})
	var out review.ReviewState
	if err := env.GetWorkflowResult(&out); err != nil {
		t.Fatal(err)
	}
	if out.Status != "dropped" || !slices.Equal(out.Checked, pages) || out.Words != 15 {
		t.Errorf("final state %+v: want the pages checked in order, 15 words, dropped", out)
	}
	if len(pending) != 1 || pending[0].State != "approve" || pending[0].Prompt != "Publish the checked pages?" {
		t.Errorf("pending %+v: want the approval of state approve", pending)
	}
	if h.most != 2 {
		t.Errorf("at most %d checks ran at once, want max_concurrency 2", h.most)
	}
}

// boundHandlers records how many checks run at once.
type boundHandlers struct {
	mu            sync.Mutex
	running, most int
}

func (h *boundHandlers) Load(context.Context, review.ReviewState) (review.ReviewUpdate, error) {
	return review.ReviewUpdate{}, nil
}

func (h *boundHandlers) Check(_ context.Context, _ review.ReviewState, page string) (review.ReviewUpdate, error) {
	h.mu.Lock()
	h.running++
	h.most = max(h.most, h.running)
	h.mu.Unlock()
	time.Sleep(20 * time.Millisecond)
	h.mu.Lock()
	h.running--
	h.mu.Unlock()
	return review.ReviewUpdate{}.WithChecked([]string{page}).WithWords(len(page)), nil
}

func (h *boundHandlers) Publish(context.Context, review.ReviewState) (review.ReviewUpdate, error) {
	return review.ReviewUpdate{}.WithStatus("published"), nil
}

func (h *boundHandlers) Drop(context.Context, review.ReviewState) (review.ReviewUpdate, error) {
	return review.ReviewUpdate{}.WithStatus("dropped"), nil
}

// TestApprovalTimeout: golden/approval's approval times out after an hour
// on a durable timer when no one answers, and its catch rule takes the
// run to "discard".
func TestApprovalTimeout(t *testing.T) {
	cfg, err := flowcrun.ParseMockConfig([]byte(`{
		"StateMachines": {"Publish": {"TestCases": {"t": {"discard": "Discarded"}}}},
		"MockedResponses": {"Discarded": {"0": {"Return": {"log": ["discarded"]}}}}
	}`))
	if err != nil {
		t.Fatal(err)
	}
	mocks, err := cfg.Case("Publish", "t")
	if err != nil {
		t.Fatal(err)
	}
	var suite testsuite.WorkflowTestSuite
	env := suite.NewTestWorkflowEnvironment()
	approval.RegisterPublishMock(env, mocks)
	start := env.Now()
	env.ExecuteWorkflow(approval.PublishWorkflowName, approval.PublishState{})
	var out approval.PublishState
	if err := env.GetWorkflowResult(&out); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(out.Log, []string{"discarded"}) {
		t.Errorf("log %q: want the run discarded", out.Log)
	}
	if waited := env.Now().Sub(start); waited < time.Hour {
		t.Errorf("the workflow's clock moved %s: want the hour of the approval's timeout", waited)
	}
}
