package asl

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// childFrame is a compiled-in child being run: the state that runs it
// (an Include, or a Task that starts an execution), that state's raw
// input, and the variable scopes around the child and inside it (the same
// one unless the child has a scope of its own).
type childFrame struct {
	parent       *childFrame
	state        string
	raw          any
	outer, inner *varScope
}

type childKey struct{}

// enterChild returns ctx, whose scope is the one the child runs in, with
// the frame of the child that the state of cx runs; outer is the scope of
// the state itself. Without a state (nil cx) the child saves nothing.
func enterChild(ctx context.Context, x *ASLExec, cx *aslContext, outer *varScope) context.Context {
	if cx == nil {
		return ctx
	}
	parent, _ := ctx.Value(childKey{}).(*childFrame)
	ctx = impl.WithChildDepth(ctx, len(frames(ctx))+1)
	return context.WithValue(ctx, childKey{}, &childFrame{parent: parent, state: cx.state, raw: cx.input, outer: outer, inner: x.scope(ctx)})
}

// frames lists the children ctx runs in, outermost first: those whose
// chain of states starts at the top level, then, inside a Parallel branch
// or a Map iteration, those the branch runs (branchScope.depth tells them
// apart).
func frames(ctx context.Context) []*childFrame {
	var out []*childFrame
	for f, _ := ctx.Value(childKey{}).(*childFrame); f != nil; f = f.parent {
		out = append([]*childFrame{f}, out...)
	}
	return out
}

// SaveChild records the outcome of a state of a compiled-in child, as Save
// does for a top-level state: the checkpoint names the top-level state that
// runs the child, with its raw input, and the position in every child down
// to this one (next, on out). A child that ends saves nothing: the state
// that ran it saves once it is done. A child that waits for a task token
// saves the token too. Inside a Parallel branch or a Map iteration nothing
// is saved: a stop in the child becomes one of the branch (stopInChild),
// which its fan-out records.
func (x *ASLExec) SaveChild(ctx context.Context, next string, out any, err error) error {
	if x.sess == nil {
		return err
	}
	frames := frames(ctx)
	if sc := impl.BranchOf(ctx); sc != nil && len(frames) > sc.Depth {
		return x.stopInChild(frames[len(frames)-1], err)
	}
	var wait *impl.Interrupted
	interrupted := errors.As(err, &wait)
	token, waits := errors.AsType[*impl.TaskTokenWait](err)
	switch {
	case len(frames) == 0:
		return err
	case interrupted && wait.Session != "", waits && (token.Session != "" || token.Held == nil): // saved already, by the child it waits in
		return err
	case !interrupted && !waits && (err != nil || next == ""):
		return err
	case x.restoreErr != nil:
		return x.restoreErr
	}
	var stops []impl.Pending
	var callback *impl.CallbackWait
	switch {
	case waits:
		next, callback = token.State, token.Held
	case interrupted && wait.At != nil: // inside a fan-out of the child: the fan-out state waits
		next, out, stops = wait.At.State, wait.At.Input, wait.Stops
	case interrupted:
		next, stops = wait.State, []impl.Pending{{State: wait.State, Prompt: wait.Prompt, Options: wait.Options}}
	}
	inside, serr := childPositions(frames, next, out)
	if serr != nil {
		return fmt.Errorf("saving the checkpoint of session %q: %w", x.sess.ID(), serr)
	}
	if interrupted && wait.At != nil {
		inside[len(inside)-1].FanOut = wait.At.FanOut
	}
	if serr := x.saveVars(); serr != nil {
		return serr
	}
	pos := impl.Position{State: frames[0].state, Vars: x.sess.Vars(), Inside: inside, Callback: callback}
	if !interrupted && !waits {
		return x.sess.SaveAt(ctx, pos, frames[0].raw, nil)
	}
	data, serr := json.Marshal(frames[0].raw)
	if serr != nil {
		return fmt.Errorf("saving the checkpoint of session %q: %w", x.sess.ID(), serr)
	}
	if waits { // the top level does not save it again
		token.Session = x.sess.ID()
	} else {
		wait.Session = x.sess.ID()
	}
	if serr := x.sess.Put(ctx, pos, data, stops); serr != nil {
		return serr
	}
	return tokensWait(err) // a fan-out of the child whose stops all wait for tokens
}

// stopInChild makes err, when it is the stop of a compiled-in child run
// inside a branch at the state of f, the stop of the state that runs the
// child, which keeps the child's stop as its Child: the state f runs waits,
// on its raw input, with the variables of the scope it runs in. Other
// errors are returned as they are.
func (x *ASLExec) stopInChild(f *childFrame, err error) error {
	wait, ok := errors.AsType[*impl.Interrupted](err)
	if !ok || wait.At == nil {
		return err
	}
	in, merr := json.Marshal(f.raw)
	if merr != nil {
		return fmt.Errorf("saving the input of %q: %w", f.state, merr)
	}
	stop := &impl.BranchStop{State: f.state, Input: in, Child: wait.At}
	if f.outer != x.vars && len(f.outer.vals) > 0 {
		if stop.Vars, merr = json.Marshal(f.outer.vals); merr != nil { // keys sorted
			return fmt.Errorf("saving the variables of a branch: %w", merr)
		}
	}
	wait.At = stop
	return err
}

// childPositions is the position in each child of frames: the state that
// runs the next child with its raw input, and in the innermost next on
// out.
func childPositions(frames []*childFrame, next string, out any) ([]impl.ChildPosition, error) {
	inside := make([]impl.ChildPosition, len(frames))
	for i, f := range frames {
		state, in := next, out
		if i+1 < len(frames) {
			state, in = frames[i+1].state, frames[i+1].raw
		}
		data, err := json.Marshal(in)
		if err != nil {
			return nil, err
		}
		inside[i] = impl.ChildPosition{State: state, Input: data}
		if f.inner != f.outer && len(f.inner.vals) > 0 {
			if inside[i].Vars, err = json.Marshal(f.inner.vals); err != nil { // keys sorted
				return nil, err
			}
		}
	}
	return inside, nil
}

// ResumeChild returns where a compiled-in child starts: at steps[0] on in
// or, in a run resumed inside this child, at the state of its checkpoint
// (or, for a child a Parallel branch or a Map iteration runs, of its
// branch's stop: childStop) on the input saved there, with the variables
// of the child's own scope restored. steps are the child's states, ids
// the ids of all steps.
func ResumeChild[T ~int](ctx context.Context, x *ASLExec, ids []string, steps []T, in any) (T, any, error) {
	if stop, inside := childStop(ctx); inside {
		return resumeAt(ctx, x, ids, steps, in, stop)
	}
	pos := x.resumeIn(ctx)
	if pos == nil {
		return steps[0], in, nil
	}
	for _, step := range steps {
		if ids[step] == pos.State {
			if pos.FanOut != nil { // the run stopped inside the fan-out of this state
				x.sess.RestoreFanOut(pos.State, pos.FanOut)
			}
			v, err := x.restoreChild(ctx, pos)
			return step, v, err
		}
	}
	return steps[0], nil, x.sess.UnknownState(pos.State)
}

// childResume is what a run resumed inside compiled-in children has to
// restore: the checkpoint's top-level state, its positions in the
// children, and how many of them the run has entered again.
type childResume struct {
	at     string
	inside []impl.ChildPosition
	taken  int
}

// resumeIn returns the saved position of the child ctx runs in when the
// run resumes inside it. The children of the checkpoint are entered again
// one inside the other before any other: entering another one means the
// run has left them, and nothing is restored after that.
func (x *ASLExec) resumeIn(ctx context.Context) *impl.ChildPosition {
	r := x.resume
	if r == nil {
		return nil
	}
	if !r.next(frames(ctx)) {
		x.resume = nil
		return nil
	}
	pos := &r.inside[r.taken]
	if r.taken++; r.taken == len(r.inside) {
		x.resume = nil
	}
	return pos
}

// next reports whether frames are those of the next child to enter again.
func (r *childResume) next(frames []*childFrame) bool {
	if len(frames) != r.taken+1 || frames[0].state != r.at {
		return false
	}
	for i, f := range frames[1:] {
		if f.state != r.inside[i].State {
			return false
		}
	}
	return true
}

// restoreChild decodes a child's saved input and puts its saved variables
// into the scope it runs in.
func (x *ASLExec) restoreChild(ctx context.Context, pos *impl.ChildPosition) (any, error) {
	in, err := DecodeASLInput(pos.Input)
	if err != nil {
		return nil, impl.SessionErr(x.sess.ID(), fmt.Errorf("its checkpoint holds an input of state %q that does not decode: %v", pos.State, err))
	}
	if len(pos.Vars) == 0 {
		return in, nil
	}
	o, err := decodeVars(pos.Vars)
	if err != nil {
		return nil, impl.SessionErr(x.sess.ID(), fmt.Errorf("its checkpoint holds variables of state %q that do not decode: %v", pos.State, err))
	}
	x.scope(ctx).assign(o)
	return in, nil
}

// ResumeBranch returns where a Parallel branch or a Map iteration starts:
// at steps[0] on in or, in a session's run resumed inside this branch, at
// the state it stopped at, on the input saved there, with the variables of
// the branch's scope restored. ids are the ids of all steps.
func ResumeBranch[T ~int](ctx context.Context, x *ASLExec, ids []string, steps []T, in any) (T, any, error) {
	return resumeAt(ctx, x, ids, steps, in, impl.TakeResume(ctx))
}

// childStop returns, once, where the compiled-in child ctx runs in goes on
// when the child runs inside a Parallel branch or a Map iteration (inside
// is then true): the Child of the stop its branch resumes at, when that
// stop is at the state that runs this child, else nil. The child's stop
// becomes the one its states resume at.
func childStop(ctx context.Context) (stop *impl.BranchStop, inside bool) {
	sc := impl.BranchOf(ctx)
	fr := frames(ctx)
	if sc == nil || len(fr) <= sc.Depth {
		return nil, false
	}
	if at := sc.At; at != nil && at.Child != nil && at.State == fr[len(fr)-1].state {
		sc.At = at.Child
		return at.Child, true
	}
	return nil, true
}

// resumeAt returns where the machine of steps starts: at steps[0] on in,
// or at the state of stop, on the input saved there, with the variables
// of its scope restored.
func resumeAt[T ~int](ctx context.Context, x *ASLExec, ids []string, steps []T, in any, stop *impl.BranchStop) (T, any, error) {
	if stop == nil {
		return steps[0], in, nil
	}
	for _, step := range steps {
		if ids[step] == stop.State {
			v, err := x.restoreChild(ctx, &impl.ChildPosition{State: stop.State, Input: stop.Input, Vars: stop.Vars})
			return step, v, err
		}
	}
	return steps[0], nil, x.sess.UnknownState(stop.State)
}

// openFanOut begins the fan-out of the Map or Parallel state cx runs in a
// session's run (nil without one); at the top level it saves its progress
// as branches finish.
func (x *ASLExec) openFanOut(ctx context.Context, state string, cx *aslContext) (*impl.OpenFanOut, error) {
	stops := impl.OpenStops(ctx, x.sess, state)
	return stops, stops.Durable(ctx, x.sess, state, cx.input, nil)
}

// restoreOutput decodes into out what a branch or item that finished
// before the run resumed returned.
func (x *ASLExec) restoreOutput(raw json.RawMessage, out *any) error {
	v, err := DecodeASLInput(raw)
	if err != nil {
		return impl.SessionErr(x.sess.ID(), fmt.Errorf("its checkpoint holds a branch's output that does not decode: %v", err))
	}
	*out = v
	return nil
}

// stopped is the *Interrupted of the fan-out state cx runs when branches
// of it stopped; nil when none did.
func (x *ASLExec) stopped(ctx context.Context, stops *impl.OpenFanOut, cx *aslContext) error {
	if !stops.Stopped() {
		return nil
	}
	vars, err := x.branchVars(ctx)
	if err != nil {
		return err
	}
	return stops.Interrupted(cx.state, cx.input, vars)
}

// branchVars are the variables of the scope of the branch ctx runs in, as
// a stop there saves them; nil outside branches, whose variables the
// checkpoint holds anyway.
func (x *ASLExec) branchVars(ctx context.Context) (json.RawMessage, error) {
	s := x.scope(ctx)
	if impl.BranchOf(ctx) == nil || s == x.vars || len(s.vals) == 0 {
		return nil, nil
	}
	data, err := json.Marshal(s.vals) // keys sorted
	if err != nil {
		return nil, fmt.Errorf("saving the variables of a branch: %w", err)
	}
	return data, nil
}

// inBranch reports whether ctx runs a state of a Parallel branch or Map
// iteration of a session's run, where it can stop: in the branch itself
// or in a compiled-in child it runs (stopInChild).
func inBranch(ctx context.Context) bool {
	return impl.BranchOf(ctx) != nil
}
