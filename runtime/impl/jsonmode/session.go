package jsonmode

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// JSON-mode sessions. Between top-level states a run is its JSONState:
// the context store, history, task input and step count, saved as JSON at
// every checkpoint, so that an interrupt_before can wait for a person and
// the session go on when Decide answers it.

// FreshJSONState is the state of a new session before its input is merged.
func FreshJSONState() JSONState { return JSONState{Context: map[string]any{}} }

// DecodeJSONState reads a saved JSONState, numbers as json.Number,
// refusing fields it does not know.
func DecodeJSONState(data []byte) (JSONState, error) {
	var s JSONState
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return JSONState{}, err
	}
	if s.Context == nil {
		s.Context = map[string]any{}
	}
	return s, nil
}

// MergeJSONInput merges the input given to a session's run into its state
// as a run takes its input: an object's keys (text is parsed first) into
// the context store; the input becomes the task input.
func MergeJSONInput(s *JSONState, input any) {
	fresh, err := NewJSONState(input)
	if err != nil {
		return // decoded JSON, as sessions get, always converts
	}
	for k, v := range fresh.Context {
		s.set(k, v)
	}
	s.Input, s.UserInput = fresh.Input, fresh.UserInput
	// A resumed run's input is a new user message (workflow.py
	// _inject_resume_input).
	s.History = append(s.History, fresh.History...)
}

// Attach makes s ask for decisions through sess, which holds the one
// Decide gave a resumed session.
func (s *JSONState) Attach(sess *impl.Session) { s.session = sess }

// A JSON-mode fan-out in a session's run: an item or branch whose state
// interrupts before it runs stops there while the others go on (impl's
// checkpoint_stops.go and FanOutSaved); its copy of the store and history,
// with what its fan-out will merge of it, is saved with the stop, and a
// finished one's with its result. Resumed, the fan-out takes its items
// from the saved output of the state that opened it, restores the finished
// ones, starts the stopped ones at their state, and runs the rest.

// branchState is a branch's JSONState as a checkpoint holds it: with what
// Join takes from it, which a JSONState alone does not encode.
type branchState struct {
	State     JSONState      `json:"state"`
	Wrote     map[string]any `json:"wrote,omitempty"`
	Deleted   []string       `json:"deleted,omitempty"`
	From      int            `json:"from"`
	Cleared   bool           `json:"cleared,omitempty"`
	Iterating bool           `json:"iterating,omitempty"`
}

func encodeBranch(s *JSONState) (json.RawMessage, error) {
	if s.branch == nil {
		return json.Marshal(s) // the top-level state
	}
	b := branchState{State: *s, Wrote: map[string]any{}, From: s.branch.from, Cleared: s.branch.cleared, Iterating: s.iterating}
	for k, v := range s.branch.wrote {
		if v == (deleted{}) {
			b.Deleted = append(b.Deleted, k)
		} else {
			b.Wrote[k] = v
		}
	}
	slices.Sort(b.Deleted)
	return json.Marshal(b)
}

func decodeBranch(data []byte, into *JSONState) error {
	var b branchState
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		return err
	}
	if b.State.Context == nil {
		b.State.Context = map[string]any{}
	}
	if b.Wrote == nil {
		b.Wrote = map[string]any{}
	}
	for _, k := range b.Deleted {
		b.Wrote[k] = deleted{}
	}
	*into = b.State
	into.branch = &branchLog{wrote: b.Wrote, from: b.From, cleared: b.Cleared}
	into.iterating = b.Iterating
	return nil
}

// ResumeFanOut returns the saved output of state, which opens a fan-out,
// when the run resumes inside that fan-out: the state has run, and the
// generated code goes straight to its fan-out. An output that does not
// decode is none: the state runs again.
func (s *JSONState) ResumeFanOut(ctx context.Context, state string) (JSONOutput, bool) {
	raw, ok := impl.SavedOutput(ctx, s.session, state)
	if !ok {
		return JSONOutput{}, false
	}
	var saved struct {
		Text  string
		Value json.RawMessage
	}
	if err := json.Unmarshal(raw, &saved); err != nil {
		return JSONOutput{}, false
	}
	v, err := impl.DecodeValue(saved.Value)
	if err != nil {
		return JSONOutput{}, false
	}
	return JSONOutput{Text: saved.Text, Value: v}, true
}

// FanOutStops runs the branches or items of a JSON-mode fan-out that
// state opens on s, as FanOut does: run(ctx, i, step) runs branch i from
// step, entry(i) without a checkpoint to say otherwise; ids are the ids of
// the steps. out is the output of state, saved for a resumed run. Without
// a session it is FanOut. With one, a branch that stops for a decision is
// no failure: once every branch has finished or stopped, it returns the
// *Interrupted of them all, and the checkpoint holds s as it was before
// the branches ran.
func FanOutStops[T ~int](ctx context.Context, s *JSONState, state string, out JSONOutput, branches []JSONState, limit int,
	ids []string, entry func(i int) T, run func(ctx context.Context, i int, step T) error) error {
	return impl.FanOutSaved(impl.ReportsRunData(ctx), s.session, state, impl.SavedBranches[T]{
		N: len(branches), Limit: limit, IDs: ids, Entry: entry,
		Opened: func() (json.RawMessage, json.RawMessage, error) {
			start, err := encodeBranch(s)
			if err != nil {
				return nil, nil, err
			}
			output, err := json.Marshal(out)
			return start, output, err
		},
		Attach: func(i int) { branches[i].session = s.session },
		Save:   func(i int) (json.RawMessage, error) { return encodeBranch(&branches[i]) },
		Load:   func(i int, data []byte) error { return decodeBranch(data, &branches[i]) },
		Run:    run,
	})
}
