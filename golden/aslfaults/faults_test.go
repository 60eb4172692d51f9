package aslfaults

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// Handlers at fault in a state machine, and what a run makes of them: a
// panic is States.TaskFailed; a handler past TimeoutSeconds is
// States.Timeout, even when it ignores its context; retries stop at
// MaxAttempts; cancellation stops Parallel and Map states; no goroutine
// outlives Run. Every test here is checked for leaked goroutines.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

type behaviour int

const (
	succeeds behaviour = iota
	panics
	blocks   // until its context is done
	stubborn // ignores its context: returns only when released
	flaky    // fails with the error Flaky, every time
)

type handlers struct {
	do      map[string]behaviour
	started chan string   // the resource of every call, in order
	release chan struct{} // closed to let stubborn handlers return
}

func newHandlers(do map[string]behaviour) *handlers {
	return &handlers{do: do, started: make(chan string, 100), release: make(chan struct{})}
}

func (h *handlers) act(ctx context.Context, resource string, in any) (any, error) {
	h.started <- resource
	switch h.do[resource] {
	case panics:
		panic(resource + " broke")
	case blocks:
		<-ctx.Done()
		return nil, ctx.Err()
	case stubborn:
		<-h.release
		return "late", nil
	case flaky:
		return nil, flowcrt.NewError("Flaky", resource+" failed")
	}
	return in, nil
}

func (h *handlers) Start(ctx context.Context, in any) (any, error) { return h.act(ctx, "start", in) }
func (h *handlers) Left(ctx context.Context, in any) (any, error)  { return h.act(ctx, "left", in) }
func (h *handlers) Right(ctx context.Context, in any) (any, error) { return h.act(ctx, "right", in) }
func (h *handlers) Each(ctx context.Context, in any) (any, error)  { return h.act(ctx, "each", in) }

type result struct {
	out  any
	err  error
	took time.Duration
}

// start runs the machine in the background; retry intervals take no time.
func start(ctx context.Context, h *handlers) <-chan result {
	done := make(chan result, 1)
	go func() {
		begin := time.Now()
		clock := flowcrt.NewFakeClock(begin)
		in := map[string]any{"items": []any{"x", "y", "z", "w", "v"}}
		out, err := NewFaults(h, flowcrt.WithClock(clock)).Run(ctx, in)
		done <- result{out, err, time.Since(begin)}
	}()
	return done
}

func wait(t *testing.T, done <-chan result) result {
	t.Helper()
	select {
	case r := <-done:
		return r
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return")
		return result{}
	}
}

// waitStarted waits until resources (names separated by |) have started n
// times in all, dropping what else starts meanwhile.
func waitStarted(t *testing.T, h *handlers, resource string, n int) {
	t.Helper()
	for n > 0 {
		select {
		case s := <-h.started:
			if slices.Contains(strings.Split(resource, "|"), s) {
				n--
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s did not start", resource)
		}
	}
}

func assertFailed(t *testing.T, err error, name, cause string) {
	t.Helper()
	require.Error(t, err)
	assert.Equal(t, name, flowcrt.ErrorName(err))
	assert.ErrorContains(t, err, cause)
}

// A panic in a Task, a Parallel branch or a Map item is States.TaskFailed.
func TestPanicIsTaskFailed(t *testing.T) {
	for _, resource := range []string{"start", "right", "each"} {
		t.Run(resource, func(t *testing.T) {
			h := newHandlers(map[string]behaviour{resource: panics})
			r := wait(t, start(context.Background(), h))
			assertFailed(t, r.err, "States.TaskFailed", resource+" broke")
		})
	}
}

// A handler past TimeoutSeconds fails with States.Timeout, which the
// Catch takes, whether it stops at its context or returns late anyway.
func TestTimeoutIsCaught(t *testing.T) {
	for _, b := range []behaviour{blocks, stubborn} {
		h := newHandlers(map[string]behaviour{"start": b})
		if b == stubborn {
			defer time.AfterFunc(1500*time.Millisecond, func() { close(h.release) }).Stop()
		}
		r := wait(t, start(context.Background(), h))
		require.NoError(t, r.err)
		assert.Equal(t, "timed out", r.out)
		assert.GreaterOrEqual(t, r.took, time.Second)
	}
}

// MaxAttempts counts retries, as in Step Functions: three retries after
// the first call, then Flaky fails the run.
func TestRetriesRunOut(t *testing.T) {
	h := newHandlers(map[string]behaviour{"start": flaky})
	r := wait(t, start(context.Background(), h))
	assertFailed(t, r.err, "Flaky", "start failed")
	close(h.started)
	calls := 0
	for range h.started {
		calls++
	}
	assert.Equal(t, 4, calls)
}

// Cancelling the run stops the branches of a Parallel state.
func TestCancelDuringParallel(t *testing.T) {
	h := newHandlers(map[string]behaviour{"left": blocks, "right": blocks})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := start(ctx, h)
	waitStarted(t, h, "left|right", 2) // branches start in any order
	cancel()
	assert.ErrorIs(t, wait(t, done).err, context.Canceled)
}

// Cancelling the run stops a Map state's items (two at a time) and starts
// no more.
func TestCancelDuringMap(t *testing.T) {
	h := newHandlers(map[string]behaviour{"each": blocks})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := start(ctx, h)
	waitStarted(t, h, "each", 2)
	cancel()
	assert.ErrorIs(t, wait(t, done).err, context.Canceled)
	close(h.started)
	for s := range h.started {
		assert.NotEqual(t, "each", s, "an item started after the cancellation")
	}
}

// A failing branch cancels its sibling, and the run waits for a sibling
// that ignores the cancellation before it fails.
func TestStubbornBranchHoldsTheRun(t *testing.T) {
	h := newHandlers(map[string]behaviour{"left": stubborn, "right": panics})
	done := start(context.Background(), h)
	waitStarted(t, h, "left", 1)
	select {
	case r := <-done:
		t.Fatalf("Run returned while a branch was still running: %v", r.err)
	case <-time.After(50 * time.Millisecond):
	}
	close(h.release)
	r := wait(t, done)
	assertFailed(t, r.err, "States.TaskFailed", "right broke")
	assert.False(t, errors.Is(r.err, context.Canceled))
}
