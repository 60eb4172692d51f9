package asl

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/flowc-dev/flowc/runtime/impl"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A failing branch cancels its siblings only once each has started: a
// sibling slow to reach its first handler still calls it, as Step
// Functions starts every branch. The error is the failing branch's.
func TestParallelStartsEveryBranch(t *testing.T) {
	x, in, err := NewASLExec(&impl.Config{}, "m", nil, map[string]any{})
	require.NoError(t, err)
	var called atomic.Int32
	fails := func(context.Context, *ASLExec, any) (any, error) { return nil, impl.NewError("Boom", "") }
	slow := func(ctx context.Context, x *ASLExec, in any) (any, error) {
		time.Sleep(20 * time.Millisecond) // a state or two before the task
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return x.call(ctx, "Slow", func(context.Context, any) (any, error) {
			called.Add(1)
			return "ok", nil
		}, in)
	}
	blocks := func(ctx context.Context, x *ASLExec, in any) (any, error) {
		return x.call(ctx, "Blocks", func(ctx context.Context, _ any) (any, error) {
			<-ctx.Done() // stopped by the cancellation
			return nil, ctx.Err()
		}, in)
	}
	_, err = x.runBranches(context.Background(), "P", []machineFunc{slow, fails, blocks}, in, nil)
	assert.Equal(t, "Boom", impl.ErrorName(err))
	assert.Equal(t, int32(1), called.Load(), "the slow branch was started")
}
