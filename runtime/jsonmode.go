package runtime

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// JSON mode (SPEC §3, the CodeMie semantics) runs workflows that have no
// state schema over a context store of plain JSON values (nil, bool,
// string, json.Number, []any, map[string]any) and a message history. A
// task state renders its task and tool_args from the store, calls its
// handler, and parses the text the handler returns as JSON when it can:
// an object's keys are merged into the store, and the parsed value is what
// the state's transition tests.
//
// A value is never changed in place once the store holds it: merging
// replaces keys, and handlers get copies. So the branches and items of a
// fan-out start from shallow copies of the store and share its values.

// JSONState is where a JSON-mode run stands.
type JSONState struct {
	// Context is the context store.
	Context map[string]any
	// History is the message history. Each task state adds its rendered
	// task as a "user" message (when the task is not empty) and then its
	// handler's output as an "assistant" message.
	History Messages
	// Input is the task input, which {{task}} renders and handlers get as
	// JSONCall.Input: the run's input, or in an iteration chain the item.
	Input any

	// branch is set in a fan-out branch or item: what Join takes from it.
	branch *branchLog
}

// branchLog is what a branch or item did that its fan-out merges.
type branchLog struct {
	wrote map[string]any // the keys it set in the context store, last value
	from  int            // where its own messages start in History
}

// NewJSONState starts a run on input, any value that encodes as JSON. The
// keys of an object are the initial context store; the input, whatever it
// is, is the task input.
func NewJSONState(input any) (JSONState, error) {
	in, err := JSONValue(input)
	if err != nil {
		return JSONState{Context: map[string]any{}}, fmt.Errorf("%w: %v", errInput, err)
	}
	store, ok := in.(map[string]any)
	if !ok {
		store = map[string]any{}
	}
	// The store changes during the run; the task input must not.
	return JSONState{Context: maps.Clone(store), Input: in}, nil
}

// set stores a value in the context store, noting it for the join when s
// is a branch.
func (s *JSONState) set(key string, v any) {
	if s.Context == nil {
		s.Context = map[string]any{}
	}
	s.Context[key] = v
	if s.branch != nil {
		s.branch.wrote[key] = v
	}
}

// JSONCall is what a JSON-mode handler receives. The handler owns it:
// Input, Context, ToolArgs and History are copies.
type JSONCall struct {
	// State is the id of the running state.
	State string
	// Task is the state's task, rendered; "" when it has none.
	Task string
	// ToolArgs are the state's tool_args, rendered; nil when it has none.
	ToolArgs map[string]string
	// Input is the task input: the item in an iteration chain, else the
	// run's input.
	Input any
	// Context is the context store.
	Context map[string]any
	// History is the message history so far.
	History Messages
}

// JSONHandler is the shape of every JSON-mode handler: it returns its
// output as text, which is parsed as JSON when it can be.
type JSONHandler func(ctx context.Context, call JSONCall) (string, error)

// Piece is one part of a task or tool_args template: literal Text or, when
// Ref is set, the reference {{Ref}}, written as Text. `task` renders the
// task input; any other name the context store's value, or Text as written
// when the store has no such key, as a text replacement would leave it. A
// string renders as it is, any other value as its JSON.
type Piece struct {
	Text string
	Ref  string
}

// JSONArg is one tool_args entry: its name and template.
type JSONArg struct {
	Name  string
	Value []Piece
}

// JSONTask is a task state of a JSON-mode workflow, as generated code
// declares it.
type JSONTask struct {
	// Policy holds the state id (State) and its timeout and retry rules.
	Policy
	Task     []Piece
	ToolArgs []JSONArg
}

// JSONOutput is what a task state's handler returned: Text as returned,
// and Value, Text parsed as JSON, or Text itself when it is not JSON.
type JSONOutput struct {
	Text  string
	Value any
}

// Do runs task state t: it renders its task and tool_args, calls h under
// t's timeout and retry rules, and on success records the output: the
// messages go to the history, an object's keys into the context store. On
// failure s is unchanged and the error of the last attempt is returned.
func (s *JSONState) Do(ctx context.Context, cfg *Config, t *JSONTask, h JSONHandler) (JSONOutput, error) {
	if cfg.StateContext {
		ctx = WithState(ctx, t.State)
	}
	task, args := s.render(t.Task), s.renderArgs(t.ToolArgs)
	var text string
	err := Call(ctx, cfg, &t.Policy, func(ctx context.Context) error {
		var err error
		// Each attempt gets fresh copies: an earlier one may have changed its own.
		text, err = h(ctx, s.call(t.State, task, args))
		return err
	})
	if err != nil {
		return JSONOutput{}, err
	}
	out := parseOutput(text)
	if task != "" {
		s.History = append(s.History, Message{Role: "user", Content: task})
	}
	s.History = append(s.History, Message{Role: "assistant", Content: text})
	if obj, ok := out.Value.(map[string]any); ok {
		for k, v := range obj {
			s.set(k, v)
		}
	}
	return out, nil
}

func (s *JSONState) call(state, task string, args map[string]string) JSONCall {
	return JSONCall{
		State:    state,
		Task:     task,
		ToolArgs: maps.Clone(args),
		Input:    cloneValue(s.Input),
		Context:  cloneVars(s.Context),
		History:  slices.Clone(s.History),
	}
}

// parseOutput parses a handler's output as one JSON value, numbers as
// json.Number; text that is not JSON is a string value.
func parseOutput(text string) JSONOutput {
	if v, err := decodeValue([]byte(text)); err == nil {
		return JSONOutput{Text: text, Value: v}
	}
	return JSONOutput{Text: text, Value: text}
}

func (s *JSONState) render(pieces []Piece) string {
	var b strings.Builder
	for _, p := range pieces {
		v, ok := s.lookup(p.Ref)
		if !ok {
			b.WriteString(p.Text)
			continue
		}
		// Plain JSON values always encode.
		text, _ := valueText(v)
		b.WriteString(text)
	}
	return b.String()
}

// lookup resolves a template reference; false for literal text and for a
// name the store does not have.
func (s *JSONState) lookup(ref string) (any, bool) {
	switch ref {
	case "":
		return nil, false
	case "task":
		return s.Input, true
	}
	v, ok := s.Context[ref]
	return v, ok
}

func (s *JSONState) renderArgs(args []JSONArg) map[string]string {
	if len(args) == 0 {
		return nil
	}
	out := make(map[string]string, len(args))
	for _, a := range args {
		out[a.Name] = s.render(a.Value)
	}
	return out
}
