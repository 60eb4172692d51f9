package jsonparallel

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/golden/jsontest"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// recorded answers from the generated mock and records every call.
type recorded struct {
	ParallelMock
	calls *jsontest.Calls
}

func (h recorded) SecurityReviewer(ctx context.Context, c flowcrt.JSONCall) (string, error) {
	h.calls.Add(c)
	return h.ParallelMock.SecurityReviewer(ctx, c)
}

func (h recorded) PerformanceReviewer(ctx context.Context, c flowcrt.JSONCall) (string, error) {
	h.calls.Add(c)
	return h.ParallelMock.PerformanceReviewer(ctx, c)
}

func (h recorded) StyleReviewer(ctx context.Context, c flowcrt.JSONCall) (string, error) {
	h.calls.Add(c)
	return h.ParallelMock.StyleReviewer(ctx, c)
}

func (h recorded) Summarizer(ctx context.Context, c flowcrt.JSONCall) (string, error) {
	h.calls.Add(c)
	return h.ParallelMock.Summarizer(ctx, c)
}

func state(t *testing.T) flowcrt.JSONState {
	t.Helper()
	s, err := flowcrt.NewJSONState(map[string]any{"repo": "flowc"})
	require.NoError(t, err)
	return s
}

// Each branch starts from the store as state-1 left it and sees none of
// the other branches' keys; at the join the keys each set are merged in
// declaration order, so the verdict of state-4 wins, and the histories are
// concatenated in that order.
func TestBranchesJoinInDeclarationOrder(t *testing.T) {
	calls := &jsontest.Calls{}
	s := state(t)
	h := recorded{NewParallelMockHandlers(jsontest.Mocks(t, "parallel", "reviews")), calls}
	require.NoError(t, NewParallel(h).RunState(context.Background(), &s))

	for _, id := range []string{"state-2", "state-3", "state-4"} {
		c := calls.Of(id)
		require.Len(t, c, 1, id)
		assert.Equal(t, map[string]any{"repo": "flowc", "plan": "check everything"}, c[0].Context, id)
	}
	assert.Equal(t, []string{"Summarize no secrets, fast and tidy; the last verdict was from state-4"}, calls.Tasks("state-5"))
	assert.Equal(t, map[string]any{
		"repo": "flowc", "plan": "check everything", "security": "no secrets", "performance": "fast",
		"style": "tidy", "verdict": "from state-4",
	}, s.Context)
	assert.Equal(t, []string{
		// The user input (workflow.py on_workflow_start), then outputs
		// only, not tasks (base_node.py, _prepare_message_history_update).
		`{"repo":"flowc"}`,
		`{"plan":"check everything"}`,
		`{"security":"no secrets","verdict":"from state-2"}`,
		`{"performance":"fast","verdict":"from state-3"}`,
		`{"style":"tidy","verdict":"from state-4"}`,
		"Summarize no secrets, fast and tidy; the last verdict was from state-4",
	}, jsontest.Contents(s.History))
}

// A failing branch fails the run with its error.
func TestFailingBranch(t *testing.T) {
	// The failure is retried with CodeMie's default policy first (ten
	// attempts, two minutes of back-off): a fake clock skips the waits.
	clock := flowcrt.NewFakeClock(time.Now())
	out, err := NewParallelMock(jsontest.Mocks(t, "parallel", "failing-branch"), flowcrt.WithClock(clock)).Run(context.Background(), map[string]any{"repo": "flowc"})
	require.Error(t, err)
	assert.Equal(t, `{"status":"FAILED","error":"ReviewFailed","cause":"the profiler crashed"}`, string(flowcrt.ResultLine(out, err)))
}

// racing handlers finish the first two branches in reverse order:
// state-2 waits for state-3. CodeMie runs two nodes at once unless
// max_concurrency says otherwise (config.py, WORKFLOW_DEFAULT_CONCURRENCY),
// so state-4 starts once one of them is done.
type racing struct {
	done3 chan struct{}
}

func (racing) Planner(context.Context, flowcrt.JSONCall) (string, error) { return "{}", nil }

func (h racing) SecurityReviewer(context.Context, flowcrt.JSONCall) (string, error) {
	<-h.done3
	return `{"verdict": "from state-2"}`, nil
}

func (h racing) PerformanceReviewer(context.Context, flowcrt.JSONCall) (string, error) {
	defer close(h.done3)
	return `{"verdict": "from state-3"}`, nil
}

func (racing) StyleReviewer(context.Context, flowcrt.JSONCall) (string, error) {
	return `{"verdict": "from state-4"}`, nil
}

func (racing) Summarizer(context.Context, flowcrt.JSONCall) (string, error) { return "done", nil }

func (racing) Summarize(_ context.Context, h flowcrt.Messages) (flowcrt.Messages, error) {
	return jsontest.Unsummarized(h)
}

// Whichever branch finishes last, the join is in declaration order.
func TestJoinDoesNotDependOnTheSchedule(t *testing.T) {
	s := state(t)
	require.NoError(t, NewParallel(racing{make(chan struct{})}).RunState(context.Background(), &s))
	assert.Equal(t, "from state-4", s.Context["verdict"])
	assert.Equal(t, `{"verdict": "from state-2"}`, s.History[2].Content, "the first branch's messages come first, after the input and the plan")
}
