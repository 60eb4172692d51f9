// Package flowconsole serves flowc's web console (package console) over
// the sessions of a Temporal server: every workflow execution is a
// session, read from its own event history as `flowc sessions
// --temporal-address` reads it (flowtemporal.Executions), and answered
// through the updates of flowc's workflows, which the workers of the
// workflow take. It is a package of its own so that the workers, which
// import flowtemporal, link no web console.
package flowconsole

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/flowc-dev/flowc/console"
	flowcrt "github.com/flowc-dev/flowc/runtime"
	"github.com/flowc-dev/flowc/session"
	"github.com/flowc-dev/flowc/temporal/flowtemporal"
)

// Sessions reads and answers the sessions of a Temporal server: it is the
// console's Reader and Actor.
type Sessions struct {
	c client.Client
	e *flowtemporal.Executions
}

var (
	_ console.Reader = (*Sessions)(nil)
	_ console.Actor  = (*Sessions)(nil)
)

// New returns the sessions of the server c talks to.
func New(c client.Client) *Sessions { return &Sessions{c, flowtemporal.NewExecutions(c)} }

// Sessions lists the sessions as `flowc sessions list` does.
func (s *Sessions) Sessions(ctx context.Context, q console.Query) (console.Page, error) {
	p, err := s.e.Sessions(ctx, session.Query{Status: session.Status(q.Status), Workflow: q.Workflow, Limit: q.Limit, Before: q.Before})
	if err != nil {
		return console.Page{}, err
	}
	out := console.Page{Counts: map[string]int{}, Next: p.Next, Sessions: make([]console.Summary, len(p.Sessions))}
	for st, n := range p.Counts {
		out.Counts[string(st)] += n
	}
	for i, sum := range p.Sessions {
		out.Sessions[i] = console.Summary{ID: sum.ID, Workflow: sum.Workflow, Status: string(sum.Status), State: sum.State, Updated: sum.Updated, Stops: sum.Stops}
	}
	return out, nil
}

// Session shows a session as `flowc sessions show` does; its data is a
// succeeded run's result (a running one's state is inside its worker).
func (s *Sessions) Session(ctx context.Context, id string) (*console.Session, error) {
	d, err := s.e.Describe(ctx, id)
	if err != nil {
		return nil, readErr(err)
	}
	out := &console.Session{ID: d.ID, Workflow: d.Workflow, Status: string(d.Status), State: d.State, Updated: d.Updated, Data: d.Data}
	if f := d.Failure; f != nil {
		out.Error, out.Cause = f.Error, f.Cause
	}
	for _, st := range d.Stops {
		out.Stops = append(out.Stops, console.Stop{Key: st.Key, State: st.State, Kind: st.Kind, Prompt: st.Prompt, Options: st.Options, TokenHash: st.TokenHash})
	}
	return out, nil
}

// History returns the session's history as `flowc sessions history` does.
func (s *Sessions) History(ctx context.Context, id string, after int64, limit int) ([]console.Event, int64, error) {
	events, dropped, err := s.e.History(ctx, id, after, limit)
	if err != nil {
		return nil, 0, readErr(err)
	}
	out := make([]console.Event, len(events))
	for i, e := range events {
		out[i] = console.Event{Seq: e.Seq, Time: e.Time, Kind: string(e.Kind), State: e.State, Fields: e.Fields}
	}
	return out, dropped, nil
}

// Decide answers the approval key names through the update decide, once
// the history shows it waiting.
func (s *Sessions) Decide(ctx context.Context, id, key, option string) error {
	ctx = flowcrt.WithDoor(ctx, session.DoorConsole)
	if _, _, err := s.e.WaitingAt(ctx, id, key); err != nil {
		return actErr(err)
	}
	return s.send(ctx, func(ctx context.Context) error { return flowtemporal.DecideAt(ctx, s.c, id, key, option) })
}

// TaskSucceed answers the task token of stop key with its success.
func (s *Sessions) TaskSucceed(ctx context.Context, id, key string, output json.RawMessage) error {
	return s.answerToken(ctx, id, key, flowtemporal.TaskTokenAnswer{Output: output})
}

// TaskFail answers the task token of stop key with its failure.
func (s *Sessions) TaskFail(ctx context.Context, id, key, errName, cause string) error {
	return s.answerToken(ctx, id, key, flowtemporal.TaskTokenAnswer{Failed: true, Error: errName, Cause: cause})
}

// answerToken sends a for the token the history shows waiting at key,
// through the update answer-task-token.
func (s *Sessions) answerToken(ctx context.Context, id, key string, a flowtemporal.TaskTokenAnswer) error {
	ctx = flowcrt.WithDoor(ctx, session.DoorConsole)
	stop, token, err := s.e.WaitingAt(ctx, id, key)
	switch {
	case err != nil:
		return actErr(err)
	case stop.Kind != session.KindTaskToken || token == "":
		return fmt.Errorf("stop %q of session %q waits for a decision, not a task token's answer", key, id)
	}
	a.Token = token
	return s.send(ctx, func(ctx context.Context) error { return flowtemporal.AnswerTaskToken(ctx, s.c, a) })
}

// AnswerWait bounds how long an answer waits for a worker of the
// workflow to take it.
var AnswerWait = 30 * time.Second

// send sends an answer, which a worker of the workflow takes (validating
// it first): a refusal because the stop no longer waits is a conflict.
func (s *Sessions) send(ctx context.Context, answer func(context.Context) error) error {
	wctx, cancel := context.WithTimeout(ctx, AnswerWait)
	defer cancel()
	err := answer(wctx)
	if err != nil && ctx.Err() == nil && wctx.Err() != nil {
		return fmt.Errorf("no worker of the workflow took the answer within %s: is one running? It may still be taken when one does: reload the page to see", AnswerWait)
	}
	return actErr(err)
}

// Stop terminates the session as `flowc sessions stop` does.
func (s *Sessions) Stop(ctx context.Context, id, errName, cause string) error {
	return actErr(s.e.Stop(ctx, id, errName, cause))
}

// ErrNoRedrive is Redrive's error: Temporal keeps no checkpoint of the
// failed state to go on from.
var ErrNoRedrive = errors.New("a session on Temporal cannot be redriven: its state lives in the workflow's history, not in a checkpoint flowc can go on from. " +
	"Reset the workflow execution to before the state that failed (temporal workflow reset --workflow-id ID --event-id N), " +
	"or start the session again (flowc run DEFINITION --engine temporal --session ID --input FILE)")

// Redrive refuses, with ErrNoRedrive.
func (s *Sessions) Redrive(context.Context, string) error { return ErrNoRedrive }

// RedriveRefusal is ErrNoRedrive: the console says so on a failed
// session's page and offers no Redrive button.
func (s *Sessions) RedriveRefusal() error { return ErrNoRedrive }

// readErr says that a session is unknown with console.ErrNotFound.
func readErr(err error) error {
	if errors.Is(err, flowtemporal.ErrNoExecution) {
		return fmt.Errorf("%w: %w", console.ErrNotFound, err)
	}
	return err
}

// actErr says that an answer lost (the stop no longer waits, or the
// session was stopped) with console.ErrConflict.
func actErr(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, flowtemporal.ErrNotWaiting), errors.Is(err, session.ErrStopped), flowtemporal.IsNotWaiting(err):
		return fmt.Errorf("%w: %w", console.ErrConflict, err)
	}
	return readErr(err)
}
