package codemieloop

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/golden/jsontest"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

func run(t *testing.T, testCase string) (any, error) {
	t.Helper()
	return NewLoopMock(jsontest.Mocks(t, "loop", testCase)).Run(context.Background(), map[string]any{"topic": "Go"})
}

// A person confirms before publish runs.
func TestInterruptBeforeContinue(t *testing.T) {
	out, err := run(t, "approved")
	require.NoError(t, err)
	assert.Equal(t, "https://example.com/post", out.(map[string]any)["url"])
}

// Cancel stops the run with a named error.
func TestInterruptBeforeCancel(t *testing.T) {
	_, err := run(t, "cancelled")
	assert.Equal(t, flowcrt.ErrCancelled, flowcrt.ErrorName(err))
}

// Without an answer the run stops, interrupted at the state.
func TestInterruptBeforeWaits(t *testing.T) {
	_, err := run(t, "waiting")
	require.True(t, flowcrt.IsInterrupted(err), "%v", err)
	assert.Contains(t, string(flowcrt.ResultLine(nil, err)), `"status":"INTERRUPTED"`)
}

// A loop that never ends stops at recursion_limit with a named error.
func TestRecursionLimit(t *testing.T) {
	_, err := run(t, "endless")
	assert.Equal(t, flowcrt.ErrRecursionLimit, flowcrt.ErrorName(err))
	assert.Contains(t, err.Error(), "recursion limit of 4 steps")
}

// retry_policy retries a failed state.
func TestRetryPolicy(t *testing.T) {
	out, err := NewLoopMock(jsontest.Mocks(t, "loop", "flaky"), flowcrt.WithClock(flowcrt.NewFakeClock(time.Unix(0, 0)))).
		Run(context.Background(), map[string]any{"topic": "Go"})
	require.NoError(t, err)
	assert.Equal(t, true, out.(map[string]any)["approved"])
}

// A session saves its checkpoint at the interruption; Decide goes on from
// there without running the states before it again.
func TestInterruptBeforeSession(t *testing.T) {
	mocks := jsontest.Mocks(t, "loop", "waiting")
	w := NewLoopMock(mocks, flowcrt.WithCheckpointer(flowcrt.NewMemoryCheckpointer()))
	_, err := w.Invoke(context.Background(), "s1", map[string]any{"topic": "Go"})
	var wait *flowcrt.Interrupted
	require.ErrorAs(t, err, &wait)
	assert.Equal(t, "s1", wait.Session)
	assert.Equal(t, "publish", wait.State)

	_, err = w.Decide(context.Background(), "s1", "maybe")
	assert.ErrorContains(t, err, `"maybe" is not one of the options "continue", "cancel"`)

	out, err := w.Decide(context.Background(), "s1", "continue")
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"topic": "Go", "approved": true}, out)

	// Cancel at a fresh interruption stops the run with a named error.
	_, err = w.Invoke(context.Background(), "s2", map[string]any{"topic": "Go"})
	require.True(t, flowcrt.IsInterrupted(err))
	_, err = w.Decide(context.Background(), "s2", "cancel")
	assert.Equal(t, flowcrt.ErrCancelled, flowcrt.ErrorName(err))
}
