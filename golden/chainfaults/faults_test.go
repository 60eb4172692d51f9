package chainfaults

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// Handlers at fault in a task chain, and what a run makes of them: a
// panic or an error takes the task's on_failure, whose target gets the
// failed task's input; without on_failure the chain fails with a
// *StateError naming the task (TaskFailed for a panic); cancellation ends
// the chain before the next task, even when on_failure would take it; and
// Run waits for a handler that ignores the cancellation. Every test here is
// checked for leaked goroutines.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

type handlers struct {
	first, second func(ctx context.Context, call flowcrt.ChainCall) (flowcrt.ChainResult, error)
	called        chan string
}

func (h *handlers) First(ctx context.Context, call flowcrt.ChainCall) (flowcrt.ChainResult, error) {
	h.called <- "first"
	return h.first(ctx, call)
}

func (h *handlers) Second(ctx context.Context, call flowcrt.ChainCall) (flowcrt.ChainResult, error) {
	h.called <- "second"
	return h.second(ctx, call)
}

func echo(_ context.Context, call flowcrt.ChainCall) (flowcrt.ChainResult, error) {
	return flowcrt.ChainResult{Output: call.Input}, nil
}

func newHandlers() *handlers {
	return &handlers{first: echo, second: echo, called: make(chan string, 10)}
}

// calls lists the handlers called so far.
func (h *handlers) calls() []string {
	var out []string
	for {
		select {
		case c := <-h.called:
			out = append(out, c)
		default:
			return out
		}
	}
}

func TestPanicTakesOnFailure(t *testing.T) {
	h := newHandlers()
	h.first = func(context.Context, flowcrt.ChainCall) (flowcrt.ChainResult, error) { panic("first broke") }
	out, err := NewFaults(h).Run(context.Background(), "input")
	require.NoError(t, err)
	assert.Equal(t, "input", out.Output, "recover (noop) gets the failed task's input")
	assert.Equal(t, []string{"first"}, h.calls())
}

func TestPanicWithoutOnFailureFailsTheChain(t *testing.T) {
	h := newHandlers()
	h.second = func(context.Context, flowcrt.ChainCall) (flowcrt.ChainResult, error) { panic("second broke") }
	_, err := NewFaults(h).Run(context.Background(), "input")
	var se *flowcrt.StateError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, "second", se.State)
	assert.Equal(t, "TaskFailed", flowcrt.ErrorName(err))
	assert.ErrorContains(t, err, `panic in state "second": second broke`)
}

func TestNamedErrorFailsTheChain(t *testing.T) {
	h := newHandlers()
	h.second = func(context.Context, flowcrt.ChainCall) (flowcrt.ChainResult, error) {
		return flowcrt.ChainResult{}, flowcrt.NewError("RateLimited", "slow down")
	}
	_, err := NewFaults(h).Run(context.Background(), "input")
	assert.Equal(t, "RateLimited", flowcrt.ErrorName(err))
}

// A handler that stops at the cancellation fails its task, but the chain
// ends there: on_failure's target does not run.
func TestCancelEndsTheChain(t *testing.T) {
	h := newHandlers()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h.first = func(ctx context.Context, _ flowcrt.ChainCall) (flowcrt.ChainResult, error) {
		cancel()
		<-ctx.Done()
		return flowcrt.ChainResult{}, ctx.Err()
	}
	_, err := NewFaults(h).Run(ctx, "input")
	assert.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, []string{"first"}, h.calls())
}

// Run waits for a handler that ignores the cancellation, then ends with it.
func TestStubbornHandlerHoldsTheRun(t *testing.T) {
	h := newHandlers()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h.first = func(context.Context, flowcrt.ChainCall) (flowcrt.ChainResult, error) {
		cancel()
		time.Sleep(50 * time.Millisecond)
		return flowcrt.ChainResult{Output: "late"}, nil
	}
	start := time.Now()
	out, err := NewFaults(h).Run(ctx, "input")
	assert.ErrorIs(t, err, context.Canceled)
	assert.GreaterOrEqual(t, time.Since(start), 50*time.Millisecond)
	assert.Equal(t, "late", out.Output, "the task finished; its output stands")
	assert.Equal(t, []string{"first"}, h.calls(), "no task runs after the cancellation")
}
