package impl

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
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
// included, stops only its branch (asl_callback_branch.go); a run without
// a session waits in the process for the token.

// StatesHeartbeatTimeout is the error of a callback wait that no heartbeat
// renewed within HeartbeatSeconds. Retriers and catchers of States.Timeout
// match it too.
const StatesHeartbeatTimeout = "States.HeartbeatTimeout"

// callbackWait is a task token outstanding at State, with its deadlines,
// as a checkpoint holds it. Answer is set once a success or a failure was
// accepted for it: a run resumed after a crash then completes the state
// with it.
type callbackWait struct {
	State string `json:"state"`
	Token string `json:"token"`
	// Until is when TimeoutSeconds ends the wait; zero: never.
	Until time.Time `json:"until,omitzero"`
	// Heartbeat is HeartbeatSeconds; Beat when it ends the wait unless a
	// heartbeat renews it.
	Heartbeat time.Duration   `json:"heartbeat,omitempty"`
	Beat      time.Time       `json:"beat,omitzero"`
	Answer    *callbackAnswer `json:"answer,omitempty"`
}

// callbackAnswer is a success (Output) or a failure (Error, Cause) sent
// for a task token.
type callbackAnswer struct {
	Output json.RawMessage `json:"output,omitempty"`
	Failed bool            `json:"failed,omitempty"`
	Error  string          `json:"error,omitempty"`
	Cause  string          `json:"cause,omitempty"`
}

func (w *callbackWait) clone() *callbackWait {
	if w == nil {
		return nil
	}
	out := *w
	if w.Answer != nil {
		a := *w.Answer
		out.Answer = &a
	}
	return &out
}

// expired is the error of a wait whose deadline has passed at now: the
// state fails with States.Timeout or States.HeartbeatTimeout.
func (w *callbackWait) expired(now time.Time) error {
	switch {
	case !w.Until.IsZero() && !now.Before(w.Until):
		return &Error{Name: StatesTimeout, Cause: fmt.Sprintf("no success or failure was sent for the task token of state %q by %s", w.State, w.Until.Format(time.RFC3339))}
	case !w.Beat.IsZero() && !now.Before(w.Beat):
		return &Error{Name: StatesHeartbeatTimeout, Cause: fmt.Sprintf("no heartbeat was sent for the task token of state %q within %s", w.State, w.Heartbeat)}
	}
	return nil
}

// next is the earlier deadline of the wait; zero without one.
func (w *callbackWait) next() time.Time {
	switch {
	case w.Until.IsZero():
		return w.Beat
	case w.Beat.IsZero() || w.Until.Before(w.Beat):
		return w.Until
	}
	return w.Beat
}

// result is what the answer makes of the state: its result, or its error.
func (a *callbackAnswer) result() (any, error) {
	if a.Failed {
		return nil, &Error{Name: a.Error, Cause: a.Cause}
	}
	return DecodeASLInput(a.Output)
}

// TaskTokenWait is the error a run stops with when a Task state waits for
// a task token. It is not a failure: with a session, the checkpoint holds
// the run waiting at State, and the workflow's SendTaskSuccess or
// SendTaskFailure continues it. Test for it with errors.As.
type TaskTokenWait struct {
	Session string
	State   string // inside a fan-out, the key of its stop: "Map/3/Wait"
	Token   string
	// Tokens lists every token outstanding, in branch order, when callback
	// states inside a fan-out wait (Token is the first); nil otherwise.
	Tokens []string
	wait   *callbackWait // what the checkpoint saves; nil for a run that cannot be continued
}

func (e *TaskTokenWait) Error() string {
	return fmt.Sprintf("state %q waits for a success or failure sent for task token %s", e.State, e.Token)
}

// IsWaitingForTaskToken reports whether err is, or wraps, a *TaskTokenWait.
func IsWaitingForTaskToken(err error) bool {
	_, ok := errors.AsType[*TaskTokenWait](err)
	return ok
}

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
	case engineOf(c.ctx) != nil:
		if e, ok := engineOf(c.ctx).(TaskTokenEngine); ok {
			c.token = e.NewTaskToken(c.ctx, c.state)
		}
	default:
		c.token = newTaskToken(c.exec.sess.sessionID(), c.state)
	}
	return c.token
}

func (s *Session) sessionID() string {
	if s == nil {
		return ""
	}
	return s.id
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
		if e := engineOf(ctx); e != nil {
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
		branchStop := !durable && x.sess != nil && inBranch(ctx) // a stop of its branch (asl_callback_branch.go)
		var live *liveWait
		if !durable && !branchStop {
			live = liveWaits.add(w.Token)
			defer liveWaits.remove(w.Token)
		}
		mock := &mockedCallback{}
		out, err := x.call(context.WithValue(ctx, mockedCallbackKey{}, mock), st.Name, h, in)
		switch {
		case err != nil:
			return nil, err
		case mock.answered:
			return out, nil
		case durable:
			return nil, &TaskTokenWait{State: cx.state, Token: w.Token, wait: w}
		case branchStop:
			return nil, x.stopCallbackInBranch(ctx, cx, w)
		case ctx.Value(stopAtTokensKey{}) != nil:
			return nil, &TaskTokenWait{State: cx.state, Token: w.Token}
		}
		return x.waitInProcess(ctx, w, live)
	}
}

// startCallback issues the state's token and sets its deadlines.
func (x *ASLExec) startCallback(st *ASLState, cx *aslContext, in any, heartbeat time.Duration) (*callbackWait, error) {
	timeout, err := st.timeout(in, cx)
	if err == nil {
		heartbeat, err = st.heartbeat(in, cx, heartbeat)
	}
	if err != nil {
		return nil, err
	}
	token := cx.taskToken()
	now := x.cfg.clock().Now().UTC()
	w := &callbackWait{State: cx.state, Token: token, Heartbeat: heartbeat}
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
func (x *ASLExec) takeCallback(state string) *callbackWait {
	w := x.callback
	if w == nil || w.State != state {
		return nil
	}
	x.callback = nil
	return w
}

// resumeCallback completes a resumed wait with the answer sent for it,
// fails it once a deadline has passed, or stops the run again.
func (x *ASLExec) resumeCallback(cx *aslContext, w *callbackWait, durable bool) (any, error) {
	if w.Answer != nil {
		return w.Answer.result()
	}
	if err := w.expired(x.cfg.clock().Now()); err != nil {
		return nil, err
	}
	if !durable || x.sess == nil {
		return nil, x.sess.UnknownState(cx.state)
	}
	return nil, &TaskTokenWait{State: cx.state, Token: w.Token, wait: w}
}

// saveCallback saves the run waiting at the state of wait, on the state's
// raw input out, and returns wait.
func (x *ASLExec) saveCallback(ctx context.Context, wait *TaskTokenWait, out any) error {
	wait.Session = x.sess.id
	pos := Position{State: wait.State, Vars: x.sess.vars, Callback: wait.wait}
	if err := x.sess.save(ctx, pos, out, nil); err != nil {
		return err
	}
	return wait
}

// waitInProcess waits for the answer sent to live, renewing the heartbeat
// deadline on each heartbeat, until a deadline passes or ctx ends.
func (x *ASLExec) waitInProcess(ctx context.Context, w *callbackWait, live *liveWait) (any, error) {
	clock := x.cfg.clock()
	for {
		sctx, cancel := context.WithCancel(ctx)
		timer := make(chan error, 1)
		if due := w.next(); !due.IsZero() {
			go func() { timer <- clock.Sleep(sctx, max(due.Sub(clock.Now()), 0)) }()
		}
		var a *callbackAnswer
		select {
		case a = <-live.answer:
		case <-live.beat:
			if w.Heartbeat > 0 { // without HeartbeatSeconds a heartbeat changes nothing
				w.Beat = clock.Now().UTC().Add(w.Heartbeat)
			}
		case <-timer:
		case <-ctx.Done():
		}
		cancel()
		switch err := w.expired(clock.Now()); {
		case a != nil:
			return a.result()
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case err != nil:
			liveWaits.end(w.Token, ErrTaskTokenTimedOut)
			return nil, err
		}
	}
}

// waitingLine is the result line of a run waiting for a task token,
// without a newline: {"status":"WAITING","state":"...","task_token":"..."}.
func waitingLine(wait *TaskTokenWait) []byte {
	// Strings always encode.
	line, _ := encode(struct {
		Status string   `json:"status"`
		State  string   `json:"state"`
		Token  string   `json:"task_token"`
		Tokens []string `json:"task_tokens,omitempty"`
	}{"WAITING", wait.State, wait.Token, wait.Tokens})
	return line
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
			return 0, runtimeErrorf("HeartbeatSecondsPath %q must point to a whole number of at least 1, got %s", st.HeartbeatPath.Src, jsonText(v))
		}
		return time.Duration(v.(float64)) * time.Second, nil
	}
	return static, nil
}
