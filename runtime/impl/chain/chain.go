package chain

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// Task chains (contenox's semantics) run over plain JSON values: nil, bool, string,
// json.Number, []any and map[string]any. Everything a handler returns is
// brought into that form, so compose strategies and eval strings see the
// same values whether they came from Go code, a mock or an input file, and
// numbers keep their exact text.

// ChainCall is what a task-chain handler receives. The handler owns it:
// Input and Vars are copies, so changing them cannot change the chain.
type ChainCall struct {
	// Task is the id of the running task.
	Task string
	// Input is the task's input: the chain's input for the first task, the
	// previous task's output otherwise.
	Input any
	// Prompt is the task's prompt_template rendered against the chain
	// variables, or "" when the task has none.
	Prompt string
	// Vars are the chain variables, as the branches' compose set them.
	Vars map[string]any
	// Debug is the chain's `debug`: the handler may log what it does.
	Debug bool

	task   *ChainTask
	system string        // system_instruction, expanded
	exec   ExecuteConfig // execute_config, expanded
}

// History returns the chain variable name as a chat history. It returns
// false when the variable is missing or is not a chat history.
func (c ChainCall) History(name string) (impl.Messages, bool) {
	return ChatHistory(c.Vars[name])
}

// ChainResult is what a task-chain handler returns.
type ChainResult struct {
	// Output becomes the next task's input and is what compose stores. It
	// may be any value that encodes as JSON, such as a string, a map or
	// Messages.
	Output any
	// Eval is the string the task's branches test.
	Eval string
}

// ChainHandler is the shape of every task handler, built-in or not.
type ChainHandler func(ctx context.Context, call ChainCall) (ChainResult, error)

// ChainState is where a chain run stands: the output of the last task that
// succeeded (at the start, the chain's input) and the chain variables. As
// JSON it is {"output": ..., "vars": {...}}, the output `flowc run` prints.
type ChainState struct {
	Output any            `json:"output"`
	Vars   map[string]any `json:"vars"`

	// Input is the chain's input, which templates read as {{.input}}.
	Input any `json:"-"`
	// Results holds each task's last output under its id, and after a
	// failure its error text under "<id>_error" and "last_error".
	Results map[string]any `json:"-"`
	// Edges counts the traversals of each edge "from->to" in this run.
	Edges map[string]int `json:"-"`

	session *impl.Session // a session's run saves a checkpoint after every task (session.go)
	over    bool          // decoded from a finished session's checkpoint: the next run starts anew
}

// NewChainState starts a run on input, which may be any value that encodes
// as JSON. The variables start empty.
func NewChainState(input any) (ChainState, error) {
	in, err := impl.JSONValue(input)
	if err != nil {
		return ChainState{Vars: map[string]any{}}, fmt.Errorf("chain input: %w", err)
	}
	return ChainState{Output: in, Input: in, Vars: map[string]any{}}, nil
}

// Compose stores s.Output into the variable name through strategy, for the
// branch of task that was taken. The error is a *StateError naming task.
func (s *ChainState) Compose(task, name string, strategy ComposeStrategy) error {
	v, err := strategy(s.Vars[name], s.Output)
	if err != nil {
		return &impl.StateError{State: task, Err: fmt.Errorf("compose into %q: %w", name, err)}
	}
	s.Vars[name] = v
	return nil
}

// ComposeStrategy combines a variable's current value (nil when it is
// missing) with a task's output into the variable's new value. Strategies
// never modify their arguments: values may be shared with other variables.
type ComposeStrategy func(current, output any) (any, error)

// ComposeOverride replaces the variable by the output, except that two
// objects are merged, the output's keys winning.
func ComposeOverride(current, output any) (any, error) {
	cur, ok1 := current.(map[string]any)
	out, ok2 := output.(map[string]any)
	if ok1 && ok2 {
		return impl.MergeMap(cur, out), nil
	}
	return output, nil
}

// ComposeMergeChatHistories puts the output's messages before the
// variable's. A missing variable counts as an empty history.
func ComposeMergeChatHistories(current, output any) (any, error) {
	if !isChatHistory(output) {
		return nil, errors.New("merge_chat_histories: the task's output is not a chat history")
	}
	if current == nil {
		return output, nil
	}
	if !isChatHistory(current) {
		return nil, errors.New("merge_chat_histories: the variable is not a chat history")
	}
	return impl.AppendSlice(output.([]any), current.([]any)), nil
}

// ComposeAppendStringToChatHistory appends the output as an assistant
// message. A missing variable starts as an empty history; an output that is
// not a string is appended as its JSON text.
func ComposeAppendStringToChatHistory(current, output any) (any, error) {
	if current != nil && !isChatHistory(current) {
		return nil, errors.New("append_string_to_chat_history: the variable is not a chat history")
	}
	text, err := impl.ValueText(output)
	if err != nil {
		return nil, fmt.Errorf("append_string_to_chat_history: %w", err)
	}
	cur, _ := current.([]any)
	return impl.AppendSlice(cur, []any{map[string]any{"role": "assistant", "content": text}}), nil
}

// ComposeAuto is the strategy of a compose without one: chat histories are
// merged, anything else overrides.
func ComposeAuto(current, output any) (any, error) {
	if isChatHistory(current) && isChatHistory(output) {
		return ComposeMergeChatHistories(current, output)
	}
	return ComposeOverride(current, output)
}

// isChatHistory reports whether v is a list of objects that each have a
// string "role" and a string "content"; other members are allowed and kept.
func isChatHistory(v any) bool {
	list, ok := v.([]any)
	if !ok {
		return false
	}
	for _, item := range list {
		m, ok := item.(map[string]any)
		if !ok {
			return false
		}
		_, role := m["role"].(string)
		_, content := m["content"].(string)
		if !role || !content {
			return false
		}
	}
	return true
}

// ChatHistory converts a chain value to Messages, for handlers that read a
// chat history variable. It returns false when v is not a chat history.
func ChatHistory(v any) (impl.Messages, bool) {
	if !isChatHistory(v) {
		return nil, false
	}
	list := v.([]any)
	out := make(impl.Messages, len(list))
	for i, item := range list {
		m := item.(map[string]any)
		out[i] = impl.Message{Role: m["role"].(string), Content: m["content"].(string)}
	}
	return out, true
}

// ErrRaised is the name of the error of a raise_error task.
const ErrRaised = "RaiseError"

// BuiltinNoop is the noop handler: the output is the input, and the eval
// string mirrors it.
func BuiltinNoop(_ context.Context, call ChainCall) (ChainResult, error) {
	return mirror(call.Input)
}

// BuiltinRaiseError is the raise_error handler: the task fails with its
// input as the cause (the rendered prompt, when the task has one), as
// contenox's TaskExec (runtime/taskengine/taskexec.go at 0c28a698) reads
// it: a string itself, a chat history its last message, a number its
// text.
func BuiltinRaiseError(_ context.Context, call ChainCall) (ChainResult, error) {
	cause := call.Prompt
	if cause == "" {
		cause = promptText(call.Input)
	}
	if cause == "" {
		cause = fmt.Sprintf("task %q raised an error", call.Task)
	}
	return ChainResult{}, &impl.Error{Name: ErrRaised, Cause: cause}
}

// promptText reads an input as a prompt: a string itself, a number its
// text, a chat history its last message; anything else is "".
func promptText(in any) string {
	switch in := in.(type) {
	case string:
		return in
	case json.Number:
		return in.String()
	}
	if h, ok := ChatHistory(in); ok && len(h) > 0 {
		return h[len(h)-1].Content
	}
	return ""
}

// BuiltinPromptToString is the prompt_to_string handler: the output and
// the eval string are the rendered prompt.
func BuiltinPromptToString(_ context.Context, call ChainCall) (ChainResult, error) {
	return ChainResult{Output: call.Prompt, Eval: call.Prompt}, nil
}

// BuiltinPromptToInt is the prompt_to_int handler: the output is the
// rendered prompt read as a whole number (ParseChainInt), a JSON number;
// the eval string is its decimal form.
func BuiltinPromptToInt(_ context.Context, call ChainCall) (ChainResult, error) {
	n, err := ParseChainInt(call.Prompt)
	if err != nil {
		return ChainResult{}, fmt.Errorf("prompt_to_int: %w", err)
	}
	text := strconv.Itoa(n)
	return ChainResult{Output: json.Number(text), Eval: text}, nil
}

// ParseChainInt reads an answer as contenox's prompt_to_int does (number
// in runtime/taskengine/taskexec.go at 0c28a698): its number, or its first
// number ("Score: 7"), which must be whole.
func ParseChainInt(answer string) (int, error) {
	v, ok := ChainNumber(answer)
	switch {
	case !ok:
		return 0, fmt.Errorf("no number in %q", answer)
	case v != math.Trunc(v) || math.Abs(v) > 1<<53:
		return 0, fmt.Errorf("%q is not a whole number", answer)
	}
	return int(v), nil
}

// EngineSetsEval reports whether the engine gives the task's result its
// control token when the handler leaves Eval empty, as it does for the
// documented handlers that have one (chat_completion, execute_tool_calls,
// tools).
func (c ChainCall) EngineSetsEval() bool {
	return c.task != nil && controlToken(c.task.Kind, nil) != ""
}

// mirror returns v as the output, with its text as the eval string.
func mirror(v any) (ChainResult, error) {
	text, err := impl.ValueText(v)
	return ChainResult{Output: v, Eval: text}, err
}
