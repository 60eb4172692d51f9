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
