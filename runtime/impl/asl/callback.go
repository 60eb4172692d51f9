package asl

import (
	"context"
	"time"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// The callback pattern of Step Functions: a Task state whose Resource ends
// in .waitForTaskToken hands its handler a task token ($$.Task.Token) and
// does not complete when the handler returns, whose result is dropped as
// AWS drops the integration's response. It completes when a success or a
// failure is sent for the token; HeartbeatSeconds and TimeoutSeconds
// bound the wait. A top-level state of a session, or one of a compiled-in
// child it runs, stops the run there, its checkpoint holding the
// outstanding token (Position.Callback; SaveChild saves a child's), and
// the workflow's SendTaskSuccess or SendTaskFailure continues it; one
// inside a Parallel branch or a Map item of a session, compiled-in children
// included, stops only its branch (callback_branch.go); a run without
// a session waits in the process for the token.

// EnterCallback returns the context object of a callback Task state being
// entered: its $$.Task.Token is the state's task token.
func (x *ASLExec) EnterCallback(ctx context.Context, state string) *aslContext {
	cx := x.Enter(ctx, state)
	cx.callback = true
	return cx
}

// taskToken is $$.Task.Token. In a callback state it is the token of the
// state's current attempt: issued when first read, or the outstanding one
// of a resumed run. Other states have no token to answer; they read a
// name of the state in the execution.
func (c *aslContext) taskToken() string {
	switch {
	case c.token != "":
	case !c.callback:
		c.token = c.exec.name + "/" + c.state
	case c.exec.callback != nil && c.exec.callback.State == c.state:
		c.token = c.exec.callback.Token
	case impl.EngineOf(c.ctx) != nil:
		if e, ok := impl.EngineOf(c.ctx).(impl.TaskTokenEngine); ok {
			c.token = e.NewTaskToken(c.ctx, c.state)
		}
	default:
		c.token = impl.NewTaskToken(c.exec.sess.ID(), c.state)
	}
	return c.token
}

// Callback is the body of a Task state whose Resource ends in
// .waitForTaskToken: it calls h with the effective input, which holds the
// task token where Parameters or Arguments put it, drops its result and
// waits for the token. heartbeat is HeartbeatSeconds (0: none); the
// state's TimeoutSeconds bounds the whole wait. When durable (a top-level
// state, or one of a compiled-in child it runs) and the run has a
// session, the run stops with a *TaskTokenWait that ASLExec.Save or
// SaveChild saves; inside a branch or item of a session's fan-out it stops
// that branch; otherwise it waits in the process, for the workflow's
// SendTaskSuccess or SendTaskFailure from another goroutine.
func (x *ASLExec) Callback(st *ASLState, h aslHandler, heartbeat time.Duration, durable bool) stateBody {
	return func(ctx context.Context, cx *aslContext, in any) (any, error) {
		defer func() { cx.token = "" }() // a retry gets a token of its own
		if e := impl.EngineOf(ctx); e != nil {
			return x.callbackOn(ctx, e, st, cx, h, in, heartbeat)
		}
		if w := x.takeCallback(cx.state); w != nil {
			return x.resumeCallback(cx, w, durable)
		}
		if w := branchCallback(ctx, cx.state); w != nil {
			return x.resumeBranchCallback(ctx, cx, w)
		}
		w, err := x.startCallback(st, cx, in, heartbeat)
		if err != nil {
			return nil, err
		}
		durable = durable && x.sess != nil
		branchStop := !durable && x.sess != nil && inBranch(ctx) // a stop of its branch (callback_branch.go)
		var live *impl.LiveWait
		if !durable && !branchStop {
			live = impl.WaitLive(w.Token)
			defer impl.ForgetLive(w.Token)
		}
		mock := &mockedCallback{}
		out, err := x.call(context.WithValue(ctx, mockedCallbackKey{}, mock), st.Name, h, in)
		switch {
		case err != nil:
			return nil, err
		case mock.answered:
			return out, nil
		case durable:
			return nil, &impl.TaskTokenWait{State: cx.state, Token: w.Token, Held: w}
		case branchStop:
			return nil, x.stopCallbackInBranch(ctx, cx, w)
		case ctx.Value(stopAtTokensKey{}) != nil:
			return nil, &impl.TaskTokenWait{State: cx.state, Token: w.Token}
		}
		return x.waitInProcess(ctx, w, live)
	}
}

// startCallback issues the state's token and sets its deadlines.
func (x *ASLExec) startCallback(st *ASLState, cx *aslContext, in any, heartbeat time.Duration) (*impl.CallbackWait, error) {
	timeout, err := st.timeout(in, cx)
	if err == nil {
		heartbeat, err = st.heartbeat(in, cx, heartbeat)
	}
	if err != nil {
		return nil, err
	}
	token := cx.taskToken()
	now := x.cfg.RunClock().Now().UTC()
	w := &impl.CallbackWait{State: cx.state, Token: token, Heartbeat: heartbeat}
	if timeout > 0 {
		w.Until = now.Add(timeout)
	}
	if heartbeat > 0 {
		w.Beat = now.Add(heartbeat)
	}
	return w, nil
}

// takeCallback returns, once, the outstanding token of state that the
// checkpoint the run resumed from holds.
func (x *ASLExec) takeCallback(state string) *impl.CallbackWait {
	w := x.callback
	if w == nil || w.State != state {
		return nil
	}
	x.callback = nil
	return w
}

// resumeCallback completes a resumed wait with the answer sent for it,
// fails it once a deadline has passed, or stops the run again.
func (x *ASLExec) resumeCallback(cx *aslContext, w *impl.CallbackWait, durable bool) (any, error) {
	if w.Answer != nil {
		return answerResult(w.Answer)
	}
	if err := impl.Expired(w, x.cfg.RunClock().Now()); err != nil {
		return nil, err
	}
	if !durable || x.sess == nil {
		return nil, x.sess.UnknownState(cx.state)
	}
	return nil, &impl.TaskTokenWait{State: cx.state, Token: w.Token, Held: w}
}

// saveCallback saves the run waiting at the state of wait, on the state's
// raw input out, and returns wait.
func (x *ASLExec) saveCallback(ctx context.Context, wait *impl.TaskTokenWait, out any) error {
	wait.Session = x.sess.ID()
	pos := impl.Position{State: wait.State, Vars: x.sess.Vars(), Callback: wait.Held}
	if err := x.sess.SaveAt(ctx, pos, out, nil); err != nil {
		return err
	}
	return wait
}

// waitInProcess waits for the answer sent to live, renewing the heartbeat
// deadline on each heartbeat, until a deadline passes or ctx ends.
func (x *ASLExec) waitInProcess(ctx context.Context, w *impl.CallbackWait, live *impl.LiveWait) (any, error) {
	clock := x.cfg.RunClock()
	for {
		sctx, cancel := context.WithCancel(ctx)
		timer := make(chan error, 1)
		if due := impl.NextDeadline(w); !due.IsZero() {
			go func() { timer <- clock.Sleep(sctx, max(due.Sub(clock.Now()), 0)) }()
		}
		var a *impl.CallbackAnswer
		select {
		case a = <-live.Answers:
		case <-live.Beats:
			if w.Heartbeat > 0 { // without HeartbeatSeconds a heartbeat changes nothing
				w.Beat = clock.Now().UTC().Add(w.Heartbeat)
			}
		case <-timer:
		case <-ctx.Done():
		}
		cancel()
		switch err := impl.Expired(w, clock.Now()); {
		case a != nil:
			return answerResult(a)
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case err != nil:
			impl.EndLive(w.Token, impl.ErrTaskTokenTimedOut)
			return nil, err
		}
	}
}

// mockedCallback is how a mock tells a callback state that it answered
// for the token: as in Step Functions Local, a mocked callback task never
// reaches the service that would send the token back, and its mocked
// response is the task's result.
type mockedCallback struct{ answered bool }

type mockedCallbackKey struct{}

// MockedCallback returns, when ctx is the context of a callback state's
// handler call, the function a mock calls to answer for the token: the
// mocked response is then the task's result.
func MockedCallback(ctx context.Context) (answer func(), ok bool) {
	m, ok := ctx.Value(mockedCallbackKey{}).(*mockedCallback)
	if !ok {
		return nil, false
	}
	return func() { m.answered = true }, true
}

type stopAtTokensKey struct{}

// StopAtTaskTokens returns ctx, in which a callback state that would wait
// for its token in the process stops the run with a *TaskTokenWait
// instead: in the programs of flowc run and flowc build nothing in the
// process could send it.
func StopAtTaskTokens(ctx context.Context) context.Context {
	return context.WithValue(ctx, stopAtTokensKey{}, true)
}

// heartbeat is the state's HeartbeatSeconds: from its path or expression
// on the effective input, else static.
func (st *ASLState) heartbeat(in any, cx *aslContext, static time.Duration) (time.Duration, error) {
	switch {
	case st.HeartbeatExpr != nil:
		n, err := exprInt(st.HeartbeatExpr, "HeartbeatSeconds", 1, in, cx)
		return time.Duration(n) * time.Second, err
	case st.HeartbeatPath != nil:
		v, err := st.HeartbeatPath.Get(in, cx)
		if err != nil {
			return 0, err
		}
		if !isInteger(v) || v.(float64) < 1 {
			return 0, runtimeErrorf("HeartbeatSecondsPath %q must point to a whole number of at least 1, got %s", st.HeartbeatPath.Src, impl.JSONText(v))
		}
		return time.Duration(v.(float64)) * time.Second, nil
	}
	return static, nil
}

// result is what the answer makes of the state: its result, or its error.
func answerResult(a *impl.CallbackAnswer) (any, error) {
	if a.Failed {
		return nil, &impl.Error{Name: a.Error, Cause: a.Cause}
	}
	return DecodeASLInput(a.Output)
}

// callbackOn runs a callback Task state on engine e: the handler call is
// the engine's, and so is the wait.
func (x *ASLExec) callbackOn(ctx context.Context, e impl.Engine, st *ASLState, cx *aslContext, h aslHandler, in any, heartbeat time.Duration) (any, error) {
	te, ok := e.(impl.TaskTokenEngine)
	if !ok {
		return nil, runtimeErrorf("state %q waits for a task token (.waitForTaskToken), which this engine does not support", cx.state)
	}
	timeout, err := st.timeout(in, cx)
	if err == nil {
		heartbeat, err = st.heartbeat(in, cx, heartbeat)
	}
	if err != nil {
		return nil, err
	}
	token := cx.taskToken()
	if _, err := x.call(ctx, st.Name, h, in); err != nil {
		return nil, err
	}
	out, err := te.AwaitTaskToken(ctx, cx.state, token, timeout, heartbeat)
	if err != nil {
		return nil, err
	}
	return DecodeASLInput(out)
}
