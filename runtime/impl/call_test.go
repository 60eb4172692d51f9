package impl_test

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/runtime/impl"
)

var (
	errA  = impl.NewError("A", "")
	errB  = impl.NewError("B", "")
	plain = errors.New("boom")
)

// script returns a handler whose n-th call returns errs[n] (nil past the
// end), and a pointer to its call count.
func script(errs ...error) (func(context.Context) error, *int) {
	calls := 0
	return func(context.Context) error {
		calls++
		if calls <= len(errs) {
			return errs[calls-1]
		}
		return nil
	}, &calls
}

func repeat(err error, n int) []error {
	errs := make([]error, n)
	for i := range errs {
		errs[i] = err
	}
	return errs
}

func TestCallRetry(t *testing.T) {
	tests := []struct {
		name       string
		retry      []impl.Retrier
		rand       func() float64
		errs       []error
		wantErr    error
		wantCalls  int
		wantSleeps []time.Duration
	}{
		{
			name:       "backoff capped at max delay",
			retry:      []impl.Retrier{{Errors: []string{"ALL"}, MaxAttempts: 4, Interval: time.Second, BackoffRate: 2, MaxDelay: 3 * time.Second}},
			errs:       repeat(plain, 10),
			wantErr:    plain,
			wantCalls:  4,
			wantSleeps: []time.Duration{time.Second, 2 * time.Second, 3 * time.Second},
		},
		{
			name:       "no max delay",
			retry:      []impl.Retrier{{Errors: []string{"ALL"}, MaxAttempts: 4, Interval: time.Second, BackoffRate: 3}},
			errs:       repeat(plain, 10),
			wantErr:    plain,
			wantCalls:  4,
			wantSleeps: []time.Duration{time.Second, 3 * time.Second, 9 * time.Second},
		},
		{
			name:       "huge delay saturates",
			retry:      []impl.Retrier{{Errors: []string{"ALL"}, MaxAttempts: 3, Interval: time.Hour, BackoffRate: 1e10}},
			errs:       repeat(plain, 10),
			wantErr:    plain,
			wantCalls:  3,
			wantSleeps: []time.Duration{time.Hour, math.MaxInt64},
		},
		{
			name:       "success after retries",
			retry:      []impl.Retrier{{Errors: []string{"A"}, MaxAttempts: 3, Interval: time.Second, BackoffRate: 2}},
			errs:       []error{errA, errA},
			wantCalls:  3,
			wantSleeps: []time.Duration{time.Second, 2 * time.Second},
		},
		{
			name:       "backoff rate 0 means 1",
			retry:      []impl.Retrier{{Errors: []string{"ALL"}, MaxAttempts: 3, Interval: time.Second}},
			errs:       repeat(plain, 10),
			wantErr:    plain,
			wantCalls:  3,
			wantSleeps: []time.Duration{time.Second, time.Second},
		},
		{
			name:       "jitter scales the delay",
			retry:      []impl.Retrier{{Errors: []string{"ALL"}, MaxAttempts: 3, Interval: 2 * time.Second, BackoffRate: 2, Jitter: true}},
			rand:       func() float64 { return 0.25 },
			errs:       repeat(plain, 10),
			wantErr:    plain,
			wantCalls:  3,
			wantSleeps: []time.Duration{500 * time.Millisecond, time.Second},
		},
		{
			name:      "max attempts 1 never retries",
			retry:     []impl.Retrier{{Errors: []string{"ALL"}, MaxAttempts: 1, Interval: time.Second}},
			errs:      []error{plain},
			wantErr:   plain,
			wantCalls: 1,
		},
		{
			name:      "max attempts 0 never retries",
			retry:     []impl.Retrier{{Errors: []string{"ALL"}, Interval: time.Second}},
			errs:      []error{plain},
			wantErr:   plain,
			wantCalls: 1,
		},
		{
			name:      "non-matching error is not retried",
			retry:     []impl.Retrier{{Errors: []string{"A"}, MaxAttempts: 5, Interval: time.Second}},
			errs:      []error{errB},
			wantErr:   errB,
			wantCalls: 1,
		},
		{
			name: "each retrier counts its own attempts",
			retry: []impl.Retrier{
				{Errors: []string{"A"}, MaxAttempts: 2, Interval: time.Second},
				{Errors: []string{"B"}, MaxAttempts: 3, Interval: 10 * time.Second, BackoffRate: 2},
			},
			errs:       []error{errA, errB, errB, errA},
			wantErr:    errA,
			wantCalls:  4,
			wantSleeps: []time.Duration{time.Second, 10 * time.Second, 20 * time.Second},
		},
		{
			name: "first matching retrier decides",
			retry: []impl.Retrier{
				{Errors: []string{"A"}, MaxAttempts: 1},
				{Errors: []string{"ALL"}, MaxAttempts: 5, Interval: time.Second},
			},
			errs:      []error{errA},
			wantErr:   errA,
			wantCalls: 1,
		},
		{
			name:       "later retrier catches what earlier ones do not",
			retry:      []impl.Retrier{{Errors: []string{"A"}, MaxAttempts: 5}, {Errors: []string{"TaskFailed"}, MaxAttempts: 2, Interval: time.Second}},
			errs:       []error{plain, plain},
			wantErr:    plain,
			wantCalls:  2,
			wantSleeps: []time.Duration{time.Second},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := impl.NewFakeClock(time.Unix(0, 0))
			opts := []impl.Option{impl.WithClock(clock)}
			if tt.rand != nil {
				opts = append(opts, impl.WithRand(tt.rand))
			}
			cfg := impl.NewConfig(opts...)
			fn, calls := script(tt.errs...)

			err := impl.Call(context.Background(), &cfg, &impl.Policy{State: "s", Retry: tt.retry}, fn)

			if tt.wantErr == nil {
				assert.NoError(t, err)
			} else {
				assert.Same(t, tt.wantErr, err, "the last attempt's error, unchanged")
			}
			assert.Equal(t, tt.wantCalls, *calls)
			assert.Equal(t, tt.wantSleeps, clock.Sleeps())
		})
	}
}

// blockUntilDone is a handler that honours its context.
func blockUntilDone(ctx context.Context) error {
	<-ctx.Done()
	return ctx.Err()
}

func TestCallTimeout(t *testing.T) {
	clock := impl.NewFakeClock(time.Unix(0, 0))
	cfg := impl.NewConfig(impl.WithClock(clock))
	p := &impl.Policy{State: "s", Timeout: 10 * time.Millisecond}

	err := impl.Call(context.Background(), &cfg, p, blockUntilDone)

	require.ErrorIs(t, err, impl.ErrStateTimeout)
	assert.Equal(t, "Timeout", impl.ErrorName(err))
	assert.EqualError(t, err, "state timed out after 10ms")
}

func TestCallTimeoutIgnoredByHandler(t *testing.T) {
	p := &impl.Policy{State: "s", Timeout: time.Millisecond}
	cfg := impl.NewConfig()
	slow := func(result error) func(context.Context) error {
		return func(context.Context) error {
			time.Sleep(20 * time.Millisecond)
			return result
		}
	}
	t.Run("error becomes a timeout", func(t *testing.T) {
		err := impl.Call(context.Background(), &cfg, p, slow(plain))
		assert.Equal(t, "Timeout", impl.ErrorName(err))
	})
	t.Run("a late success is a timeout too", func(t *testing.T) {
		err := impl.Call(context.Background(), &cfg, p, slow(nil))
		assert.Equal(t, "Timeout", impl.ErrorName(err))
	})
}

func TestCallTimeoutRetried(t *testing.T) {
	clock := impl.NewFakeClock(time.Unix(0, 0))
	cfg := impl.NewConfig(impl.WithClock(clock))
	p := &impl.Policy{
		State:   "s",
		Timeout: 10 * time.Millisecond,
		Retry: []impl.Retrier{
			{Errors: []string{"TaskFailed"}, MaxAttempts: 5},
			{Errors: []string{"States.Timeout"}, MaxAttempts: 2, Interval: time.Second},
		},
	}
	calls := 0
	fn := func(ctx context.Context) error {
		calls++
		if calls == 1 {
			return blockUntilDone(ctx)
		}
		return ctx.Err() // the second attempt has a fresh deadline
	}

	require.NoError(t, impl.Call(context.Background(), &cfg, p, fn))
	assert.Equal(t, 2, calls)
	assert.Equal(t, []time.Duration{time.Second}, clock.Sleeps())
}

func TestCallParentDone(t *testing.T) {
	clock := impl.NewFakeClock(time.Unix(0, 0))
	cfg := impl.NewConfig(impl.WithClock(clock))
	retryAll := []impl.Retrier{{Errors: []string{"ALL"}, MaxAttempts: 5, Interval: time.Second}}

	t.Run("cancelled during the call", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		calls := 0
		fn := func(context.Context) error {
			calls++
			cancel()
			return errA
		}
		err := impl.Call(ctx, &cfg, &impl.Policy{State: "s", Retry: retryAll}, fn)
		assert.ErrorIs(t, err, context.Canceled)
		assert.Equal(t, 1, calls, "no retry once the run is cancelled")
	})
	t.Run("parent deadline is not a state timeout", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
		defer cancel()
		p := &impl.Policy{State: "s", Timeout: time.Hour, Retry: retryAll}
		err := impl.Call(ctx, &cfg, p, blockUntilDone)
		assert.ErrorIs(t, err, context.DeadlineExceeded)
		assert.NotErrorIs(t, err, impl.ErrStateTimeout)
	})
	t.Run("without a policy", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		err := impl.Call(ctx, &cfg, &impl.Policy{State: "s"}, func(context.Context) error { return errA })
		assert.ErrorIs(t, err, context.Canceled)
	})
}

func TestCallCancelledWhileSleeping(t *testing.T) {
	cfg := impl.NewConfig() // the system clock: the sleep really waits
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := &impl.Policy{State: "s", Retry: []impl.Retrier{{Errors: []string{"ALL"}, MaxAttempts: 3, Interval: time.Hour}}}
	fn, calls := script(repeat(plain, 3)...)
	timer := time.AfterFunc(10*time.Millisecond, cancel)
	defer timer.Stop()

	err := impl.Call(ctx, &cfg, p, fn)

	assert.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, 1, *calls)
}

func TestCallPanic(t *testing.T) {
	clock := impl.NewFakeClock(time.Unix(0, 0))
	cfg := impl.NewConfig(impl.WithClock(clock))
	want := &impl.Error{Name: "TaskFailed", Cause: `panic in state "classify": oops`}
	tests := []struct {
		name   string
		policy impl.Policy
	}{
		{"no policy", impl.Policy{State: "classify"}},
		{"timeout", impl.Policy{State: "classify", Timeout: time.Hour}},
		{"retry other errors", impl.Policy{State: "classify", Retry: []impl.Retrier{{Errors: []string{"Timeout"}, MaxAttempts: 3}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := impl.Call(context.Background(), &cfg, &tt.policy, func(context.Context) error { panic("oops") })
			assert.Equal(t, want, err)
		})
	}
	t.Run("retried as TaskFailed", func(t *testing.T) {
		p := &impl.Policy{State: "classify", Retry: []impl.Retrier{{Errors: []string{"TaskFailed"}, MaxAttempts: 2}}}
		calls := 0
		err := impl.Call(context.Background(), &cfg, p, func(context.Context) error {
			calls++
			if calls == 1 {
				panic("oops")
			}
			return nil
		})
		assert.NoError(t, err)
		assert.Equal(t, 2, calls)
	})
}

type ctxKey struct{}

func TestCallWithoutPolicy(t *testing.T) {
	cfg := impl.NewConfig()
	p := &impl.Policy{State: "s"}
	ctx := context.WithValue(context.Background(), ctxKey{}, "v")
	var got context.Context
	fn := func(ctx context.Context) error {
		got = ctx
		return errA
	}

	err := impl.Call(ctx, &cfg, p, fn)

	assert.Same(t, errA, err)
	assert.Equal(t, ctx, got, "fn gets the caller's context")
	allocs := testing.AllocsPerRun(100, func() { _ = impl.Call(ctx, &cfg, p, fn) })
	assert.Zero(t, allocs)
}

func TestCallZeroConfig(t *testing.T) {
	// A Config literal falls back to the system clock and math/rand.
	cfg := &impl.Config{}
	p := &impl.Policy{State: "s", Retry: []impl.Retrier{{Errors: []string{"ALL"}, MaxAttempts: 2, Interval: time.Millisecond, Jitter: true}}}
	fn, calls := script(plain)

	require.NoError(t, impl.Call(context.Background(), cfg, p, fn))
	assert.Equal(t, 2, *calls)
}
