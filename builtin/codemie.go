package builtin

import (
	"context"
	"encoding/json"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// Assistant runs a CodeMie assistant state: the assistant's model,
// temperature and tools, its rendered system prompt, the history so far,
// and the rendered task (else the task input) as the user's message. The
// reply's text is the state's output.
func (c *LLM) Assistant(ctx context.Context, call flowcrt.JSONCall) (string, error) {
	req := Request{Messages: messages(call.SystemPrompt, call.History)}
	if a := call.Assistant; a != nil {
		req.Model, req.Temperature = a.Model, a.Temperature
		for _, t := range a.Tools {
			req.Tools = append(req.Tools, tools([]string{t.Name})...)
		}
	}
	task := call.Task
	if task == "" {
		task = text(call.Input)
	}
	req.Messages = append(req.Messages, Message{Role: "user", Content: task})
	m, err := c.Complete(ctx, req)
	if err != nil {
		return "", err
	}
	if m.Content == "" && len(m.ToolCalls) > 0 {
		return "", flowcrt.NewError(ErrBadReply, "the model asks for tools ("+m.ToolCalls[0].Function.Name+"), which a CodeMie assistant state cannot run; give the state a tool_id, or implement the assistant's method with --handlers")
	}
	return m.Content, nil
}

// text is a value as the model reads it: a string as it is, anything else
// as JSON.
func text(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return string(b)
}

// Summarize shortens a CodeMie workflow's history once it crosses the
// summarization limits: model summarizes it into one message that replaces
// it.
func (c *LLM) Summarize(ctx context.Context, model string, history flowcrt.Messages) (flowcrt.Messages, error) {
	req := Request{Model: model, Messages: messages("Summarize the conversation so far in a few sentences. Keep every fact, decision and open question a later step may need.", history)}
	m, err := c.Complete(ctx, req)
	if err != nil {
		return nil, err
	}
	return flowcrt.Messages{{Role: "system", Content: "Summary of the conversation so far: " + m.Content}}, nil
}
