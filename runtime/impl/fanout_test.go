package impl_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/runtime/impl"
)

func TestFanOutRunsEveryItemOnce(t *testing.T) {
	for _, limit := range []int{0, 1, 3, 100} {
		seen := make([]atomic.Int32, 50)
		err := impl.FanOut(context.Background(), "s", len(seen), limit, func(_ context.Context, i int) error {
			seen[i].Add(1)
			return nil
		})
		require.NoError(t, err)
		for i := range seen {
			assert.Equal(t, int32(1), seen[i].Load(), "item %d with limit %d", i, limit)
		}
	}
}

func TestFanOutBoundsConcurrency(t *testing.T) {
	var running, peak atomic.Int32
	err := impl.FanOut(context.Background(), "s", 40, 4, func(context.Context, int) error {
		now := running.Add(1)
		for old := peak.Load(); now > old && !peak.CompareAndSwap(old, now); old = peak.Load() {
		}
		time.Sleep(time.Millisecond)
		running.Add(-1)
		return nil
	})
	require.NoError(t, err)
	assert.LessOrEqual(t, peak.Load(), int32(4))
	assert.Greater(t, peak.Load(), int32(1), "items should overlap")
}

func TestFanOutWithLimitOneKeepsOrder(t *testing.T) {
	var order []int
	err := impl.FanOut(context.Background(), "s", 5, 1, func(_ context.Context, i int) error {
		order = append(order, i)
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, []int{0, 1, 2, 3, 4}, order)
}

func TestFanOutCancelsSiblingsOnFirstError(t *testing.T) {
	boom := errors.New("boom")
	var started, cancelled atomic.Int32
	err := impl.FanOut(context.Background(), "s", 8, 0, func(ctx context.Context, i int) error {
		started.Add(1)
		if i == 3 {
			return boom
		}
		<-ctx.Done() // the others wait until the failure cancels them
		cancelled.Add(1)
		return ctx.Err()
	})
	require.ErrorIs(t, err, boom)
	assert.Equal(t, started.Load()-1, cancelled.Load(), "every other item that started was cancelled")
}

func TestFanOutTurnsPanicsIntoErrors(t *testing.T) {
	err := impl.FanOut(context.Background(), "split", 4, 2, func(_ context.Context, i int) error {
		if i == 2 {
			panic("bad item")
		}
		return nil
	})
	require.Error(t, err)
	assert.Equal(t, "TaskFailed", impl.ErrorName(err))
	assert.Contains(t, err.Error(), `panic in state "split": bad item`)
}

func TestFanOutHonoursCancellation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var started sync.WaitGroup
	started.Add(2)
	go func() { started.Wait(); cancel() }()
	err := impl.FanOut(ctx, "s", 2, 0, func(ctx context.Context, _ int) error {
		started.Done()
		<-ctx.Done()
		return ctx.Err()
	})
	assert.ErrorIs(t, err, context.Canceled)
	cancel()
	err = impl.FanOut(ctx, "s", 3, 1, func(context.Context, int) error { return nil })
	assert.ErrorIs(t, err, context.Canceled, "a cancelled context runs nothing")
}
