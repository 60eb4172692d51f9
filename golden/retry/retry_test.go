package retry

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// flaky fails with its errors in turn, then succeeds; past the end of a
// non-empty list with always set, it keeps failing with the last one.
type flaky struct {
	errs   []error
	always bool
	calls  int
}

func (f *flaky) Call(ctx context.Context, s RetryState) (RetryUpdate, error) {
	f.calls++
	if f.calls <= len(f.errs) {
		return RetryUpdate{}.WithResult("partial"), f.errs[f.calls-1]
	}
	if f.always {
		return RetryUpdate{}, f.errs[len(f.errs)-1]
	}
	return RetryUpdate{}.WithResult("ok"), nil
}

var (
	rateLimited = flowcrt.NewError("RateLimited", "slow down")
	unavailable = flowcrt.NewError("Unavailable", "try later")
)

func run(f *flaky) (RetryState, *flowcrt.FakeClock, error) {
	clock := flowcrt.NewFakeClock(time.Unix(0, 0))
	out, err := NewRetry(f, flowcrt.WithClock(clock)).Run(context.Background(), RetryState{})
	return out, clock, err
}

func TestRetriedThenSucceeds(t *testing.T) {
	f := &flaky{errs: []error{rateLimited, rateLimited}}
	out, clock, err := run(f)
	require.NoError(t, err)
	assert.Equal(t, "ok", out.Result)
	assert.Equal(t, 3, f.calls)
	assert.Equal(t, []time.Duration{time.Second, 2 * time.Second}, clock.Sleeps())
}

func TestRetriesExhausted(t *testing.T) {
	f := &flaky{errs: []error{rateLimited}, always: true}
	out, clock, err := run(f)
	require.Error(t, err)
	assert.Equal(t, "RateLimited", flowcrt.ErrorName(err))
	var se *flowcrt.StateError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, "call", se.State)
	assert.Equal(t, 3, f.calls) // max_attempts counts the first call
	assert.Equal(t, []time.Duration{time.Second, 2 * time.Second}, clock.Sleeps())
	assert.Empty(t, out.Result, "a failed state's update is not applied")
}

// Errors the first rule does not match fall to the second, whose delays are
// capped by max_delay: 4s, 12s→10s, 36s→10s, 108s→10s.
func TestSecondRuleAndMaxDelay(t *testing.T) {
	f := &flaky{errs: []error{unavailable}, always: true}
	_, clock, err := run(f)
	require.Error(t, err)
	assert.Equal(t, "Unavailable", flowcrt.ErrorName(err))
	assert.Equal(t, 5, f.calls)
	assert.Equal(t, []time.Duration{4 * time.Second, 10 * time.Second, 10 * time.Second, 10 * time.Second}, clock.Sleeps())
}

// Each rule counts its own retries.
func TestRulesCountSeparately(t *testing.T) {
	f := &flaky{errs: []error{rateLimited, unavailable, rateLimited}}
	out, clock, err := run(f)
	require.NoError(t, err)
	assert.Equal(t, "ok", out.Result)
	assert.Equal(t, 4, f.calls)
	assert.Equal(t, []time.Duration{time.Second, 4 * time.Second, 2 * time.Second}, clock.Sleeps())
}
