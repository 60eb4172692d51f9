package impl

import (
	"errors"
	"fmt"
	"time"
)

// A task token (the callback pattern of the States Language) outstanding
// in a session: what its checkpoint keeps of it, and how a run that waits
// for one ends. The States Language machinery (package asl) starts and
// resumes the waits; the checkpoint, the stops of fan-outs and the
// session API (SendTaskSuccess, token_send.go) are shared with it here.

// Expired is the error of a wait whose deadline has passed at now: the
// state fails with States.Timeout or States.HeartbeatTimeout.
func Expired(w *CallbackWait, now time.Time) error {
	switch {
	case !w.Until.IsZero() && !now.Before(w.Until):
		return &Error{Name: StatesTimeout, Cause: fmt.Sprintf("no success or failure was sent for the task token of state %q by %s", w.State, w.Until.Format(time.RFC3339))}
	case !w.Beat.IsZero() && !now.Before(w.Beat):
		return &Error{Name: StatesHeartbeatTimeout, Cause: fmt.Sprintf("no heartbeat was sent for the task token of state %q within %s", w.State, w.Heartbeat)}
	}
	return nil
}

// NextDeadline is the earlier deadline of the wait; zero without one.
func NextDeadline(w *CallbackWait) time.Time {
	switch {
	case w.Until.IsZero():
		return w.Beat
	case w.Beat.IsZero() || w.Until.Before(w.Beat):
		return w.Until
	}
	return w.Beat
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
	Held   *CallbackWait // what the checkpoint saves; nil for a run that cannot be continued
}

func (e *TaskTokenWait) Error() string {
	return fmt.Sprintf("state %q waits for a success or failure sent for task token %s", e.State, e.Token)
}

// IsWaitingForTaskToken reports whether err is, or wraps, a *TaskTokenWait.
func IsWaitingForTaskToken(err error) bool {
	_, ok := errors.AsType[*TaskTokenWait](err)
	return ok
}

func (s *Session) ID() string {
	if s == nil {
		return ""
	}
	return s.id
}

// waitingLine is the result line of a run waiting for a task token,
// without a newline: {"status":"WAITING","state":"...","task_token":"..."}.
func waitingLine(wait *TaskTokenWait) []byte {
	// Strings always encode.
	line, _ := EncodeJSON(struct {
		Status string   `json:"status"`
		State  string   `json:"state"`
		Token  string   `json:"task_token"`
		Tokens []string `json:"task_tokens,omitempty"`
	}{"WAITING", wait.State, wait.Token, wait.Tokens})
	return line
}

// waitFor returns the wait for token that pos holds: at its state (or in
// the compiled-in child it runs), or in a branch of its fan-out; nil when
// it holds none.
func waitFor(pos *Position, token string) *CallbackWait {
	if w := pos.Callback; w != nil && sameToken(w.Token, token) {
		return w
	}
	_, waits := pos.Progress().Tokens("")
	for _, w := range waits {
		if sameToken(w.Token, token) {
			return w
		}
	}
	return nil
}
