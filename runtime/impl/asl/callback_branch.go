package asl

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// Callback waits inside fan-outs. In a session's run, a callback Task
// state inside a Parallel branch or a Map item stops only its branch, as
// an approval does (impl's checkpoint_stops.go): the branch's BranchStop holds
// the outstanding token with its deadlines, the other branches run on,
// and once all have finished or stopped the run stops with a
// *TaskTokenWait that lists every token outstanding. An answer sent for
// one is saved in its stop, and the run resumes inside the fan-out: the
// answered branch completes its state, the others that wait stop again,
// finished ones are not run again.

// branchCallback returns, once, the outstanding token of state that the
// stop the branch ctx runs in resumes at holds; nil outside one.
func branchCallback(ctx context.Context, state string) *impl.CallbackWait {
	sc := impl.BranchOf(ctx)
	if sc == nil || sc.At == nil || sc.At.State != state || sc.At.Callback == nil {
		return nil
	}
	w := sc.At.Callback
	sc.At.Callback = nil // once: a later visit of the state is a new wait
	return w
}

// stopCallbackInBranch is the stop of the branch ctx runs in at the
// callback state of cx, waiting for w, which its fan-out records.
func (x *ASLExec) stopCallbackInBranch(ctx context.Context, cx *aslContext, w *impl.CallbackWait) error {
	vars, err := x.branchVars(ctx)
	if err != nil {
		return err
	}
	in, err := json.Marshal(cx.input)
	if err != nil {
		return fmt.Errorf("saving the input of %q: %w", cx.state, err)
	}
	return &impl.Interrupted{State: cx.state, Key: impl.StopKey(ctx, cx.state), At: &impl.BranchStop{State: cx.state, Input: in, Vars: vars, Callback: w}}
}

// resumeBranchCallback completes a wait a branch resumes at with the
// answer sent for it, fails it once a deadline has passed, or stops the
// branch again.
func (x *ASLExec) resumeBranchCallback(ctx context.Context, cx *aslContext, w *impl.CallbackWait) (any, error) {
	if w.Answer != nil {
		return answerResult(w.Answer)
	}
	if err := impl.Expired(w, x.cfg.RunClock().Now()); err != nil {
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
	wait, ok := errors.AsType[*impl.Interrupted](err)
	if !ok || wait.At == nil || len(wait.Stops) > 0 || wait.Session == "" {
		return err
	}
	keys, waits := wait.At.FanOut.Tokens(wait.At.State + "/")
	if len(waits) == 0 {
		return err
	}
	tw := &impl.TaskTokenWait{Session: wait.Session, State: keys[0], Token: waits[0].Token}
	for _, w := range waits {
		tw.Tokens = append(tw.Tokens, w.Token)
	}
	return tw
}
