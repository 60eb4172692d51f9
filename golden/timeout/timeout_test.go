package timeout

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// handlers block until their context is done for their first slow calls,
// then return at once.
type handlers struct {
	fetchSlow, storeSlow   int
	fetchCalls, storeCalls atomic.Int32
}

func block(ctx context.Context, calls *atomic.Int32, slow int) error {
	if int(calls.Add(1)) <= slow {
		<-ctx.Done()
		return ctx.Err()
	}
	return nil
}

func (h *handlers) Fetch(ctx context.Context, s TimeoutState) (TimeoutUpdate, error) {
	return TimeoutUpdate{}.WithTrail([]string{"fetch"}), block(ctx, &h.fetchCalls, h.fetchSlow)
}

func (h *handlers) Store(ctx context.Context, s TimeoutState) (TimeoutUpdate, error) {
	return TimeoutUpdate{}.WithTrail([]string{"store"}), block(ctx, &h.storeCalls, h.storeSlow)
}

func run(t *testing.T, h *handlers) (TimeoutState, error) {
	t.Helper()
	start := time.Now()
	// Waits between retries take no time; the timeouts are real.
	clock := flowcrt.NewFakeClock(start)
	out, err := NewTimeout(h, flowcrt.WithClock(clock)).Run(context.Background(), TimeoutState{})
	assert.Less(t, time.Since(start), time.Second)
	return out, err
}

func TestRetriedAfterTimeout(t *testing.T) {
	h := &handlers{fetchSlow: 1}
	out, err := run(t, h)
	require.NoError(t, err)
	assert.Equal(t, []string{"fetch", "store"}, out.Trail)
	assert.EqualValues(t, 2, h.fetchCalls.Load())
}

func TestTimeoutAfterRetries(t *testing.T) {
	h := &handlers{fetchSlow: 5}
	_, err := run(t, h)
	assert.Equal(t, "Timeout", flowcrt.ErrorName(err))
	assert.True(t, flowcrt.MatchError(err, []string{"States.Timeout"}))
	assert.False(t, flowcrt.MatchError(err, []string{"TaskFailed"}))
	var se *flowcrt.StateError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, "fetch", se.State)
	assert.EqualValues(t, 2, h.fetchCalls.Load())
	assert.EqualValues(t, 0, h.storeCalls.Load())
}

func TestTimeoutWithoutRetry(t *testing.T) {
	h := &handlers{storeSlow: 5}
	out, err := run(t, h)
	assert.Equal(t, "Timeout", flowcrt.ErrorName(err))
	assert.False(t, errors.Is(err, context.DeadlineExceeded), "the run's context did not expire")
	var se *flowcrt.StateError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, "store", se.State)
	assert.EqualValues(t, 1, h.storeCalls.Load())
	assert.Equal(t, []string{"fetch"}, out.Trail)
}

// The run's own deadline is not the state's timeout: it ends the run with
// the context's error, and no retry.
func TestRunDeadline(t *testing.T) {
	h := &handlers{fetchSlow: 5}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	_, err := NewTimeout(h).Run(ctx, TimeoutState{})
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.EqualValues(t, 1, h.fetchCalls.Load())
}
