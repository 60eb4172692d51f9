package asl

import (
	"context"
	"sync"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// engineBranches is runBranches on an engine: the branches run as its
// fan-out, all at once. A failure stops the siblings as runBranches does:
// each at its next step once it has started (reached a handler call or a
// wait), with the call it made allowed to finish, so that a retried
// Parallel state asks every branch's handlers as often as natively. The
// error is that of the first branch, in branch order, that failed on its
// own.
func (x *ASLExec) engineBranches(ctx context.Context, e impl.Engine, state string, branches []machineFunc, in any) ([]any, error) {
	n := len(branches)
	out, errs := make([]any, n), make([]error, n)
	failed := false
	var started sync.WaitGroup // the signals need one; no one waits on it
	started.Add(n)
	up := startSignalOf(ctx)
	err := e.FanOut(ctx, state, n, 0, func(ctx context.Context, i int) error {
		sig := &branchStart{parent: up, wg: &started}
		defer sig.fire()
		bctx := &engineBranch{Context: context.WithValue(ctx, branchStartKey{}, sig), failed: &failed, sig: sig}
		out[i], errs[i] = branches[i](x.innerScope(bctx), x, in)
		failed = failed || errs[i] != nil
		return nil // the engine would cancel the siblings' calls in flight
	})
	if failure := firstFailure(errs); failure != nil {
		return nil, failure
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

// engineBranch is the context of one branch of a Parallel state on an
// engine: it is done once a sibling has failed and this branch has
// started. The engine runs one branch at a time, so failed needs no lock.
type engineBranch struct {
	context.Context
	failed *bool
	sig    *branchStart
}

func (b *engineBranch) Err() error {
	if *b.failed && b.sig.fired.Load() {
		return context.Canceled
	}
	return b.Context.Err()
}
