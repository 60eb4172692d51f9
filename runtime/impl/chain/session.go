package chain

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// Sessions of task chains. Between two tasks a chain's run is its
// ChainState and the task to run next: what contenox's ExecEnv
// (runtime/taskengine/taskenv.go) carries from one pass of its loop to the
// next (currentTask; vars, which hold the input, previous_output, each
// task's output and error and the composed variables; edgeCounts). A
// session's run saves all of it after every task, so that a resumed run
// goes on at the next task and no task that had finished runs again.

// chainCheckpoint is a ChainState as a checkpoint saves it: every field,
// where ChainState's own JSON is the result line's output and variables.
type chainCheckpoint struct {
	Output  any            `json:"output"`
	Input   any            `json:"input"`
	Vars    map[string]any `json:"vars"`
	Results map[string]any `json:"results,omitempty"`
	Edges   map[string]int `json:"edges,omitempty"`
	// Over: the run had finished, so the session's next run is a new one.
	Over bool `json:"over,omitempty"`
}

// FreshChainState is the state of a new session before its input is
// merged: a run yet to start, on {} as a run without input is.
func FreshChainState() ChainState {
	return ChainState{Output: map[string]any{}, Input: map[string]any{}, Vars: map[string]any{}, over: true}
}

// DecodeChainState reads a chain's state from a checkpoint, numbers as
// json.Number as every chain value is held, refusing fields it does not
// know.
func DecodeChainState(data []byte) (ChainState, error) {
	var c chainCheckpoint
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return ChainState{}, err
	}
	if c.Vars == nil {
		c.Vars = map[string]any{}
	}
	return ChainState{Output: c.Output, Input: c.Input, Vars: c.Vars, Results: c.Results, Edges: c.Edges, over: c.Over}, nil
}

// ChainSessionInput brings the input given to a chain's Invoke into chain
// values; nil stays nil, which leaves the session's input as it was.
func ChainSessionInput(input any) (*any, error) {
	if input == nil {
		return nil, nil
	}
	in, err := impl.JSONValue(input)
	if err != nil {
		return nil, fmt.Errorf("chain input: %w", err)
	}
	return &in, nil
}

// MergeChainInput gives a session the input of its run: it becomes the
// chain's input ({{.input}}). A new run (of a new session, or of one whose
// last run finished) starts on it; an unfinished run's next task keeps the
// input it had, so that resuming a session with the input it started with
// changes nothing. A new run's output is the input already, as Attach
// makes it, so that the history records the run starting on it.
func MergeChainInput(s *ChainState, in any) {
	s.Input = in
	if s.over {
		s.Output = in
	}
}

// Attach makes a session's run of s save a checkpoint through sess after
// every task (see Save). A state whose run had finished starts a new run,
// as each run of contenox's ExecEnv starts: on the chain's input, with no
// task outputs and no edges taken. The composed variables are kept: they
// are the session's memory from one run to the next.
func (s *ChainState) Attach(sess *impl.Session) {
	s.session = sess
	if s.over {
		s.Output, s.Results, s.Edges, s.over = s.Input, nil, nil, false
	}
}

// Save records the outcome of a task in a session's run: without an
// error, a checkpoint that the run goes on at task next ("" once the chain
// is over) with s. An error saves nothing and is returned, so that resuming
// runs the failed task again, from the state before it. A run that is not a
// session's saves nothing.
func (s *ChainState) Save(ctx context.Context, next string, err error) error {
	if s.session == nil || err != nil {
		return err
	}
	return s.session.Save(ctx, next, chainCheckpoint{
		Output: s.Output, Input: s.Input, Vars: s.Vars, Results: s.Results, Edges: s.Edges, Over: next == "",
	}, nil)
}
