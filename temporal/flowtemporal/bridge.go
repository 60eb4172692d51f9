package flowtemporal

import (
	"context"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// bridge is the context.Context the generated steps see inside a workflow:
// it carries the workflow.Context of the coroutine that runs them, and
// ends when that one is cancelled. Values come from the context it was
// derived from, so a branch of a fan-out keeps the run's engine and state.
type bridge struct {
	parent context.Context
	wctx   workflow.Context
}

type wctxKey struct{}

func (b *bridge) Deadline() (time.Time, bool) { return time.Time{}, false }

// Done is nil: steps learn of a cancellation through Err, which they check
// before every step, and activities through their workflow.Context.
func (b *bridge) Done() <-chan struct{} { return nil }

func (b *bridge) Err() error {
	if b.wctx.Err() != nil {
		return context.Canceled
	}
	return nil
}

func (b *bridge) Value(key any) any {
	if key == (wctxKey{}) {
		return b.wctx
	}
	return b.parent.Value(key)
}

// on returns ctx running on the coroutine of wctx.
func on(ctx context.Context, wctx workflow.Context) context.Context {
	return &bridge{parent: ctx, wctx: wctx}
}

// workflowContext returns the workflow.Context of the coroutine ctx runs on.
func workflowContext(ctx context.Context) workflow.Context {
	return ctx.Value(wctxKey{}).(workflow.Context)
}

type timeoutKey struct{}

// withTimeout bounds the activities started with ctx by d.
func withTimeout(ctx context.Context, d time.Duration) context.Context {
	return context.WithValue(ctx, timeoutKey{}, d)
}

func timeoutOf(ctx context.Context) time.Duration {
	d, _ := ctx.Value(timeoutKey{}).(time.Duration)
	return d
}

type retryKey struct{}

// withRetry gives the activities started with ctx retry policy p.
func withRetry(ctx context.Context, p *temporal.RetryPolicy) context.Context {
	return context.WithValue(ctx, retryKey{}, p)
}

func retryOf(ctx context.Context) *temporal.RetryPolicy {
	p, _ := ctx.Value(retryKey{}).(*temporal.RetryPolicy)
	return p
}
