package session

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

var (
	// ErrStopped is wrapped by the error of an answer, input or run
	// refused because Stop ended the session.
	ErrStopped = errors.New("the session was stopped; it takes no answer or input")
	// ErrAlreadyAnswered is wrapped by the error of an answer to a stop
	// that was answered already: of two answers, one wins.
	ErrAlreadyAnswered = errors.New("the stop was answered already")
)

// The doors an answer comes through, as answer_received events name them.
const (
	DoorGo      = "go"      // the workflow's Go API
	DoorCLI     = "cli"     // flowc run, a built program's flags
	DoorConsole = "console" // the web console
)

// AnswerInput is an answer to one stop: a Decision for an approval; for a
// task token, TaskOutput (its success, JSON) or TaskError and TaskCause
// (its failure). Door says where it came from ("": DoorGo).
type AnswerInput struct {
	Decision             string
	TaskOutput           json.RawMessage
	TaskError, TaskCause string
	Door                 string
}

// saveTries bounds how often Answer and Stop load again after another
// save got ahead of theirs.
const saveTries = 5

// Answer records a for the stop of session id that key names (a StopInfo's
// Key; "" names the only one), durably, without running anything: the
// session's next run (the workflow's Resume) takes it. A second answer to
// the same stop fails with an error wrapping ErrAlreadyAnswered, an answer
// to a stopped session with one wrapping ErrStopped.
func Answer(ctx context.Context, store Checkpointer, id, key string, a AnswerInput) error {
	if a.Door == "" {
		a.Door = DoorGo
	}
	return update(ctx, store, id, func(cp *Checkpoint) (Event, error) {
		if cp.Status == StatusStopped {
			return Event{}, ErrStopped
		}
		ev, err := RecordAnswer(cp, key, a, time.Now())
		if err != nil {
			err = Refusal(ctx, store, cp, key, err)
		}
		return ev, err
	})
}

// Refusal is err, which refused an answer to the stop of cp that key
// names ("": the only one), or, when no such stop waits and the history
// of cp's session records an answer to it, an error wrapping
// ErrAlreadyAnswered: the stop was answered and its run took the answer
// and went on, as happens to the loser of two answers given at once when
// the winner's run gets ahead of it. Stores that keep no history
// (Historian) leave err as it is.
func Refusal(ctx context.Context, store Checkpointer, cp *Checkpoint, key string, err error) error {
	h, ok := store.(Historian)
	if !ok || waits(cp, key) {
		return err
	}
	events, _, herr := h.History(ctx, cp.Session, 0, 0)
	if herr != nil {
		return err
	}
	for _, e := range slices.Backward(events) {
		if e.Kind == KindAnswerReceived && (key == "" || e.State == key) {
			var f struct{ Door string }
			_ = json.Unmarshal(e.Fields, &f) // the door only words the message
			return fmt.Errorf("%w: stop %q was answered (through %s) and its run went on", ErrAlreadyAnswered, e.State, cmp.Or(f.Door, DoorGo))
		}
	}
	return err
}

// waits reports whether a stop of cp that key names waits ("": any).
func waits(cp *Checkpoint, key string) bool {
	stops := Stops(cp)
	return slices.ContainsFunc(stops, func(s StopInfo) bool { return key == "" || s.Key == key })
}

// Stop ends session id as stopped, with an error name and cause for the
// record: it takes no decision, token or input after it, as Step
// Functions' StopExecution. A session that succeeded or was stopped
// already cannot be stopped.
func Stop(ctx context.Context, store Checkpointer, id, errName, cause string) error {
	return update(ctx, store, id, func(cp *Checkpoint) (Event, error) {
		switch cp.Status {
		case StatusStopped:
			return Event{}, ErrStopped
		case StatusSucceeded:
			return Event{}, errors.New("the session succeeded; there is nothing to stop")
		}
		cp.Status, cp.Pending = StatusStopped, nil
		return NewEvent(time.Now(), KindSessionStopped, cp.Position.State, map[string]string{"error": errName, "cause": cause}), nil
	})
}

// update loads session id's checkpoint, changes it with change, and saves
// it as the next step with the event change returns; when another save
// got ahead, it starts again from the new checkpoint.
func update(ctx context.Context, store Checkpointer, id string, change func(*Checkpoint) (Event, error)) error {
	var err error
	for range saveTries {
		var cp *Checkpoint
		if cp, err = store.Load(ctx, id); err != nil {
			return err
		}
		ev, cerr := change(cp)
		if cerr != nil {
			return Err(id, cerr)
		}
		cp.Step++
		cp.Time, cp.Events = ev.Time, []Event{ev}
		if err = store.Save(ctx, cp); !errors.Is(err, ErrOvertaken) {
			return err
		}
	}
	return err
}

// RecordAnswer records a in the stop of cp that key names, in place, and
// returns the event that says so, at now; the caller saves cp. Answer
// does both; a workflow's Decide does too, and then runs.
func RecordAnswer(cp *Checkpoint, key string, a AnswerInput, now time.Time) (Event, error) {
	if a.Door == "" {
		a.Door = DoorGo
	}
	if p, err := cp.pendingAt(key); p != nil || err != nil {
		if err != nil {
			return Event{}, err
		}
		if err := p.Check(a.Decision); err != nil {
			return Event{}, err
		}
		p.Answer = &Answered{Decision: a.Decision, Door: a.Door}
		if cp.Pending != nil && cp.Pending.StopKey() == p.StopKey() {
			cp.Pending.Answer = p.Answer
		}
		return NewEvent(now, KindAnswerReceived, p.StopKey(), map[string]string{"decision": a.Decision, "door": a.Door}), nil
	}
	w, wkey := cp.tokenAt(key)
	if w == nil {
		return Event{}, fmt.Errorf("no stop %q waits for an answer; the stops that wait are %s", key, quoteKeys(Stops(cp)))
	}
	if w.Answer != nil {
		return Event{}, fmt.Errorf("%w: the task token of stop %q has an answer", ErrAlreadyAnswered, wkey)
	}
	ans, fields := tokenAnswer(a)
	if ans.Output != nil && !json.Valid(ans.Output) {
		return Event{}, errors.New("the output of a task token's success is not JSON")
	}
	w.Answer = ans
	fields["token_hash"], fields["door"] = TokenHash(w.Token), a.Door
	return NewEvent(now, KindAnswerReceived, wkey, fields), nil
}

func tokenAnswer(a AnswerInput) (*CallbackAnswer, map[string]any) {
	if a.TaskError != "" || a.TaskCause != "" || a.TaskOutput == nil {
		return &CallbackAnswer{Failed: true, Error: a.TaskError, Cause: a.TaskCause},
			map[string]any{"outcome": "failure", "error": a.TaskError, "cause": a.TaskCause}
	}
	return &CallbackAnswer{Output: a.TaskOutput}, map[string]any{"outcome": "success", "output": a.TaskOutput}
}

// pendingAt returns the approval of cp that key names ("": the only stop,
// when it is one), nil when none does, or an error when it was answered.
func (cp *Checkpoint) pendingAt(key string) (*Pending, error) {
	ps := cp.pendings()
	if key == "" && len(ps) == 1 && len(Stops(cp)) == 1 {
		key = ps[0].StopKey()
	}
	for _, p := range ps {
		if p.StopKey() != key {
			continue
		}
		if p.Answer != nil {
			return nil, fmt.Errorf("%w: stop %q has decision %q", ErrAlreadyAnswered, key, p.Answer.Decision)
		}
		return p, nil
	}
	return nil, nil
}

// pendings are the approvals cp waits at, in place.
func (cp *Checkpoint) pendings() []*Pending {
	var out []*Pending
	if f := cp.Position.Progress(); f != nil {
		out = f.pendings(out)
	}
	if len(out) == 0 && cp.Pending != nil && cp.Status == StatusInterrupted {
		out = append(out, cp.Pending)
	}
	return out
}

func (f *FanOutProgress) pendings(out []*Pending) []*Pending {
	if f == nil {
		return out
	}
	for _, i := range sortedKeys(f.Stopped) {
		for b := f.Stopped[i]; b != nil; b = b.Child {
			if b.Pending != nil {
				out = append(out, b.Pending)
			}
			out = b.FanOut.pendings(out)
		}
	}
	return out
}

// tokenAt returns the task-token wait of cp that key names, and its key.
func (cp *Checkpoint) tokenAt(key string) (*CallbackWait, string) {
	keys, waits := cp.Position.FanOutTokens()
	if w := cp.Position.Callback; w != nil {
		keys, waits = append(keys, w.State), append(waits, w)
	}
	if key == "" && len(waits) == 1 && len(cp.pendings()) == 0 {
		return waits[0], keys[0]
	}
	if i := slices.Index(keys, key); i >= 0 {
		return waits[i], key
	}
	return nil, ""
}

// Check reports a decision that is not one of p's options; without
// options any decision goes.
func (p *Pending) Check(decision string) error {
	if len(p.Options) == 0 || slices.Contains(p.Options, decision) {
		return nil
	}
	return fmt.Errorf("approval decision %q is not one of the options %s of state %q", decision, quoteAll(p.Options), p.State)
}

func quoteKeys(stops []StopInfo) string {
	if len(stops) == 0 {
		return "none"
	}
	keys := make([]string, len(stops))
	for i, s := range stops {
		keys[i] = s.Key
	}
	return quoteAll(keys)
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, ", ")
}
