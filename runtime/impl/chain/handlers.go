package chain

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// The documented handlers each get the call they need. The generated
// Handlers interface names these types, and the adapters below turn a typed
// method into the ChainHandler that RunTask calls.

// LLMCall is the call of a chat_completion, prompt_to_string or
// prompt_to_int task: what the model is asked, and with which settings.
type LLMCall struct {
	ChainCall
	// System is the task's system_instruction, its macros expanded.
	System string
	// Messages is the chat history the model continues: the rendered
	// prompt as a user message when the task has a prompt_template, else
	// the input (a string becomes one user message).
	Messages impl.Messages
	// Config is the task's execute_config, its macros expanded.
	Config ExecuteConfig
}

// RouteCall is the call of a route task: the model picks one of Labels.
type RouteCall struct {
	LLMCall
	Labels []string
}

// ConditionCall is the call of a condition_key task: the model says whether
// the input meets one of Conditions.
type ConditionCall struct {
	LLMCall
	Conditions []string
}

// ToolCallsCall is the call of an execute_tool_calls task: run the tool
// calls that the last assistant message of Messages asks for.
type ToolCallsCall struct {
	ChainCall
	Messages impl.Messages
	Config   ExecuteConfig
}

// ToolCall is the call of a tools (or hook) task: call Tool of provider
// Name directly with Args.
type ToolCall struct {
	ChainCall
	Name   string
	Tool   string
	Args   map[string]string
	Config ExecuteConfig
}

func llmCall(c ChainCall) LLMCall {
	return LLMCall{ChainCall: c, System: c.system, Messages: c.history(), Config: c.exec}
}

// history is the prompt, or else the input, as a chat history.
func (c ChainCall) history() impl.Messages {
	if c.task != nil && c.task.Prompt != nil {
		return impl.Messages{{Role: "user", Content: c.Prompt}}
	}
	v := c.Input
	if m, ok := v.(map[string]any); ok && isChatHistory(m["messages"]) {
		v = m["messages"]
	}
	if h, ok := ChatHistory(v); ok {
		return h
	}
	text, _ := impl.ValueText(v)
	return impl.Messages{{Role: "user", Content: text}}
}

// ChatHandler adapts a chat_completion method. An empty Eval becomes
// "tool_call" when the output's last message asks for tools, else
// "executed".
func ChatHandler(h func(context.Context, LLMCall) (ChainResult, error)) ChainHandler {
	return func(ctx context.Context, c ChainCall) (ChainResult, error) { return h(ctx, llmCall(c)) }
}

// ToolCallsHandler adapts an execute_tool_calls method. An empty Eval
// becomes "noop" for an empty history, "no_calls_found" when its last
// message asks for no tools, else "tools_executed".
func ToolCallsHandler(h func(context.Context, ToolCallsCall) (ChainResult, error)) ChainHandler {
	return func(ctx context.Context, c ChainCall) (ChainResult, error) {
		r, err := h(ctx, ToolCallsCall{ChainCall: c, Messages: c.history(), Config: c.exec})
		if err == nil && r.Eval == "" {
			switch hist, _ := ChatHistory(c.Input); {
			case len(hist) == 0 && isChatHistory(c.Input):
				r.Eval = evalNoop
			case !hasToolCalls(c.Input):
				r.Eval = evalNoCallsFound
			}
		}
		return r, err
	}
}

// ToolsHandler adapts a tools or hook method. Its Output is the tool's
// result; an empty Eval becomes "tools_executed", and an output_template
// replaces both by its rendering over the result.
func ToolsHandler(h func(context.Context, ToolCall) (ChainResult, error)) ChainHandler {
	return func(ctx context.Context, c ChainCall) (ChainResult, error) {
		call := ToolCall{ChainCall: c, Config: c.exec}
		if t := c.task.Tools; t != nil {
			call.Name, call.Tool, call.Args = t.Name, t.ToolName, cloneStrings(t.Args)
		}
		return h(ctx, call)
	}
}

// RouteHandler adapts a route method, which returns the model's answer.
// flowc normalizes it to a label (SelectRoute); the output is the input,
// unchanged.
func RouteHandler(h func(context.Context, RouteCall) (string, error)) ChainHandler {
	return func(ctx context.Context, c ChainCall) (ChainResult, error) {
		call := RouteCall{LLMCall: llmCall(c), Labels: append([]string(nil), c.task.Labels...)}
		call.System = routeInstruction(call.System, call.Labels)
		answer, err := h(ctx, call)
		if err != nil {
			return ChainResult{}, err
		}
		return ChainResult{Output: c.Input, Eval: SelectRoute(answer, call.Labels)}, nil
	}
}

// routeInstruction appends the labels to the system instruction.
func routeInstruction(system string, labels []string) string {
	if system != "" {
		system += "\n\n"
	}
	return system + "Respond with exactly one of the following labels and nothing else: " + strings.Join(labels, ", ")
}

// SelectRoute normalizes a model's answer to one of labels: a label equal
// to the answer ignoring case and surrounding space, else the first label
// the answer contains ignoring case, else the answer itself, which only a
// default branch then takes.
func SelectRoute(answer string, labels []string) string {
	chosen := strings.TrimSpace(answer)
	for _, l := range labels {
		if strings.EqualFold(chosen, l) {
			return l
		}
	}
	lower := strings.ToLower(chosen)
	for _, l := range labels {
		if strings.Contains(lower, strings.ToLower(l)) {
			return l
		}
	}
	return chosen
}

// ConditionHandler adapts a condition_key method: its answer is the output,
// and "true" or "false" the eval.
func ConditionHandler(h func(context.Context, ConditionCall) (bool, error)) ChainHandler {
	return func(ctx context.Context, c ChainCall) (ChainResult, error) {
		ok, err := h(ctx, ConditionCall{LLMCall: llmCall(c), Conditions: append([]string(nil), c.task.Conds...)})
		return ChainResult{Output: ok, Eval: strconv.FormatBool(ok)}, err
	}
}

// PromptStringHandler adapts a prompt_to_string method that asks a model:
// the answer is the output and the eval.
func PromptStringHandler(h func(context.Context, LLMCall) (string, error)) ChainHandler {
	return func(ctx context.Context, c ChainCall) (ChainResult, error) {
		text, err := h(ctx, llmCall(c))
		return ChainResult{Output: text, Eval: text}, err
	}
}

// PromptIntHandler adapts a prompt_to_int method that asks a model: the
// answer is the output, a JSON number, and its decimal text the eval.
func PromptIntHandler(h func(context.Context, LLMCall) (int, error)) ChainHandler {
	return func(ctx context.Context, c ChainCall) (ChainResult, error) {
		n, err := h(ctx, llmCall(c))
		text := strconv.Itoa(n)
		return ChainResult{Output: json.Number(text), Eval: text}, err
	}
}

func cloneStrings(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
