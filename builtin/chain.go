package builtin

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	flowcrt "github.com/flowc-dev/flowc/runtime"
	flowcchain "github.com/flowc-dev/flowc/runtime/impl/chain"
)

// request is the chat request of a contenox task: execute_config's model,
// temperature, max_tokens and the tools it allows, the system instruction,
// and the chat history.
func request(call flowcrt.LLMCall) chatRequest {
	cfg := call.Config
	return chatRequest{
		Model:       cfg.Model,
		Temperature: cfg.Temperature,
		MaxTokens:   cfg.MaxTokens,
		Tools:       tools(allowedTools(cfg.Tools, cfg.HideTools)),
		Messages:    append(messages(call.System, nil), history(call)...),
	}
}

// history is the chat history of the call. flowc's Messages keep a role
// and a content; when they are the input's own chat history, its messages
// are sent as they are, so that the model sees its tool calls and the
// results that answer them.
func history(call flowcrt.LLMCall) []message {
	out := messages("", call.Messages)
	v := call.Input
	if m, ok := v.(map[string]any); ok {
		v = m["messages"]
	}
	list, ok := v.([]any)
	if !ok || len(list) != len(out) {
		return out
	}
	raw := make([]message, len(list))
	for i, item := range list {
		b, err := json.Marshal(item)
		if err != nil || json.Unmarshal(b, &raw[i]) != nil || raw[i].Role != out[i].Role || raw[i].Content != out[i].Content {
			return out
		}
	}
	return raw
}

// allowedTools are the tools named in the allowlist: the patterns ("*",
// "!x") select from a registry the program does not have, so they declare
// nothing.
func allowedTools(allow, hide []string) []string {
	var out []string
	for _, t := range allow {
		if t != "*" && !strings.HasPrefix(t, "!") && !slices.Contains(hide, t) {
			out = append(out, t)
		}
	}
	return out
}

// complete asks the task's model, then each fallback model of
// execute_config.models in turn while the call fails.
func (c *LLM) complete(ctx context.Context, call flowcrt.LLMCall) (message, error) {
	req := request(call)
	m, err := c.chat(ctx, req)
	for _, model := range call.Config.Models {
		if err == nil || ctx.Err() != nil {
			break
		}
		req.Model = model
		m, err = c.chat(ctx, req)
	}
	return m, err
}

// ChatCompletion runs a contenox chat_completion task. As in contenox, its
// output is the chat history with the model's message appended (tool
// calls included), so that the branches see "tool_call" when the model
// asks for tools and execute_tool_calls can run them.
func (c *LLM) ChatCompletion(ctx context.Context, call flowcrt.LLMCall) (flowcrt.ChainResult, error) {
	m, err := c.complete(ctx, call)
	if err != nil {
		return flowcrt.ChainResult{}, err
	}
	m.Role = "assistant"
	var out []any
	for _, h := range append(history(call), m) {
		out = append(out, entry(h))
	}
	return flowcrt.ChainResult{Output: out}, nil
}

// entry is a message as a chat history entry.
func entry(m message) map[string]any {
	out := map[string]any{"role": m.Role, "content": m.Content}
	if len(m.ToolCalls) > 0 {
		calls := make([]any, len(m.ToolCalls))
		for i, tc := range m.ToolCalls {
			calls[i] = map[string]any{"id": tc.ID, "type": "function", "function": map[string]any{"name": tc.Function.Name, "arguments": tc.Function.Arguments}}
		}
		out["tool_calls"] = calls
	}
	if m.ToolCallID != "" {
		out["tool_call_id"] = m.ToolCallID
	}
	return out
}

// Route runs a route task: the answer, which flowc turns into a label.
func (c *LLM) Route(ctx context.Context, call flowcrt.RouteCall) (string, error) {
	return c.PromptToString(ctx, call.LLMCall)
}

// ConditionKey runs a condition_key task: the model answers true or false.
func (c *LLM) ConditionKey(ctx context.Context, call flowcchain.ConditionCall) (bool, error) {
	if call.System != "" {
		call.System += "\n\n"
	}
	call.System += "Answer true if the input meets one of these conditions, else false, and nothing else: " + strings.Join(call.Conditions, "; ")
	answer, err := c.PromptToString(ctx, call.LLMCall)
	if err != nil {
		return false, err
	}
	ok, perr := strconv.ParseBool(strings.Trim(strings.TrimSpace(answer), ".\"'"))
	if perr != nil {
		return false, flowcrt.NewError(errBadReply, "condition_key: the answer "+strconv.Quote(snippet([]byte(answer)))+" is not true or false")
	}
	return ok, nil
}

// PromptToString runs a prompt_to_string task that asks a model.
func (c *LLM) PromptToString(ctx context.Context, call flowcrt.LLMCall) (string, error) {
	m, err := c.complete(ctx, call)
	return m.Content, err
}

// PromptToInt runs a prompt_to_int task that asks a model.
func (c *LLM) PromptToInt(ctx context.Context, call flowcrt.LLMCall) (int, error) {
	answer, err := c.PromptToString(ctx, call)
	if err != nil {
		return 0, err
	}
	n, perr := strconv.Atoi(strings.TrimSpace(answer))
	if perr != nil {
		return 0, flowcrt.NewError(errBadReply, "prompt_to_int: the answer "+strconv.Quote(snippet([]byte(answer)))+" is not an integer")
	}
	return n, nil
}
