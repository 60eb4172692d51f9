package impl

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Approver is implemented by handlers that answer approval states, in
// every dialect. Handlers without it leave every decision to a person: the
// run saves its checkpoint and stops with an *Interrupted error, and the
// workflow's Decide continues it with the chosen option.
type Approver interface {
	// Approve returns the option chosen for req, or ErrNoDecision to leave
	// the decision to a person.
	Approve(ctx context.Context, req ApprovalRequest) (string, error)
}

// ErrNoDecision is what an Approver returns when it cannot decide now, for
// instance after posting the question somewhere: the run is interrupted
// as if there were no approver.
var ErrNoDecision = errors.New("no decision yet")

// Interrupted is the error a run stops with when an approval state waits
// for a person. It is not a failure: with a session, the checkpoint holds
// the run waiting at State, and the workflow's Decide continues it. Test
// for it with errors.As.
type Interrupted struct {
	Session string // "" for a run without a session, which cannot be continued
	State   string // the approval state (the first, when several wait)
	Prompt  string
	Options []string
	// Key names the stop when it is inside a fan-out (see Pending.Key).
	Key string
	// Stops lists every stop that waits when the run stopped inside a
	// fan-out, where several may wait at once, each answered on its own
	// (DecideAt); nil for a stop outside any.
	Stops []Pending

	At  *BranchStop   // where the branch or fan-out waits, for the fan-out around it
	due *DurableTimer // inside a branch: when the decision is due
}

func (e *Interrupted) Error() string {
	if len(e.Stops) > 1 {
		return fmt.Sprintf("%d stops wait for a decision: %s", len(e.Stops), stopsText(e.Stops))
	}
	msg := fmt.Sprintf("state %q waits for a decision: %s", e.State, e.Prompt)
	if e.Key != "" && e.Key != e.State {
		msg = fmt.Sprintf("state %q (%s) waits for a decision: %s", e.State, e.Key, e.Prompt)
	}
	if len(e.Options) > 0 {
		msg += " (options: " + quoteAll(e.Options) + ")"
	}
	return msg
}

// IsInterrupted reports whether err is, or wraps, an *Interrupted.
func IsInterrupted(err error) bool {
	var wait *Interrupted
	return errors.As(err, &wait)
}

// Approve returns the decision of an approval state: the one Decide gave a
// resumed session, else the answer of the handlers when they implement
// Approver, given input. A decision outside req.Options is a
// States.Runtime error. With neither, or when the approver returns
// ErrNoDecision, it returns an *Interrupted error. With a req.Timeout, the
// decision is due that long after the state was first reached: a session's
// checkpoint keeps the deadline, so that asking again (Resume, Invoke)
// leaves the approver only the time left, and a decision given after it
// (Decide) or no decision by then is a timeout.
func Approve(ctx context.Context, sess *Session, handlers any, req *ApprovalRequest, input any) (string, error) {
	until := approvalDeadline(ctx, sess, req)
	if d, ok := sess.takeDecision(StopKey(ctx, req.State)); ok {
		if !until.IsZero() && !sess.clock().Now().Before(until) {
			return "", req.timedOut()
		}
		return d, nil // Decide checked it against the options
	}
	a, ok := handlers.(Approver)
	if !ok {
		return "", req.interrupted(ctx, sess, until)
	}
	if !until.IsZero() {
		left := until.Sub(sess.clock().Now())
		if left <= 0 {
			return "", req.timedOut()
		}
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, left)
		defer cancel()
	}
	r := *req
	r.Input = input
	d, err := a.Approve(ctx, r)
	switch {
	case errors.Is(err, ErrNoDecision):
		return "", req.interrupted(ctx, sess, until)
	case err != nil && req.Timeout > 0 && errors.Is(ctx.Err(), context.DeadlineExceeded):
		return "", req.timedOut()
	case err != nil:
		return "", err
	}
	p := Pending{State: req.State, Options: req.Options}
	if err := p.Check(d); err != nil {
		return "", &Error{Name: StatesRuntime, Cause: err.Error()}
	}
	return d, nil
}

// approvalDeadline is when req's decision is due: the deadline the
// checkpoint of a resumed session holds, else req.Timeout from now; zero
// without a timeout, or on an engine, which times the wait itself.
func approvalDeadline(ctx context.Context, sess *Session, req *ApprovalRequest) time.Time {
	if req.Timeout <= 0 || EngineOf(ctx) != nil {
		return time.Time{}
	}
	if t := branchDeadline(ctx, req.State); t != nil {
		return t.Until
	}
	if t := sess.TakeTimer(req.State, false); t != nil {
		return t.Until
	}
	return sess.clock().Now().Add(req.Timeout).UTC()
}

func (req *ApprovalRequest) timedOut() error {
	return fmt.Errorf("%w: no decision within %s", ErrStateTimeout, req.Timeout)
}

// interrupted is the error of req waiting for a person; the checkpoint
// that Session.Save writes for it keeps until, when set.
func (req *ApprovalRequest) interrupted(ctx context.Context, sess *Session, until time.Time) error {
	wait := &Interrupted{State: req.State, Prompt: req.Prompt, Options: req.Options}
	switch {
	case until.IsZero():
	case BranchOf(ctx) != nil:
		wait.due = &DurableTimer{State: req.State, Until: until} // the branch's stop keeps it
	default:
		sess.due(&DurableTimer{State: req.State, Until: until})
	}
	return wait
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, ", ")
}

// interruptedLine is the result line of an interrupted run, without a
// newline: {"status":"INTERRUPTED","prompt":"...","options":[...]}; a run
// stopped inside fan-outs adds "stops", every stop with its key, state,
// prompt and options.
func interruptedLine(wait *Interrupted) []byte {
	type stop struct {
		Key     string   `json:"key"`
		State   string   `json:"state"`
		Prompt  string   `json:"prompt"`
		Options []string `json:"options"`
	}
	var stops []stop
	for _, p := range wait.Stops {
		stops = append(stops, stop{p.StopKey(), p.State, p.Prompt, nonNil(p.Options)})
	}
	// Strings always encode.
	line, _ := EncodeJSON(struct {
		Status  string   `json:"status"`
		Prompt  string   `json:"prompt"`
		Options []string `json:"options"`
		Stops   []stop   `json:"stops,omitempty"`
	}{"INTERRUPTED", wait.Prompt, nonNil(wait.Options), stops})
	return line
}

func nonNil(ss []string) []string {
	if ss == nil {
		return []string{}
	}
	return ss
}

// ApprovalRequest is what an approval handler is asked.
type ApprovalRequest struct {
	State   string   // the Approval state
	Prompt  string   // the question for the approver
	Options []string // the answers allowed; empty means any
	Input   any      // the state's effective input
	// Timeout is how long the approval may take from when the state is
	// first reached (0: no limit): the handler's context ends then, and a
	// session's decision after it is a timeout (see Approve).
	Timeout time.Duration
	// Details is a structured or computed prompt (`Prompt` object or
	// `Prompt.$`), evaluated on the input; Prompt is then its Title.
	Details any
	// PromptTemplate is the States Language template (*asl.Template) that
	// computes Details.
	PromptTemplate any
}
