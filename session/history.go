package session

import (
	"context"
	"encoding/json"
	"time"
)

// EventKind names what happened in a session.
type EventKind string

// The kinds of events a session's history holds; Event.Fields of each is
// documented in docs/sessions.md.
const (
	KindRunStarted         EventKind = "run_started"          // input
	KindStateEntered       EventKind = "state_entered"        // input (states outside fan-outs)
	KindStateSucceeded     EventKind = "state_succeeded"      // output (states outside fan-outs)
	KindStateFailed        EventKind = "state_failed"         // error, cause
	KindRetryScheduled     EventKind = "retry_scheduled"      // attempt
	KindStoppedForApproval EventKind = "stopped_for_approval" // key, prompt, options
	KindTaskTokenIssued    EventKind = "task_token_issued"    // key, token_hash
	KindAnswerReceived     EventKind = "answer_received"      // key, decision | outcome, token_hash, error, cause; door
	KindInputMerged        EventKind = "input_merged"         // input
	KindSessionStopped     EventKind = "session_stopped"      // error, cause
	KindRedriven           EventKind = "redriven"
	KindRunSucceeded       EventKind = "run_succeeded" // output
	KindRunFailed          EventKind = "run_failed"    // error, cause
)

// Event is one entry of a session's history.
type Event struct {
	Seq  int64     `json:"seq"` // 1-based, per session, assigned by the store
	Time time.Time `json:"time"`
	Kind EventKind `json:"kind"`
	// State is the state's id; inside fan-outs, its path in the form of a
	// stop's key, "Map/2/Review".
	State string `json:"state,omitempty"`
	// Fields are the kind's own, a JSON object.
	Fields json.RawMessage `json:"fields,omitempty"`
}

// NewEvent returns an event with fields marshalled as JSON; fields that
// do not marshal are left out (a state that marshals not is refused
// before it is recorded).
func NewEvent(at time.Time, kind EventKind, state string, fields any) Event {
	e := Event{Time: at.UTC(), Kind: kind, State: state}
	if fields != nil {
		e.Fields, _ = json.Marshal(fields)
	}
	return e
}

// DefaultHistoryCap is how many events a store keeps per session unless
// told otherwise: the newest are kept, the dropped are counted.
const DefaultHistoryCap = 10000

// Historian is a store that keeps sessions' history.
type Historian interface {
	// History returns up to limit (<= 0: all) events of the session with
	// Seq > after, oldest first, and how many of its oldest events were
	// dropped by the cap.
	History(ctx context.Context, id string, after int64, limit int) (events []Event, dropped int64, err error)
}

// Query selects sessions to list.
type Query struct {
	Status   Status // "": any
	Workflow string // "": any
	Limit    int    // <= 0: all
	// Before is the cursor of a Page's Next: the sessions after the last
	// one of that page.
	Before string
}

// Summary is one session as a listing shows it.
type Summary struct {
	ID       string    `json:"id"`
	Workflow string    `json:"workflow"`
	Status   Status    `json:"status"`
	State    string    `json:"state,omitempty"` // where it is: its position's state
	Updated  time.Time `json:"updated"`
	Stops    int       `json:"stops"` // the stops it waits at
}

// Page is one page of a listing, newest first.
type Page struct {
	Sessions []Summary
	// Counts counts the sessions of the whole store by status, whatever
	// the Query's Status.
	Counts map[Status]int
	// Next is the cursor of the next page (Query.Before); "" on the last.
	Next string
}

// Lister is a store that lists its sessions.
type Lister interface {
	// Sessions returns the sessions q selects, newest first.
	Sessions(ctx context.Context, q Query) (Page, error)
}

// Summarize returns the summary of a checkpoint.
func Summarize(cp *Checkpoint) Summary {
	return Summary{ID: cp.Session, Workflow: cp.Workflow, Status: cp.Status, State: cp.Position.State,
		Updated: cp.Time, Stops: len(Stops(cp))}
}
