package impl_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/runtime/impl"
)

func TestNewConfig(t *testing.T) {
	t.Run("defaults", func(t *testing.T) {
		cfg := impl.NewConfig()
		assert.Equal(t, impl.SystemClock, cfg.Clock)
		assert.False(t, cfg.StateContext)
		require.NotNil(t, cfg.Rand)
		r := cfg.Rand()
		assert.True(t, r >= 0 && r < 1, "Rand() = %v, want [0, 1)", r)
	})
	t.Run("options", func(t *testing.T) {
		clock := impl.NewFakeClock(time.Unix(0, 0))
		cfg := impl.NewConfig(
			impl.WithClock(clock),
			impl.WithStateContext(),
			impl.WithRand(func() float64 { return 0.25 }),
		)
		assert.Same(t, clock, cfg.Clock)
		assert.True(t, cfg.StateContext)
		assert.Equal(t, 0.25, cfg.Rand())
	})
}

func TestSystemClockNow(t *testing.T) {
	assert.WithinDuration(t, time.Now(), impl.SystemClock.Now(), time.Minute)
}

func TestSystemClockSleep(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name string
		ctx  context.Context
		d    time.Duration
		want error
	}{
		{"elapses", context.Background(), time.Millisecond, nil},
		{"zero", context.Background(), 0, nil},
		{"cancelled", cancelled, time.Hour, context.Canceled},
		{"cancelled zero", cancelled, 0, context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			err := impl.SystemClock.Sleep(tt.ctx, tt.d)
			assert.ErrorIs(t, err, tt.want)
			if tt.want == nil {
				assert.GreaterOrEqual(t, time.Since(start), tt.d)
			}
		})
	}
}

func TestSystemClockSleepCancelledWhileWaiting(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := impl.SystemClock.Sleep(ctx, time.Hour)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Less(t, time.Since(start), time.Minute)
}

func TestFakeClock(t *testing.T) {
	start := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	clock := impl.NewFakeClock(start)
	assert.Equal(t, start, clock.Now())
	assert.Empty(t, clock.Sleeps())

	require.NoError(t, clock.Sleep(context.Background(), time.Second))
	require.NoError(t, clock.Sleep(context.Background(), 2*time.Second))
	assert.Equal(t, start.Add(3*time.Second), clock.Now())
	assert.Equal(t, []time.Duration{time.Second, 2 * time.Second}, clock.Sleeps())

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	assert.ErrorIs(t, clock.Sleep(ctx, time.Hour), context.Canceled)
	assert.Equal(t, start.Add(3*time.Second), clock.Now(), "a cancelled sleep must not move the clock")
	assert.Len(t, clock.Sleeps(), 2)
}

func TestFakeClockConcurrent(t *testing.T) {
	clock := impl.NewFakeClock(time.Unix(0, 0))
	var wg sync.WaitGroup
	for range 10 {
		wg.Go(func() {
			assert.NoError(t, clock.Sleep(context.Background(), time.Second))
			_ = clock.Now()
		})
	}
	wg.Wait()
	assert.Equal(t, time.Unix(10, 0), clock.Now())
	assert.Len(t, clock.Sleeps(), 10)
}

func TestFakeClockSleepsIsACopy(t *testing.T) {
	clock := impl.NewFakeClock(time.Unix(0, 0))
	require.NoError(t, clock.Sleep(context.Background(), time.Second))
	clock.Sleeps()[0] = time.Hour
	assert.Equal(t, []time.Duration{time.Second}, clock.Sleeps())
}

func TestStateContext(t *testing.T) {
	ctx := context.Background()
	assert.Empty(t, impl.StateFromContext(ctx))
	ctx = impl.WithState(ctx, "classify")
	assert.Equal(t, "classify", impl.StateFromContext(ctx))
	assert.Equal(t, "answer", impl.StateFromContext(impl.WithState(ctx, "answer")))
}
