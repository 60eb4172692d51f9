package impl

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"sync"
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
	// before it.
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

// Status says how a session's last run stands.
type Status string

const (
	StatusRunning     Status = "running"     // the run saved this checkpoint on its way; Resume continues it
	StatusFinished    Status = "finished"    // the run reached its end
	StatusInterrupted Status = "interrupted" // the run waits at an approval state for a decision
	StatusWaiting     Status = "waiting"     // the run waits for a task token: Position.Callback (asl/callback.go)
	StatusFailed      Status = "failed"      // the run failed at Position.State: Checkpoint.Error and Cause say why; Redrive goes on there
)

// Checkpoint is a session's run as saved after a state.
type Checkpoint struct {
	Session  string `json:"session"`
	Workflow string `json:"workflow"` // the workflow's name, so that a session is never resumed by another workflow
	// Schema identifies the shape of the state: "json" for a JSON state;
	// for a typed one, the hash of its top-level fields the generator
	// computes, a space and the state's whole Shape as JSON (a checkpoint
	// of flowc before shapes has the hash alone). A checkpoint whose
	// state cannot be read as the current shape is refused; see
	// checkpoint_shape.go.
	Schema   string          `json:"schema"`
	Step     int             `json:"step"` // how many checkpoints the session has saved, this one included
	Status   Status          `json:"status"`
	Position Position        `json:"position"`
	State    json.RawMessage `json:"state"` // the state as JSON
	// StatusInterrupted: the approval that waits; when the run stopped
	// inside fan-outs, the first of the stops Position.FanOut holds.
	Pending *Pending  `json:"pending,omitempty"`
	Time    time.Time `json:"time"` // when it was saved, by the workflow's clock
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
	// never issued as unknown (token_spent.go). It is no place to go
	// on from: it travels in the position so that every store keeps it.
	Spent []spentToken `json:"spent_tokens,omitempty"`
	// Failure is set when the run failed at State (StatusFailed): what it
	// failed with. Redrive goes on at State (checkpoint_redrive.go).
	Failure *Failure `json:"failure,omitempty"`
	// Redrives counts the runs of the session that went on from a failed
	// checkpoint, as Step Functions' redriveCount; like Spent, it travels
	// in the position so that every store keeps it.
	Redrives int `json:"redrive_count,omitempty"`
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
	// fan-out State opens (checkpoint_stops.go).
	FanOut *FanOutProgress `json:"fan_out,omitempty"`
}

// FanOutProgress is what a fan-out has done so far.
type FanOutProgress struct {
	// Done holds, by branch or item index, the updates that each finished
	// branch or item recorded, as a JSON list. They are applied at the
	// join as if the branch had just run.
	Done map[int]json.RawMessage `json:"done"`
	// Stopped holds, by branch or item index, where each branch or item
	// that stopped for a decision waits.
	Stopped map[int]*BranchStop `json:"stopped,omitempty"`
	// Output is, in JSON mode, the output of the state that opened the
	// fan-out, which a resumed run takes its items from again instead of
	// running the state again (FanOutSaved, SavedOutput).
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
}

// clone returns a deep copy of c, so that a store never shares memory with
// the workflow that saved or loaded it.
func (c *Checkpoint) clone() *Checkpoint {
	out := *c
	out.State = slices.Clone(c.State)
	out.Position.Vars = slices.Clone(c.Position.Vars)
	out.Position.Inside = slices.Clone(c.Position.Inside)
	for i, p := range out.Position.Inside {
		out.Position.Inside[i] = ChildPosition{State: p.State, Input: slices.Clone(p.Input), Vars: slices.Clone(p.Vars), FanOut: p.FanOut.clone()}
	}
	out.Position.Timer = c.Position.Timer.clone()
	out.Position.Callback = c.Position.Callback.clone()
	out.Position.Spent = slices.Clone(c.Position.Spent)
	if f := c.Position.Failure; f != nil {
		out.Position.Failure = &Failure{Error: f.Error, Cause: f.Cause}
	}
	if c.Pending != nil {
		p := *c.Pending
		p.Options = slices.Clone(p.Options)
		out.Pending = &p
	}
	out.Position.FanOut = c.Position.FanOut.clone()
	return &out
}

// WithCheckpointer makes Invoke, Resume and Decide save and load the
// checkpoints of sessions through cp.
func WithCheckpointer(cp Checkpointer) Option {
	return func(cfg *Config) { cfg.Checkpointer = cp }
}

// MemoryCheckpointer is a Checkpointer that keeps checkpoints in memory,
// for tests and for sessions that need not outlive the process. The zero
// value is ready to use.
type MemoryCheckpointer struct {
	mu   sync.Mutex
	last map[string]*Checkpoint
}

// NewMemoryCheckpointer returns an empty MemoryCheckpointer.
func NewMemoryCheckpointer() *MemoryCheckpointer { return &MemoryCheckpointer{} }

// Save stores a copy of c.
func (m *MemoryCheckpointer) Save(_ context.Context, c *Checkpoint) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.last == nil {
		m.last = map[string]*Checkpoint{}
	}
	m.last[c.Session] = c.clone()
	return nil
}

// Load returns a copy of the session's last checkpoint.
func (m *MemoryCheckpointer) Load(_ context.Context, session string) (*Checkpoint, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	c, ok := m.last[session]
	if !ok {
		return nil, SessionErr(session, ErrNoCheckpoint)
	}
	return c.clone(), nil
}

// List returns the sessions with a checkpoint, sorted.
func (m *MemoryCheckpointer) List(context.Context) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Sorted(maps.Keys(m.last)), nil
}

// Delete forgets the session.
func (m *MemoryCheckpointer) Delete(_ context.Context, session string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.last, session)
	return nil
}
