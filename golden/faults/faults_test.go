package faults

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// Handlers at fault, and what a run makes of them (docs/generated-api.md): a
// panic fails the run with a TaskFailed error naming the state; a handler
// that overruns its timeout fails with Timeout, even when it ignores its
// context and returns late; retries stop after max_attempts and the last
// error stands; cancellation stops a run inside its fan-outs; and no
// goroutine outlives Run, so Run waits even for a handler that ignores
// cancellation. Every test here is checked for leaked goroutines.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// behaviour is what a state's handler does.
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
	started chan string   // the state of every call, in order
	release chan struct{} // closed to let stubborn handlers return
}

func newHandlers(do map[string]behaviour) *handlers {
	return &handlers{do: do, started: make(chan string, 100), release: make(chan struct{})}
}

func (h *handlers) act(ctx context.Context, state string) (FaultsUpdate, error) {
	h.started <- state
	switch h.do[state] {
	case panics:
		panic(state + " broke")
	case blocks:
		<-ctx.Done()
		return FaultsUpdate{}, ctx.Err()
	case stubborn:
		<-h.release
		return FaultsUpdate{}.WithLog([]string{state + " late"}), nil
	case flaky:
		return FaultsUpdate{}, flowcrt.NewError("Flaky", state+" failed")
	}
	return FaultsUpdate{}.WithLog([]string{state}), nil
}

func (h *handlers) Start(ctx context.Context, _ FaultsState) (FaultsUpdate, error) {
	return h.act(ctx, "start")
}
func (h *handlers) Left(ctx context.Context, _ FaultsState) (FaultsUpdate, error) {
	return h.act(ctx, "left")
}
func (h *handlers) Right(ctx context.Context, _ FaultsState) (FaultsUpdate, error) {
	return h.act(ctx, "right")
}
func (h *handlers) Join(ctx context.Context, _ FaultsState) (FaultsUpdate, error) {
	return h.act(ctx, "join")
}
func (h *handlers) Each(ctx context.Context, _ FaultsState, item string) (FaultsUpdate, error) {
	u, err := h.act(ctx, "each")
	return u.WithLog([]string{"each " + item}), err
}
func (h *handlers) Done(ctx context.Context, _ FaultsState) (FaultsUpdate, error) {
	return h.act(ctx, "done")
}
func (h *handlers) TimedOut(ctx context.Context, _ FaultsState) (FaultsUpdate, error) {
	return h.act(ctx, "timed_out")
}

var input = FaultsState{Items: []string{"x", "y", "z", "w", "v"}}

// result is what Run returned, and when.
type result struct {
	out  FaultsState
	err  error
	took time.Duration
}

// start runs the workflow in the background.
func start(ctx context.Context, h *handlers) <-chan result {
	done := make(chan result, 1)
	go func() {
		begin := time.Now()
		out, err := NewFaults(h).Run(ctx, input)
		done <- result{out, err, time.Since(begin)}
	}()
	return done
}

// wait returns the run's result, failing the test if it takes 5 seconds.
func wait(t *testing.T, done <-chan result) result {
	t.Helper()
	select {
	case r := <-done:
		return r
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return")
		return result{}
	}
}

// waitStarted waits for a call of each state in want, in any order (a
// state named twice: two calls), skipping calls of other states.
func waitStarted(t *testing.T, h *handlers, want ...string) {
	t.Helper()
	left := map[string]int{}
	for _, s := range want {
		left[s]++
	}
	for n := len(want); n > 0; {
		select {
		case s := <-h.started:
			if left[s] > 0 {
				left[s]--
				n--
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("states %v did not all start", want)
		}
	}
}

func assertStateError(t *testing.T, err error, state, name string) {
	t.Helper()
	var se *flowcrt.StateError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, state, se.State)
	assert.Equal(t, name, flowcrt.ErrorName(err))
}

// A panic anywhere, in a fan-out branch or an iteration too, fails the run
// with a TaskFailed error that names the state.
func TestPanicFailsTheRunNamingTheState(t *testing.T) {
	for _, state := range []string{"start", "left", "join", "each"} {
		t.Run(state, func(t *testing.T) {
			h := newHandlers(map[string]behaviour{state: panics})
			r := wait(t, start(context.Background(), h))
			assertStateError(t, r.err, state, "TaskFailed")
			assert.ErrorContains(t, r.err, `panic in state "`+state+`": `+state+" broke")
		})
	}
}

// A handler that honours its context is stopped at its timeout; the
// Timeout is caught.
func TestTimeoutStopsTheHandler(t *testing.T) {
	h := newHandlers(map[string]behaviour{"start": blocks})
	r := wait(t, start(context.Background(), h))
	require.NoError(t, r.err)
	assert.Equal(t, []string{"timed_out"}, r.out.Log)
	assert.GreaterOrEqual(t, r.took, 30*time.Millisecond)
}

// A handler that ignores its context cannot be stopped: the run waits for
// it, then treats the overrun as a Timeout, whatever it returned.
func TestOverrunIsATimeoutEvenWhenTheHandlerIgnoresIt(t *testing.T) {
	h := newHandlers(map[string]behaviour{"start": stubborn})
	timer := time.AfterFunc(80*time.Millisecond, func() { close(h.release) })
	defer timer.Stop()
	r := wait(t, start(context.Background(), h))
	require.NoError(t, r.err)
	assert.Equal(t, []string{"timed_out"}, r.out.Log, "the late success is discarded")
	select { // measured against the release itself, not a clock read before Run began
	case <-h.release:
	default:
		t.Fatal("Run returned before its handler")
	}
}

// max_attempts counts every call: three calls, then the error of the last
// one fails the run (catch takes only Timeout here).
func TestRetriesRunOut(t *testing.T) {
	h := newHandlers(map[string]behaviour{"start": flaky})
	r := wait(t, start(context.Background(), h))
	assertStateError(t, r.err, "start", "Flaky")
	assert.ErrorContains(t, r.err, "start failed")
	close(h.started)
	calls := 0
	for range h.started {
		calls++
	}
	assert.Equal(t, 3, calls)
}

// Cancelling the run while both parallel branches are blocked stops them
// and the run.
func TestCancelDuringParallelBranches(t *testing.T) {
	h := newHandlers(map[string]behaviour{"left": blocks, "right": blocks})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := start(ctx, h)
	waitStarted(t, h, "left", "right") // in either order: the branches run at once
	cancel()
	r := wait(t, done)
	assert.ErrorIs(t, r.err, context.Canceled)
}

// Cancelling an iteration stops the items running (max_concurrency 2)
// and starts no more.
func TestCancelDuringIteration(t *testing.T) {
	h := newHandlers(map[string]behaviour{"each": blocks})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := start(ctx, h)
	waitStarted(t, h, "each", "each")
	cancel()
	r := wait(t, done)
	assert.ErrorIs(t, r.err, context.Canceled)
	close(h.started)
	for s := range h.started {
		assert.NotEqual(t, "each", s, "an item started after the cancellation")
	}
}

// When one branch fails, the run waits for a sibling that ignores the
// cancellation before it returns the first failure: no goroutine outlives
// Run.
func TestStubbornBranchHoldsTheRun(t *testing.T) {
	h := newHandlers(map[string]behaviour{"left": stubborn, "right": panics})
	done := start(context.Background(), h)
	waitStarted(t, h, "left")
	select {
	case r := <-done:
		t.Fatalf("Run returned while a branch was still running: %v", r.err)
	case <-time.After(50 * time.Millisecond):
	}
	close(h.release)
	r := wait(t, done)
	assertStateError(t, r.err, "right", "TaskFailed")
}

// Cancelling a run whose handler ignores it: Run returns when the handler
// does, with the cancellation. The handler did finish, successfully, so
// its update stands; no state runs after it.
func TestCancelWhileAHandlerIgnoresIt(t *testing.T) {
	h := newHandlers(map[string]behaviour{"start": stubborn})
	ctx, cancel := context.WithCancel(context.Background())
	done := start(ctx, h)
	waitStarted(t, h, "start")
	cancel()
	time.AfterFunc(50*time.Millisecond, func() { close(h.release) })
	r := wait(t, done)
	assert.ErrorIs(t, r.err, context.Canceled)
	assert.False(t, errors.Is(r.err, flowcrt.ErrStateTimeout), "a cancelled run is not a timeout")
	assert.GreaterOrEqual(t, r.took, 50*time.Millisecond, "Run returned before its handler")
	assert.Equal(t, []string{"start late"}, r.out.Log)
	close(h.started)
	for s := range h.started {
		assert.Equal(t, "start", s, "a state ran after the cancellation")
	}
}
