package impl

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
)

// Callback waits inside fan-outs. In a session's run, a callback Task
// state inside a Parallel branch or a Map item stops only its branch, as
// an approval does (checkpoint_stops.go): the branch's branchStop holds
// the outstanding token with its deadlines, the other branches run on,
// and once all have finished or stopped the run stops with a
// *TaskTokenWait that lists every token outstanding. An answer sent for
// one is saved in its stop, and the run resumes inside the fan-out: the
// answered branch completes its state, the others that wait stop again,
// finished ones are not run again.

// branchCallback returns, once, the outstanding token of state that the
// stop the branch ctx runs in resumes at holds; nil outside one.
func branchCallback(ctx context.Context, state string) *callbackWait {
	sc := branchOf(ctx)
	if sc == nil || sc.at == nil || sc.at.State != state || sc.at.Callback == nil {
		return nil
	}
	w := sc.at.Callback
	sc.at.Callback = nil // once: a later visit of the state is a new wait
	return w
}

// stopCallbackInBranch is the stop of the branch ctx runs in at the
// callback state of cx, waiting for w, which its fan-out records.
func (x *ASLExec) stopCallbackInBranch(ctx context.Context, cx *aslContext, w *callbackWait) error {
	vars, err := x.branchVars(ctx)
	if err != nil {
		return err
	}
	in, err := json.Marshal(cx.input)
	if err != nil {
		return fmt.Errorf("saving the input of %q: %w", cx.state, err)
	}
	return &Interrupted{State: cx.state, Key: stopKey(ctx, cx.state), at: &branchStop{State: cx.state, Input: in, Vars: vars, Callback: w}}
}

// resumeBranchCallback completes a wait a branch resumes at with the
// answer sent for it, fails it once a deadline has passed, or stops the
// branch again.
func (x *ASLExec) resumeBranchCallback(ctx context.Context, cx *aslContext, w *callbackWait) (any, error) {
	if w.Answer != nil {
		return w.Answer.result()
	}
	if err := w.expired(x.cfg.clock().Now()); err != nil {
		return nil, err
	}
	return nil, x.stopCallbackInBranch(ctx, cx, w)
}

// tokensWait turns err, when it is the *Interrupted of a top-level
// fan-out that Session.Save saved and whose stops all wait for task
// tokens, into the *TaskTokenWait the run stops with. Other errors are
// returned as they are: with an approval among the stops the run waits
// for a decision, its tokens outstanding in the checkpoint all the same.
func tokensWait(err error) error {
	wait, ok := errors.AsType[*Interrupted](err)
	if !ok || wait.at == nil || len(wait.Stops) > 0 || wait.Session == "" {
		return err
	}
	keys, waits := wait.at.FanOut.tokens(wait.at.State + "/")
	if len(waits) == 0 {
		return err
	}
	tw := &TaskTokenWait{Session: wait.Session, State: keys[0], Token: waits[0].Token}
	for _, w := range waits {
		tw.Tokens = append(tw.Tokens, w.Token)
	}
	return tw
}

// tokens lists the task tokens the branches of f, and of the fan-outs
// inside them, wait for, in branch order, with the key of each stop;
// prefix is the key of f and a slash.
func (f *FanOutProgress) tokens(prefix string) (keys []string, waits []*callbackWait) {
	if f == nil {
		return nil, nil
	}
	for _, i := range slices.Sorted(maps.Keys(f.Stopped)) {
		k, w := f.Stopped[i].tokens(prefix + strconv.Itoa(i) + "/")
		keys, waits = append(keys, k...), append(waits, w...)
	}
	return keys, waits
}

// tokens lists the task tokens b waits for: at its state, in the fan-out
// it opens, or, when its state runs a compiled-in child, in the child,
// whose states' ids name them (a stop's key is the branch's prefix and the
// id of the state that waits, as stopKey makes it).
func (b *branchStop) tokens(prefix string) (keys []string, waits []*callbackWait) {
	if b.Child != nil {
		return b.Child.tokens(prefix)
	}
	key := prefix + b.State
	if b.Callback != nil {
		keys, waits = append(keys, key), append(waits, b.Callback)
	}
	k, w := b.FanOut.tokens(key + "/")
	return append(keys, k...), append(waits, w...)
}

// waitFor returns the wait for token that pos holds: at its state (or in
// the compiled-in child it runs), or in a branch of its fan-out; nil when
// it holds none.
func (pos *Position) waitFor(token string) *callbackWait {
	if w := pos.Callback; w != nil && sameToken(w.Token, token) {
		return w
	}
	_, waits := pos.fanOut().tokens("")
	for _, w := range waits {
		if sameToken(w.Token, token) {
			return w
		}
	}
	return nil
}
