package asl

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// runBranches runs every branch of a Parallel state on in at once. Step
// Functions starts all branches together, so a failing branch stops its
// siblings only once each of them has started: reached its first handler
// call or wait, or ended. That keeps mock runs deterministic (every branch's
// mock is asked as often on each attempt, so a retried Parallel sees each
// branch's next answer) and cancels real work as early as before. The error
// is that of the first branch, in branch order, that failed on its own.
//
// In a session's run (stops not nil), a branch that stops for a decision
// is no failure: the others go on, and the stop is recorded; a branch that
// finished before the run resumed is not run again.
func (x *ASLExec) runBranches(ctx context.Context, state string, branches []machineFunc, in any, stops *impl.OpenFanOut) ([]any, error) {
	if e := impl.EngineOf(ctx); e != nil {
		return x.engineBranches(ctx, e, state, branches, in)
	}
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	n := len(branches)
	out, errs := make([]any, n), make([]error, n)
	var started, done sync.WaitGroup
	started.Add(n)
	failed := make(chan struct{})
	var once sync.Once
	up := startSignalOf(ctx)
	for i := range branches {
		sig := &branchStart{parent: up, wg: &started}
		bctx := x.innerScope(context.WithValue(ctx, branchStartKey{}, sig))
		done.Go(func() {
			defer sig.fire()
			errs[i] = impl.Protect(bctx, x.cfg.Observer, state, i, n, func(ctx context.Context, i int) (err error) {
				if raw, ok := stops.Finished(i); ok {
					return x.restoreOutput(raw, &out[i])
				}
				out[i], err = branches[i](stops.Branch(ctx, i), x, in)
				return stops.Settle(ctx, i, out[i], err)
			})
			if errs[i] != nil {
				once.Do(func() { close(failed) })
			}
		})
	}
	finished := make(chan struct{})
	go func() { done.Wait(); close(finished) }()
	select {
	case <-failed:
		started.Wait()
		cancel()
		<-finished
	case <-finished:
	}
	if err := parent.Err(); err != nil {
		return nil, err
	}
	return out, firstFailure(errs)
}

// firstFailure picks, in branch order, an error that is not the
// cancellation a sibling's failure caused, else any error.
func firstFailure(errs []error) error {
	for _, err := range errs {
		if err != nil && !errors.Is(err, context.Canceled) {
			return err
		}
	}
	return errors.Join(errs...)
}

type branchStartKey struct{}

// branchStart tells a Parallel state that one of its branches has started;
// it also tells every enclosing branch.
type branchStart struct {
	parent *branchStart
	wg     *sync.WaitGroup
	once   sync.Once
	fired  atomic.Bool // for an engine's branches (engine.go)
}

func (s *branchStart) fire() {
	for ; s != nil; s = s.parent {
		s.fired.Store(true)
		s.once.Do(s.wg.Done)
	}
}

func startSignalOf(ctx context.Context) *branchStart {
	s, _ := ctx.Value(branchStartKey{}).(*branchStart)
	return s
}

// branchStarted marks the branch ctx runs in (and those around it) as
// started; states call it before they block on a handler or a wait.
func branchStarted(ctx context.Context) { startSignalOf(ctx).fire() }
