package builtin

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// Searcher searches a CodeMie datasource: the workflow's SearchDatasource
// handler.
type Searcher interface {
	SearchDatasource(ctx context.Context, datasourceID, query string) (string, error)
}

// searchTool is the function through which the model searches the
// assistant's datasources; maxSearchRounds bounds the searches of a step.
const (
	searchTool      = "search_datasource"
	maxSearchRounds = 5
)

// Assistant runs a CodeMie assistant state: the assistant's model,
// temperature and tools, its rendered system prompt, the history so far,
// and the rendered task (else the task input) as the user's message. The
// reply's text is the state's output. When the assistant names
// datasources, the model may search them with the function
// search_datasource, which search answers (nil: the workflow names none).
func (c *LLM) Assistant(ctx context.Context, call flowcrt.JSONCall, search Searcher) (string, error) {
	req, sources := assistantRequest(call, search != nil)
	for round := 0; ; round++ {
		m, err := c.chat(ctx, req)
		if err != nil {
			return "", err
		}
		asked := searches(m, sources)
		switch {
		case len(asked) == 0 && m.Content == "" && len(m.ToolCalls) > 0:
			return "", flowcrt.NewError(errBadReply, "the model asks for tools ("+m.ToolCalls[0].Function.Name+"), which a CodeMie assistant state cannot run; give the state a tool_id, or implement the assistant's method with --handlers")
		case len(asked) == 0:
			return m.Content, nil
		case round == maxSearchRounds:
			return "", flowcrt.NewError(errBadReply, fmt.Sprintf("the model still searches datasources after %d rounds", maxSearchRounds))
		}
		m.Role = "assistant"
		req.Messages = append(req.Messages, m)
		for _, tc := range asked {
			result, err := searchOne(ctx, search, sources, tc)
			if err != nil {
				return "", err
			}
			req.Messages = append(req.Messages, message{Role: "tool", Content: result, ToolCallID: tc.ID})
		}
	}
}

// assistantRequest is the first request of an assistant state, and the
// datasources the model may search.
func assistantRequest(call flowcrt.JSONCall, canSearch bool) (chatRequest, []string) {
	req := chatRequest{Messages: messages(call.SystemPrompt, call.History)}
	var sources []string
	if a := call.Assistant; a != nil {
		req.Model, req.Temperature = a.Model, a.Temperature
		for _, t := range a.Tools {
			req.Tools = append(req.Tools, tools([]string{t.Name})...)
		}
		if canSearch && len(a.DatasourceIDs) > 0 {
			sources = a.DatasourceIDs
			req.Tools = append(req.Tools, searchFunction(sources))
		}
	}
	task := call.Task
	if task == "" {
		task = text(call.Input)
	}
	req.Messages = append(req.Messages, message{Role: "user", Content: task})
	return req, sources
}

func searchFunction(sources []string) tool {
	return tool{Type: "function", Function: toolFunction{Name: searchTool, Parameters: map[string]any{
		"type": "object",
		"properties": map[string]any{
			"datasource_id": map[string]any{"type": "string", "enum": sources},
			"query":         map[string]any{"type": "string"},
		},
		"required": []string{"datasource_id", "query"},
	}}}
}

// searches are the tool calls of m that search datasources.
func searches(m message, sources []string) []toolCall {
	var out []toolCall
	for _, tc := range m.ToolCalls {
		if len(sources) > 0 && tc.Function.Name == searchTool {
			out = append(out, tc)
		}
	}
	return out
}

// searchOne runs one search; arguments the model got wrong are answered
// with what is wrong, for it to try again.
func searchOne(ctx context.Context, search Searcher, sources []string, tc toolCall) (string, error) {
	var args struct {
		DatasourceID string `json:"datasource_id"`
		Query        string `json:"query"`
	}
	if err := json.Unmarshal([]byte(tc.Function.Arguments), &args); err != nil || !slices.Contains(sources, args.DatasourceID) {
		return fmt.Sprintf("error: give datasource_id, one of %s, and a query", strings.Join(sources, ", ")), nil
	}
	return search.SearchDatasource(ctx, args.DatasourceID, args.Query)
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
	req := chatRequest{Model: model, Messages: messages("Summarize the conversation so far in a few sentences. Keep every fact, decision and open question a later step may need.", history)}
	m, err := c.chat(ctx, req)
	if err != nil {
		return nil, err
	}
	return flowcrt.Messages{{Role: "system", Content: "Summary of the conversation so far: " + m.Content}}, nil
}
