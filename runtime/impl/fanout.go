package impl

import (
	"context"
	"sync"
	"sync/atomic"
)

// FanOut runs work(ctx, i) for every i in [0, n), at most limit at a time
// (limit <= 0: no bound). Work is handed out in index order, so with limit 1
// the items run one after another in order, on the caller's goroutine.
//
// The first failure cancels the context the other calls see, and its error
// is returned. FanOut returns only when every goroutine it started has
// returned: none outlives it. A panic in work becomes a TaskFailed error
// naming state, the state that opened the fan-out.
func FanOut(ctx context.Context, state string, n, limit int, work func(ctx context.Context, i int) error) error {
	if e := EngineOf(ctx); e != nil {
		return e.FanOut(ctx, state, n, limit, work)
	}
	workers := n
	if limit > 0 && limit < n {
		workers = limit
	}
	o := observerOf(ctx)
	if workers <= 1 {
		return inOrder(ctx, o, state, n, work)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	f := &fanOut{o: o, state: state, n: int64(n), work: work, cancel: cancel}
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() { f.worker(ctx) })
	}
	wg.Wait()
	if f.err != nil {
		return f.err
	}
	return ctx.Err()
}

// inOrder is FanOut without goroutines, for a bound of one (or one item).
func inOrder(ctx context.Context, o Observer, state string, n int, work func(context.Context, int) error) error {
	for i := range n {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := Protect(ctx, o, state, i, n, work); err != nil {
			return err
		}
	}
	return nil
}

type fanOut struct {
	o      Observer // nil: none
	state  string
	n      int64
	next   atomic.Int64 // the next index to hand out
	work   func(context.Context, int) error
	cancel context.CancelFunc
	once   sync.Once
	err    error // the first failure
}

func (f *fanOut) worker(ctx context.Context) {
	for {
		i := f.next.Add(1) - 1
		if i >= f.n || ctx.Err() != nil {
			return
		}
		if err := Protect(ctx, f.o, f.state, int(i), int(f.n), f.work); err != nil {
			f.once.Do(func() { f.err = err; f.cancel() })
			return
		}
	}
}

// Protect calls work for item i of n, turning a panic into an error; o,
// when not nil, observes the item (n < 0: the number is not known).
func Protect(ctx context.Context, o Observer, state string, i, n int, work func(context.Context, int) error) (err error) {
	if o != nil {
		var end func(error)
		if ctx, end = o.Item(ctx, state, i, n); end != nil {
			defer func() { end(err) }() // after Recover: it sees a panic's error
		}
	}
	defer Recover(state, &err)
	return work(ctx, i)
}
