package flowtemporal

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	flowcrt "github.com/flowc-dev/flowc/runtime"
	flowcimpl "github.com/flowc-dev/flowc/runtime/impl"
	flowcasl "github.com/flowc-dev/flowc/runtime/impl/asl"
)

// engine implements flowcimpl.Engine with workflow coroutines and activity
// timeouts.
type engine struct{}

// The engine and the workflow side of the results answer the runtime's
// hooks for an engine; these fail to compile when the hooks change.
var (
	_ flowcimpl.Engine          = engine{}
	_ flowcimpl.TaskTokenEngine = engine{}
	_ flowcasl.ItemsEngine      = engine{}
	_ flowcasl.EngineResults    = Results{}
)

// FanOut runs work for every index on at most limit coroutines, handing
// indexes out in order; the first failure cancels the others. Coroutines
// run one at a time, in an order fixed by the history, so the shared
// counters need no lock and a replay hands out the same indexes. An item
// that waits for a decision or a task token waits on its coroutine, which
// it keeps: it counts against limit until it finishes.
func (engine) FanOut(ctx context.Context, state string, n, limit int, work func(ctx context.Context, i int) error) error {
	workers := n
	if limit > 0 && limit < n {
		workers = limit
	}
	r := runOf(ctx)
	if r.inOrder {
		if !flowcimpl.StopsHoldPlaces(ctx) {
			limit = 0
		}
		return fanOutInOrder(ctx, state, n, limit, work)
	}
	wctx, cancel := workflow.WithCancel(workflowContext(ctx))
	defer cancel()
	var first error
	next := 0
	wg := workflow.NewWaitGroup(wctx)
	for range workers {
		wg.Add(1)
		r.busy++
		workflow.Go(wctx, func(c workflow.Context) {
			defer func() { r.busy--; wg.Done() }()
			bctx := on(ctx, c)
			for first == nil && c.Err() == nil && next < n {
				i := next
				next++
				if err := protect(inBranch(bctx, state, i), state, i, work); err != nil {
					first = err
					cancel()
				}
			}
		})
	}
	r.idle(ctx, func() { wg.Wait(wctx) })
	if first != nil {
		return first
	}
	return ctx.Err()
}

// fanOutInOrder runs the items of a run over mocks one at a time, in
// order, as FanOut's caller would on one coroutine, except that an item
// that waits for a person (an approval) lets the next one start, as a
// native session's branch that stops does: each item runs on a coroutine
// of its own, and the next starts once the item has finished or nothing
// in the run can move but a decision (runState.busy), and, when limit > 0,
// fewer than limit items have started and not ended: the items that wait
// keep their place, as a native session's Map items do (impl.Places).
func fanOutInOrder(ctx context.Context, state string, n, limit int, work func(ctx context.Context, i int) error) error {
	r := runOf(ctx)
	wctx, cancel := workflow.WithCancel(workflowContext(ctx))
	defer cancel()
	var first error
	// Waiting goes on after a failure cancels the items: each winds down
	// and is released before the fan-out returns.
	w := itemWaiter{r: r, ctx: ctx, wctx: workflowContext(ctx)}
	for i := 0; i < n && first == nil && wctx.Err() == nil; i++ {
		done := false
		w.running++
		r.busy++
		workflow.Go(wctx, func(c workflow.Context) {
			defer func() { done = true; w.ended() }()
			if err := protect(inBranch(on(ctx, c), state, i), state, i, work); err != nil && first == nil {
				first = err
				cancel()
			}
		})
		w.await(func() bool { return (done || r.busy == 0) && (limit <= 0 || w.running < limit) })
	}
	w.await(func() bool { return w.running == 0 })
	if first != nil {
		return first
	}
	return ctx.Err()
}

// itemWaiter is the coroutine of an in-order fan-out waiting for its
// items. An item that ends stays counted busy until this coroutine runs
// again and releases it: were it uncounted at once, another fan-out, whose
// coroutine the dispatcher may run first, would see nothing busy in the
// instant before this one resumes, and start its next item out of order.
type itemWaiter struct {
	r        *runState
	ctx      context.Context // the fan-out's state's, whose visit it waits in
	wctx     workflow.Context
	running  int // items started that have not ended
	finished int // items ended whose busy count is not released yet
}

func (w *itemWaiter) ended() {
	w.running--
	w.finished++
}

// await waits, idle, until cond holds or the run is cancelled,
// releasing the items that end meanwhile.
func (w *itemWaiter) await(cond func() bool) {
	for {
		met := false
		w.r.idle(w.ctx, func() {
			_ = workflow.Await(w.wctx, func() bool { return w.finished > 0 || cond() })
			met = cond() || w.wctx.Err() != nil
		})
		w.r.busy -= w.finished
		w.finished = 0
		if met {
			return
		}
	}
}

func protect(ctx context.Context, state string, i int, work func(context.Context, int) error) (err error) {
	defer flowcimpl.Recover(state, &err)
	return work(ctx, i)
}

// errActivityTimeout is what an activity that ran out of its
// StartToClose time returns to Attempt.
var errActivityTimeout = errors.New("activity timed out")

// Attempt runs call with its activities bounded by d, and reports their
// timeout as the state's.
func (engine) Attempt(ctx context.Context, d time.Duration, call func(ctx context.Context) error) error {
	err := call(withTimeout(ctx, d))
	if errors.Is(err, errActivityTimeout) {
		return fmt.Errorf("%w after %s", flowcrt.ErrStateTimeout, d)
	}
	return err
}

// Retry gives the activity of the attempt the RetryPolicy of p's rule,
// when the run allows it and the rule maps exactly; Temporal then makes
// the attempts and waits between them.
func (engine) Retry(ctx context.Context, p *flowcimpl.Policy, attempt func(ctx context.Context) error) (bool, error) {
	r, ok := p.EngineRetrier()
	if !ok || !runOf(ctx).policies {
		return false, nil
	}
	return true, attempt(withRetry(ctx, retryPolicy(r)))
}

// retryPolicy is the RetryPolicy that makes the attempts and waits of r.
func retryPolicy(r flowcimpl.Retrier) *temporal.RetryPolicy {
	backoff := r.BackoffRate
	if backoff == 0 {
		backoff = 1
	}
	maxDelay := r.MaxDelay
	if maxDelay == 0 { // no cap: Temporal's default would be 100 intervals
		maxDelay = r.LongestDelay()
	}
	return &temporal.RetryPolicy{InitialInterval: r.Interval, BackoffCoefficient: backoff, MaximumInterval: maxDelay, MaximumAttempts: int32(r.MaxAttempts)}
}

// clock reads the workflow's time and sleeps on durable timers: a Wait
// state or a retry interval survives a lost worker, and a run that waits
// for days holds no worker meanwhile. A run started with SkipWaits
// (`flowc run --skip-waits`) starts no timer: its clock moves ahead by
// each sleep instead, as the native engine's fake clock does, so that a
// Wait until any timestamp passes at once and the time read after it is
// the time it waited for.
type clock struct {
	wctx  workflow.Context
	skip  bool
	ahead time.Duration // slept so far without a timer
}

func (c *clock) Now() time.Time { return workflow.Now(c.wctx).Add(c.ahead) }

// Sleep needs no lock: a workflow's coroutines run one at a time.
func (c *clock) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 || c.skip {
		c.ahead += max(d, 0)
		return ctx.Err()
	}
	r := runOf(ctx)
	r.sleeping++
	defer func() { r.sleeping-- }()
	var err error
	park(ctx, func() { err = workflow.Sleep(workflowContext(ctx), d) })
	if err != nil {
		return context.Canceled
	}
	return nil
}
