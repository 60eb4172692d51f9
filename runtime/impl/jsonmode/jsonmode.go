package jsonmode

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/flowc-dev/flowc/runtime/jinja"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// JSON mode (the CodeMie semantics) runs workflows that have no
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
	// History is the message history. Each task state adds its output as
	// an "assistant" message, the first state of an iteration's item the
	// item before it, as CodeMie's base_node.py does (the task is not
	// recorded).
	History impl.Messages
	// Input is the task input, which {{task}} renders and handlers get as
	// JSONCall.Input: the run's input, or in an iteration chain the item.
	Input any
	// UserInput is the run's input as given, CodeMie's user_input, which
	// its transform_node may read.
	UserInput any `json:",omitempty"`
	// Executed are the states run so far, kept only when a workflow's
	// state_processor_node reads them (JSONSettings.KeepStates).
	Executed []executedState `json:",omitempty"`

	// Steps counts the states run so far, for the recursion limit.
	Steps int

	// branch is set in a fan-out branch or item: what Join takes from it.
	branch *branchLog
	// session, when the run is a session's, answers interrupt_before with
	// the decision a resumed session was given.
	session *impl.Session
	// iterating is set in an iteration chain, where Input is the item.
	iterating bool
	// itemPending is set until the first state of an item's chain ran:
	// that state records the item in the history.
	itemPending bool
}

// branchLog is what a branch or item did that its fan-out merges.
type branchLog struct {
	wrote   map[string]any // the keys it set in the context store, last value, or deleted{}
	from    int            // where its own messages start in History
	ran     int            // where its own states start in Executed
	cleared bool           // it cleared the history it started with
}

// NewJSONState starts a run on input, any value that encodes as JSON. The
// keys of an object are the initial context store; the input, whatever it
// is, is the task input.
func NewJSONState(input any) (JSONState, error) {
	in, err := impl.JSONValue(input)
	if err != nil {
		return JSONState{Context: map[string]any{}}, fmt.Errorf("%w: %v", impl.ErrInput, err)
	}
	raw := in
	// Text input is parsed as an output is: JSON in it gives the store.
	if text, isText := in.(string); isText {
		if v, ok := parseStructured(text); ok {
			in = v
		}
	}
	store, ok := in.(map[string]any)
	if !ok {
		store = map[string]any{}
	}
	// The store changes during the run; the task input must not.
	return JSONState{Context: maps.Clone(store), Input: in, UserInput: raw, History: userMessage(raw)}, nil
}

// userMessage is how a CodeMie run's history starts: its user input as the
// user's message (workflow.py on_workflow_start), none when there is no
// input. Input that is not text is the JSON a user would have typed.
func userMessage(input any) impl.Messages {
	if m, isObject := input.(map[string]any); isObject && len(m) == 0 {
		return nil
	}
	text := userInputText(input)
	if text == "" {
		return nil
	}
	return impl.Messages{{Role: "user", Content: text}}
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
// JSONCall is what a JSON-mode handler receives. The handler owns it:
// Input, Context, ToolArgs, Args and History are copies. Assistant, Tool,
// CustomNode and OutputSchema are the workflow's own configuration, shared
// by every call: read them, do not change them.
type JSONCall struct {
	// State is the id of the running state.
	State string
	// Task is the state's task, rendered; "" when it has none.
	Task string
	// ToolArgs are the state's tool_args (the tool's own, overridden by the
	// state's), rendered, each as text: a structured value as its JSON.
	// Nil when it has none.
	ToolArgs map[string]string
	// Args are the same tool_args as JSON values, their strings rendered.
	Args map[string]any
	// Input is the task input: the item in an iteration chain, else the
	// run's input.
	Input any
	// Context is the context store.
	Context map[string]any
	// History is the message history so far.
	History impl.Messages

	// Assistant is the assistant of an assistant_id state, when the
	// workflow defines it under `assistants:`.
	Assistant *JSONAssistant
	// SystemPrompt is the assistant's system prompt, rendered from the
	// context store when the state sets resolve_dynamic_values_in_prompt.
	SystemPrompt string
	// Tool is the tool of a tool_id state, when the workflow defines it
	// under `tools:`.
	Tool *JSONTool
	// CustomNode is the node of a custom_node_id state.
	CustomNode *JSONCustomNode
	// MCPServers are the state's own mcp_servers, beside its assistant's.
	MCPServers []MCPServer
	// OutputSchema is the state's output_schema: the output must match it.
	OutputSchema *JSONSchema
}

// JSONHandler is the shape of every JSON-mode handler: it returns its
// output as text, which is parsed as JSON when it can be.
type JSONHandler func(ctx context.Context, call JSONCall) (string, error)

// Piece is one part of a task or tool_args template: literal Text or, when
// Ref is set, the reference {{Ref}}, written as Text. Ref is a path (see
// lookup): `task` renders the task input, any other name the context
// store's value; Text as written renders when the store has no such value,
// as a text replacement would leave it. A string renders as it is, any
// other value as its JSON.
type Piece struct {
	Text string
	Ref  string
}

// JSONArg is one tool_args entry: its name and template, or for a value
// that is not a string, JSON, whose strings are rendered as templates.
type JSONArg struct {
	Name  string
	Value []Piece
	JSON  any
}

// JSONTask is a task state of a JSON-mode workflow, as generated code
// declares it.
type JSONTask struct {
	// Policy holds the state id (State) and its timeout and retry rules.
	impl.Policy
	Task     []Piece
	ToolArgs []JSONArg

	// Next holds the context-management flags of the state's `next`.
	Next JSONNext
	// Settings are the workflow's; nil for none.
	Settings *JSONSettings

	Assistant  *JSONAssistant
	Tool       *JSONTool
	CustomNode *JSONCustomNode
	// MCPServers are the state's own mcp_servers.
	MCPServers []MCPServer
	// SystemPrompt is the assistant's system prompt, parsed.
	SystemPrompt []Piece
	// Resolve (resolve_dynamic_values_in_prompt) renders the task and the
	// system prompt as Jinja2 templates (see renderPrompt).
	Resolve bool
	// HumanMessage (result_as_human_message) records the output in the
	// history as a "user" message.
	HumanMessage bool
	// OutputSchema (output_schema) is checked against the parsed output.
	OutputSchema *JSONSchema
	// InterruptBefore (interrupt_before) asks to continue before the state
	// runs (see confirm).
	InterruptBefore bool
	// CurrentTask is set on an agent state that an iteration sends items
	// to: its task ends with "Current task: " and the item (see taskText).
	CurrentTask bool
	// Meta holds the visual editor's ids of the state's `next`.
	Meta JSONMeta
}

// JSONMeta are the ids CodeMie's visual editor gives the iterator and
// switch nodes it draws (meta_iter_state_id, meta_next_state_id); they
// change nothing in a run.
type JSONMeta struct {
	IterStateID string
	NextStateID string
}

// JSONOutput is what a task state's handler returned: Text as returned,
// and Value, Text parsed (see parseStructured), or Text itself when it does
// not parse.
type JSONOutput struct {
	Text  string
	Value any
}

// Do runs task state t: it asks to continue when the state interrupts
// before it runs, checks the recursion limit, summarizes a long history,
// renders the task and tool_args, calls h under t's timeout and retry
// rules, and on success records the output as t.Next says. On failure s is
// unchanged but for its step count (and its Executed states), and the
// error of the last attempt is returned. h is nil for a custom node that
// the runtime runs itself (codemie_nodes.go). handlers, when not nil, may
// answer interruptions (Approver) and summarize the history (Summarizer).
func (s *JSONState) Do(ctx context.Context, cfg *impl.Config, t *JSONTask, h JSONHandler, handlers ...any) (JSONOutput, error) {
	if cfg.StateContext {
		ctx = impl.WithState(ctx, t.State)
	}
	s.entered(ctx, cfg)
	var hs any
	if len(handlers) > 0 {
		hs = handlers[0]
	}
	if err := s.confirm(ctx, t, hs); err != nil {
		return JSONOutput{}, err
	}
	if err := s.step(t.Settings, t.State); err != nil {
		return JSONOutput{}, err
	}
	// Only an assistant's state summarizes first (agent_node.py,
	// before_execution): tools and custom nodes read the history as it is.
	if t.Tool == nil && t.CustomNode == nil {
		if err := s.summarize(ctx, t.Settings, hs); err != nil {
			return JSONOutput{}, err
		}
	}
	task := s.taskText(t)
	call := s.newCall(t, task)
	h = s.builtinHandler(t, h)
	if h == nil {
		return JSONOutput{}, &impl.Error{Name: impl.ErrTaskFailed, Cause: fmt.Sprintf("state %q has no handler", t.State)}
	}
	var out JSONOutput
	err := impl.Call(ctx, cfg, &t.Policy, func(ctx context.Context) error {
		// Each attempt gets fresh copies: an earlier one may have changed its own.
		text, err := h(ctx, call.clone())
		if err == nil {
			out, err = s.output(t, text)
		}
		return err
	})
	s.recordState(t, task, out.Text, err)
	firstOfItem := s.itemPending
	s.itemPending = false
	if err != nil {
		return JSONOutput{}, err
	}
	s.record(&t.Next, t.HumanMessage, firstOfItem, out.Text)
	s.store(&t.Next, out)
	s.succeeded(ctx, cfg)
	return out, nil
}

// output parses a handler's text. A tool's response may first have its
// references rendered and be cut down to its result pointer; the output
// must then match the state's schema.
func (s *JSONState) output(t *JSONTask, text string) (JSONOutput, error) {
	out := parseOutput(text)
	if tool := t.Tool; tool != nil && tool.ResultPointer != "" {
		var err error
		if out, err = pointAt(out, tool.ResultPointer); err != nil {
			return JSONOutput{}, err
		}
	}
	// tool_node.py, post_process_output: the part the pointer keeps, when it
	// is text, is then rendered as process_string renders a prompt.
	if tool := t.Tool; tool != nil && tool.ResolveResponse {
		if text, ok := out.Value.(string); ok {
			out = parseOutput(jinja.Resolve(text, s.templateStore()))
		}
	}
	if err := t.OutputSchema.Check(out.Value); err != nil {
		return JSONOutput{}, err
	}
	return out, nil
}

func (s *JSONState) newCall(t *JSONTask, task string) JSONCall {
	c := JSONCall{
		State:        t.State,
		Task:         task,
		Input:        s.Input,
		Context:      s.Context,
		History:      s.History,
		Assistant:    t.Assistant,
		Tool:         t.Tool,
		CustomNode:   t.CustomNode,
		MCPServers:   t.MCPServers,
		OutputSchema: t.OutputSchema,
	}
	c.ToolArgs, c.Args = s.renderArgs(t.ToolArgs, t.Tool)
	if t.Assistant != nil {
		c.SystemPrompt = t.Assistant.SystemPrompt
		if t.Resolve {
			c.SystemPrompt = s.renderPrompt(t.SystemPrompt, true)
		}
	}
	return c
}

// clone gives a handler its own copies of what it may change.
func (c JSONCall) clone() JSONCall {
	c.ToolArgs = maps.Clone(c.ToolArgs)
	if c.Args != nil {
		c.Args = impl.CloneVars(c.Args)
	}
	c.Input = impl.CloneValue(c.Input)
	c.Context = impl.CloneVars(c.Context)
	c.History = slices.Clone(c.History)
	return c
}

// parseOutput parses a handler's output (see parseStructured); text that does
// not parse is a string value.
func parseOutput(text string) JSONOutput {
	if v, ok := parseStructured(text); ok {
		return JSONOutput{Text: text, Value: v}
	}
	return JSONOutput{Text: text, Value: text}
}

// renderArgs renders a tool state's arguments as CodeMie's tool node does
// (tool_node.py, _get_tool_args): through process_values (runtime/jinja,
// ResolveValues) over the context store, or the object at the tool's
// input_key, with an iteration's object item's keys and `task`, the item;
// arguments that come out None are left out, as the tool node drops them.
func (s *JSONState) renderArgs(args []JSONArg, tool *JSONTool) (map[string]string, map[string]any) {
	if len(args) == 0 {
		return nil, nil
	}
	source := make(map[string]any, len(args))
	for _, a := range args {
		source[a.Name] = a.JSON
		if a.JSON == nil {
			source[a.Name] = templateText(a.Value)
		}
	}
	values := jinja.ResolveValues(source, s.argStore(tool))
	text := make(map[string]string, len(values))
	for k, v := range values {
		if v == nil {
			delete(values, k)
			continue
		}
		text[k], _ = impl.ValueText(v) // plain JSON values always encode
	}
	return text, values
}
