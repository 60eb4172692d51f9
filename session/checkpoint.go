package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"
)

// Checkpointer stores the last checkpoint of each session. Implementations
// must be safe for concurrent use, and Save must be atomic: Load returns
// the checkpoint before a Save or the one after it, never a mix. The
// embedded default is the SQLite store of package
// github.com/flowc-dev/flowc/checkpoint/sqlite; MemoryCheckpointer keeps
// checkpoints for the life of the process.
type Checkpointer interface {
	// Save stores c as the last checkpoint of c.Session, replacing the one
	// before it, and appends c.Events to the session's history in the same
	// atomic step. A store may refuse a checkpoint whose Step does not
	// follow the stored one's (another run or answer saved first).
	Save(ctx context.Context, c *Checkpoint) error
	// Load returns the last checkpoint of a session, or an error wrapping
	// ErrNoCheckpoint when it has none.
	Load(ctx context.Context, session string) (*Checkpoint, error)
	// List returns the ids of the sessions that have a checkpoint, sorted.
	List(ctx context.Context) ([]string, error)
	// Delete removes a session's checkpoint; a session without one is not
	// an error.
	Delete(ctx context.Context, session string) error
}

// ErrNoCheckpoint is wrapped by Checkpointer.Load for a session that has no
// checkpoint.
var ErrNoCheckpoint = errors.New("no checkpoint")

// SessionError is the error of a session that cannot run as asked: its
// checkpoint belongs to another workflow or state schema, it has no
// checkpoint to resume, it was stopped, or it waits for no such decision.
// Nothing ran.
type SessionError struct {
	Session string
	Err     error
}

func (e *SessionError) Error() string { return fmt.Sprintf("session %q: %v", e.Session, e.Err) }

func (e *SessionError) Unwrap() error { return e.Err }

// Err returns a *SessionError of session id.
func Err(id string, err error) error { return &SessionError{Session: id, Err: err} }

// Status says how a session's last run stands.
type Status string

const (
	StatusRunning     Status = "running"     // the run saved this checkpoint on its way; Resume continues it
	StatusSucceeded   Status = "succeeded"   // the run reached its end
	StatusInterrupted Status = "interrupted" // the run waits at an approval state for a decision
	StatusWaiting     Status = "waiting"     // the run waits for a task token: Position.Callback
	StatusFailed      Status = "failed"      // the run failed at Position.State, with Position.Failure; a redrive goes on there
	StatusStopped     Status = "stopped"     // Stop ended the session: it takes no answer or input
	// StatusFinished is StatusSucceeded's former name.
	//
	// Deprecated: use StatusSucceeded.
	StatusFinished = StatusSucceeded
)

// legacyFinished is how flowc before statuses failed and stopped wrote
// StatusSucceeded; such checkpoints still load.
const legacyFinished = "finished"

// ParseStatus reads a status as stored, "finished" as StatusSucceeded.
func ParseStatus(s string) Status {
	if s == legacyFinished {
		return StatusSucceeded
	}
	return Status(s)
}

// UnmarshalJSON reads a status, "finished" as StatusSucceeded.
func (s *Status) UnmarshalJSON(data []byte) error {
	var str string
	if err := json.Unmarshal(data, &str); err != nil {
		return err
	}
	*s = ParseStatus(str)
	return nil
}

// Ended reports whether a session of this status has no run to go on
// with by itself: it succeeded, failed or was stopped.
func (s Status) Ended() bool {
	return s == StatusSucceeded || s == StatusFailed || s == StatusStopped
}

// Checkpoint is a session's run as saved after a state.
type Checkpoint struct {
	Session  string `json:"session"`
	Workflow string `json:"workflow"` // the workflow's name, so that a session is never resumed by another workflow
	// Schema identifies the shape of the state: "json" for a JSON state;
	// for a typed one, the hash of its top-level fields the generator
	// computes, a space and the state's whole Shape as JSON (a checkpoint
	// of flowc before shapes has the hash alone). A checkpoint whose
	// state cannot be read as the current shape is refused.
	Schema   string          `json:"schema"`
	Step     int             `json:"step"` // how many checkpoints the session has saved, this one included
	Status   Status          `json:"status"`
	Position Position        `json:"position"`
	State    json.RawMessage `json:"state"` // the state as JSON
	// StatusInterrupted: the approval that waits; when the run stopped
	// inside fan-outs, the first of the stops Position.FanOut holds.
	Pending *Pending  `json:"pending,omitempty"`
	Time    time.Time `json:"time"` // when it was saved, by the workflow's clock
	// Events happened since the checkpoint before: Save appends them to
	// the session's history with the checkpoint, atomically. They are not
	// part of the checkpoint's JSON, and Load returns none.
	Events []Event `json:"-"`
}

// Position is where a run goes on.
type Position struct {
	// State is the state to run next; "" once the run has finished. An
	// interrupted run's position is the approval state that waits.
	State string `json:"state,omitempty"`
	// FanOut is set when the run stopped inside the fan-out that State
	// opens: State's own handler has run, and the state saved is the one
	// the branches or items started from.
	FanOut *FanOutProgress `json:"fan_out,omitempty"`
	// Vars holds a States Language run's top-level variables, a JSON
	// object, which the run goes on with.
	Vars json.RawMessage `json:"vars,omitempty"`
	// Inside is set when a States Language run stopped inside the
	// compiled-in child (an Include, or a started execution) that State
	// runs, whose raw input is the state saved: the position in each
	// child, outermost first.
	Inside []ChildPosition `json:"inside,omitempty"`
	// Timer is set when the run stopped while State slept (a Wait state,
	// or the delay before a retry): its deadline, which a resumed run
	// keeps.
	Timer *DurableTimer `json:"timer,omitempty"`
	// Callback is set when the run waits at State for a task token.
	Callback *CallbackWait `json:"callback,omitempty"`
	// Spent remembers the task tokens whose waits have ended, newest last,
	// so that a token sent again is refused as used, and one the session
	// never issued as unknown. It is no place to go on from: it travels
	// in the position so that every store keeps it.
	Spent []SpentToken `json:"spent_tokens,omitempty"`
	// Failure is set when the run failed at State (StatusFailed): what it
	// failed with. A redrive goes on at State.
	Failure *Failure `json:"failure,omitempty"`
	// Redrives counts the runs of the session that went on from a failed
	// checkpoint, as Step Functions' redriveCount; like Spent, it travels
	// in the position so that every store keeps it.
	Redrives int `json:"redrive_count,omitempty"`
}

// Failure is what a failed run failed with: the error's name, as retry and
// catch rules see it, and its cause.
type Failure struct {
	Error string `json:"error"`
	Cause string `json:"cause,omitempty"`
}

// ChildPosition is where a run goes on in a compiled-in child: the child's
// state to run next, its input and the variables of the child's own scope
// (a JSON object; none when it shares its parent's). In a child that is
// not the innermost, State is the state that runs the next child.
type ChildPosition struct {
	State string          `json:"state"`
	Input json.RawMessage `json:"input"`
	Vars  json.RawMessage `json:"vars,omitempty"`
	// FanOut is set in the innermost child when the run stopped inside the
	// fan-out State opens.
	FanOut *FanOutProgress `json:"fan_out,omitempty"`
}

// FanOutProgress is what a fan-out has done so far. The branches and
// items that started are those in Done or Stopped, since they are handed
// out in index order; any other has not started (or ran when the process
// died, and starts anew). Under a Map's MaxConcurrency a stopped item
// keeps its place, so a fan-out that waits can leave items unstarted
// (runtime/impl/fanout_places.go).
type FanOutProgress struct {
	// Done holds, by branch or item index, the updates that each finished
	// branch or item recorded, as a JSON list. They are applied at the
	// join as if the branch had just run.
	Done map[int]json.RawMessage `json:"done"`
	// Stopped holds, by branch or item index, where each branch or item
	// that stopped for a decision or a task token waits.
	Stopped map[int]*BranchStop `json:"stopped,omitempty"`
	// Output is, in JSON mode, the output of the state that opened the
	// fan-out, which a resumed run takes its items from again instead of
	// running the state again.
	Output json.RawMessage `json:"output,omitempty"`
}

// Pending is the approval an interrupted run waits for.
type Pending struct {
	// Key names the stop inside fan-outs: "<fan-out state>/<index>/<state>",
	// as deep as they nest; "" for a stop outside any, which its State names.
	Key     string   `json:"key,omitempty"`
	State   string   `json:"state"`
	Prompt  string   `json:"prompt"`
	Options []string `json:"options,omitempty"`
	// Answer is the decision recorded for the stop (Answer, Decide), which
	// the run resumed next takes.
	Answer *Answered `json:"answer,omitempty"`
}

// Answered is a decision recorded for an approval, and the door it came
// through ("go", "cli", "console").
type Answered struct {
	Decision string `json:"decision"`
	Door     string `json:"door,omitempty"`
}

// BranchStop is where one branch or item of a fan-out waits: at State, on
// Input (the state's raw input), with the variables of its own scope. Either
// State waits itself (Pending), or a fan-out State opens holds the stops
// (FanOut), one level down.
type BranchStop struct {
	State   string          `json:"state"`
	Input   json.RawMessage `json:"input"`
	Vars    json.RawMessage `json:"vars,omitempty"`
	Pending *Pending        `json:"pending,omitempty"`
	FanOut  *FanOutProgress `json:"fan_out,omitempty"`
	// Timer is when Pending's decision is due, for an approval with a
	// timeout: the deadline runs from when the branch first reached it.
	Timer *DurableTimer `json:"timer,omitempty"`
	// Callback is the task token State waits for, a callback Task state,
	// instead of a decision.
	Callback *CallbackWait `json:"callback,omitempty"`
	// Child is set when State runs a compiled-in child (an Include, or a
	// started execution) that stopped: where in the child it waits, one
	// level down.
	Child *BranchStop `json:"child,omitempty"`
}

// DurableTimer is a sleep under way in the state a checkpoint names: a
// Wait state's, or the delay before a retry of the state's handler; or
// the time an approval state's decision is due. Its deadline is absolute,
// so that a run resumed after a crash sleeps only what is left of it, and
// not at all once it has passed.
type DurableTimer struct {
	State string    `json:"state"`
	Until time.Time `json:"until"`
	// Retries is set for a retry's delay: the retries each rule of the
	// state had made, by rule, so that the resumed run goes on counting.
	Retries []int `json:"retries,omitempty"`
}

// CallbackWait is a task token outstanding at State, with its deadlines,
// as a checkpoint holds it. Answer is set once a success or a failure was
// accepted for it: a run resumed after a crash then completes the state
// with it.
type CallbackWait struct {
	State string `json:"state"`
	Token string `json:"token"`
	// Until is when TimeoutSeconds ends the wait; zero: never.
	Until time.Time `json:"until,omitzero"`
	// Heartbeat is HeartbeatSeconds; Beat when it ends the wait unless a
	// heartbeat renews it.
	Heartbeat time.Duration   `json:"heartbeat,omitempty"`
	Beat      time.Time       `json:"beat,omitzero"`
	Answer    *CallbackAnswer `json:"answer,omitempty"`
}

// CallbackAnswer is a success (Output) or a failure (Error, Cause) sent
// for a task token.
type CallbackAnswer struct {
	Output json.RawMessage `json:"output,omitempty"`
	Failed bool            `json:"failed,omitempty"`
	Error  string          `json:"error,omitempty"`
	Cause  string          `json:"cause,omitempty"`
}

// SpentToken is a task token whose wait has ended, by the hash of the
// token: the checkpoint never holds an answerable token it no longer waits
// for.
type SpentToken struct {
	Hash     string `json:"hash"`
	Answered bool   `json:"answered,omitempty"` // false: its deadline ended the wait, or its state was stopped
}

// Clone returns a deep copy of c, so that a store never shares memory with
// the workflow that saved or loaded it.
func (c *Checkpoint) Clone() *Checkpoint {
	out := *c
	out.State = slices.Clone(c.State)
	out.Position.Vars = slices.Clone(c.Position.Vars)
	out.Position.Inside = slices.Clone(c.Position.Inside)
	for i, p := range out.Position.Inside {
		out.Position.Inside[i] = ChildPosition{State: p.State, Input: slices.Clone(p.Input), Vars: slices.Clone(p.Vars), FanOut: p.FanOut.Clone()}
	}
	out.Position.Timer = c.Position.Timer.Clone()
	out.Position.Callback = c.Position.Callback.Clone()
	out.Position.Spent = slices.Clone(c.Position.Spent)
	if f := c.Position.Failure; f != nil {
		out.Position.Failure = &Failure{Error: f.Error, Cause: f.Cause}
	}
	out.Pending = c.Pending.Clone()
	out.Position.FanOut = c.Position.FanOut.Clone()
	out.Events = slices.Clone(c.Events)
	return &out
}

// Clone returns a deep copy of p; nil for nil.
func (p *Pending) Clone() *Pending {
	if p == nil {
		return nil
	}
	out := *p
	out.Options = slices.Clone(p.Options)
	if p.Answer != nil {
		a := *p.Answer
		out.Answer = &a
	}
	return &out
}

// Clone returns a deep copy of b; nil for nil.
func (b *BranchStop) Clone() *BranchStop {
	if b == nil {
		return nil
	}
	return &BranchStop{State: b.State, Input: slices.Clone(b.Input), Vars: slices.Clone(b.Vars), FanOut: b.FanOut.Clone(),
		Timer: b.Timer.Clone(), Callback: b.Callback.Clone(), Child: b.Child.Clone(), Pending: b.Pending.Clone()}
}

// Clone returns a deep copy of f; nil for nil.
func (f *FanOutProgress) Clone() *FanOutProgress {
	if f == nil {
		return nil
	}
	out := &FanOutProgress{Done: make(map[int]json.RawMessage, len(f.Done)), Output: slices.Clone(f.Output)}
	for i, raw := range f.Done {
		out.Done[i] = slices.Clone(raw)
	}
	if f.Stopped != nil {
		out.Stopped = make(map[int]*BranchStop, len(f.Stopped))
		for i, b := range f.Stopped {
			out.Stopped[i] = b.Clone()
		}
	}
	return out
}

// Clone returns a copy of t; nil for nil.
func (t *DurableTimer) Clone() *DurableTimer {
	if t == nil {
		return nil
	}
	out := *t
	out.Retries = slices.Clone(t.Retries)
	return &out
}

// Clone returns a copy of w; nil for nil.
func (w *CallbackWait) Clone() *CallbackWait {
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
