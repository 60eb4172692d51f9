package impl_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// Faults at the runtime's level that generated code cannot easily stage:
// hostile panic values, every worker of a fan-out failing at once, and a
// worker that ignores cancellation. The generated-code view of handler
// faults is in golden/faults, golden/aslfaults and golden/chainfaults.
// TestMain checks every test here for leaked goroutines.

// evil is a panic value whose methods panic in turn.
type evil struct{}

func (evil) Error() string  { panic("Error panics too") }
func (evil) String() string { panic("String panics too") }

// A panic whose value cannot even be printed is still a TaskFailed error
// naming the state, not a crash.
func TestPanicValueThatPanicsWhenPrinted(t *testing.T) {
	cfg := impl.NewConfig()
	err := impl.Call(context.Background(), &cfg, &impl.Policy{State: "s"}, func(context.Context) error {
		panic(evil{})
	})
	require.Error(t, err)
	assert.Equal(t, "TaskFailed", impl.ErrorName(err))
	assert.Contains(t, err.Error(), `panic in state "s"`)
}

// When every worker panics at once, FanOut returns one of the panics as
// an error and nothing crashes.
func TestFanOutEveryWorkerPanics(t *testing.T) {
	for _, limit := range []int{1, 4, 0} {
		err := impl.FanOut(context.Background(), "split", 16, limit, func(context.Context, int) error {
			panic("boom")
		})
		require.Error(t, err)
		assert.Equal(t, "TaskFailed", impl.ErrorName(err))
		assert.Contains(t, err.Error(), `panic in state "split": boom`)
	}
}

// A worker that ignores the cancellation its sibling's failure causes
// holds FanOut until it returns: no goroutine outlives FanOut. The first
// failure is the error, not what the late worker returned.
func TestFanOutWaitsForAWorkerThatIgnoresCancellation(t *testing.T) {
	boom := errors.New("boom")
	var finished atomic.Bool
	running := make(chan struct{})
	start := time.Now()
	err := impl.FanOut(context.Background(), "split", 2, 0, func(_ context.Context, i int) error {
		if i == 0 {
			<-running
			return boom
		}
		close(running)
		time.Sleep(50 * time.Millisecond) // ignores ctx
		finished.Store(true)
		return errors.New("late")
	})
	assert.ErrorIs(t, err, boom)
	assert.True(t, finished.Load(), "FanOut returned before its worker")
	assert.GreaterOrEqual(t, time.Since(start), 50*time.Millisecond)
}

// Cancelling the run while a retry waits ends the wait at once, with the
// cancellation, and no further attempt.
func TestCancelDuringRetryBackoffInFanOut(t *testing.T) {
	cfg := impl.NewConfig() // the system clock: the backoff really waits
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := &impl.Policy{State: "item", Retry: []impl.Retrier{{Errors: []string{"ALL"}, MaxAttempts: 5, Interval: time.Hour}}}
	var attempts atomic.Int32
	timer := time.AfterFunc(20*time.Millisecond, cancel)
	defer timer.Stop()
	err := impl.FanOut(ctx, "split", 4, 0, func(ctx context.Context, _ int) error {
		return impl.Call(ctx, &cfg, p, func(context.Context) error {
			attempts.Add(1)
			return errors.New("flaky")
		})
	})
	assert.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, int32(4), attempts.Load(), "one attempt per item, none after the cancellation")
}
