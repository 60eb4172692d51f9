package impl

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
)

// A fan-out whose branches a checkpoint holds as the caller encodes them:
// JSON mode's (package jsonmode), whose branch is a copy of the context
// store and history with what its join takes of it. Typed fan-outs save
// the updates their branches record instead (StartFanOutStops).

// SavedBranches are the branches or items of a fan-out in a session's run
// whose states the caller saves and restores itself.
type SavedBranches[T ~int] struct {
	N, Limit int
	// IDs name the steps the branches run; Entry(i) is the step branch i
	// starts at.
	IDs   []string
	Entry func(i int) T
	// Opened returns, once the fan-out saves its progress, what the
	// branches started from (the fan-out's state as Save encodes it) and
	// the output of the state that opened it, which SavedOutput gives a
	// resumed run.
	Opened func() (start, output json.RawMessage, err error)
	// Attach readies branch i to ask for decisions through the session.
	Attach func(i int)
	// Save encodes branch i as a checkpoint holds it; Load restores it.
	Save func(i int) (json.RawMessage, error)
	Load func(i int, data []byte) error
	// Run runs branch i from step, in the context that keys its stops.
	Run func(ctx context.Context, i int, step T) error
}

// FanOutSaved runs b, the branches or items of the fan-out that state
// opens, as FanOut does. Without a session it is FanOut. In sess's run, a
// branch that stops for a decision is no failure: once every branch has
// finished or stopped, it returns the *Interrupted of them all, and the
// checkpoint holds the fan-out's state as it was before the branches ran.
// A resumed run restores the finished branches and starts the stopped
// ones at their state.
func FanOutSaved[T ~int](ctx context.Context, sess *Session, state string, b SavedBranches[T]) error {
	stops := OpenStops(ctx, sess, state)
	if stops == nil {
		return FanOut(ctx, state, b.N, b.Limit, func(ctx context.Context, i int) error { return b.Run(ctx, i, b.Entry(i)) })
	}
	start, output, err := b.Opened()
	if err != nil {
		return fmt.Errorf("saving the state of %q: %w", state, err)
	}
	if err := stops.Durable(ctx, sess, state, start, output); err != nil {
		return err
	}
	err = FanOut(ctx, state, b.N, b.Limit, func(ctx context.Context, i int) error {
		if raw, ok := stops.Finished(i); ok {
			if err := b.Load(i, raw); err != nil {
				return SessionErr(sess.id, fmt.Errorf("its checkpoint holds branch %d of %q that does not decode: %w", i, state, err))
			}
			return nil
		}
		ctx = stops.Branch(ctx, i)
		step, err := b.resume(ctx, sess, i)
		if err != nil {
			return err
		}
		return b.settle(ctx, stops, i, b.Run(ctx, i, step))
	})
	if err != nil || len(stops.stopped) == 0 {
		return err
	}
	wait := stops.Interrupted(state, start, nil)
	if w, ok := wait.(*Interrupted); ok {
		w.At.FanOut.Output = output
	}
	return wait
}

// resume readies branch i of a session's fan-out and returns the step it
// starts at: in a run resumed inside it, its saved state goes on at the
// state it stopped at.
func (b *SavedBranches[T]) resume(ctx context.Context, sess *Session, i int) (T, error) {
	b.Attach(i)
	entry := b.Entry(i)
	stop := TakeResume(ctx)
	if stop == nil {
		return entry, nil
	}
	if err := b.Load(i, stop.Input); err != nil {
		return entry, SessionErr(sess.id, fmt.Errorf("its checkpoint holds a branch at %q that does not decode: %w", stop.State, err))
	}
	b.Attach(i)
	for step, id := range b.IDs {
		if id == stop.State && step > 0 {
			return T(step), nil
		}
	}
	return entry, sess.UnknownState(stop.State)
}

// settle records how branch i ended with err, as OpenFanOut.Settle does:
// a branch stopped before a state saves its state there, a finished one
// its state at its end.
func (b *SavedBranches[T]) settle(ctx context.Context, stops *OpenFanOut, i int, err error) error {
	var wait *Interrupted
	if errors.As(err, &wait) && wait.At == nil {
		input, serr := b.Save(i)
		if serr != nil {
			return fmt.Errorf("saving the state of branch %d of %q: %w", i, stops.key, serr)
		}
		err = StopInBranch(ctx, err, wait.State, input, nil)
	}
	if err != nil {
		return stops.Settle(ctx, i, nil, err)
	}
	raw, serr := b.Save(i)
	if serr != nil {
		return fmt.Errorf("saving the state of branch %d of %q: %w", i, stops.key, serr)
	}
	return stops.Settle(ctx, i, raw, nil)
}

// SavedOutput returns the output of state that FanOutSaved saved, when the
// run of ctx resumes inside the fan-out state opens: the state has run,
// and the fan-out takes its items from that output again.
func SavedOutput(ctx context.Context, sess *Session, state string) (json.RawMessage, bool) {
	var f *FanOutProgress
	if sc := BranchOf(ctx); sc != nil {
		if sc.At != nil && sc.At.State == state {
			f = sc.At.FanOut
		}
	} else if sess != nil {
		sess.mu.Lock()
		if sess.fanOutAt == state {
			f = sess.fanOut
		}
		sess.mu.Unlock()
	}
	if f == nil || f.Output == nil {
		return nil, false
	}
	return f.Output, true
}
