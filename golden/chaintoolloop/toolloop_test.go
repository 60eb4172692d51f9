package chaintoolloop

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrun "github.com/flowc-dev/flowc/flowrun"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

const mocks = `{
  "StateMachines": {"toolloop": {"TestCases": {
    "loop": {"chat": "ChatUntilStop", "run_tools": "ToolsOK"},
    "length": {"chat": "ChatLength"},
    "tool_error": {"chat": "ChatUntilStop", "run_tools": "ToolsError"},
    "throttled": {"chat": "Throttled"}
  }}},
  "MockedResponses": {
    "ChatUntilStop": {
      "0": {"Return": {"Output": [{"role": "assistant", "content": "calling weather(Paris)"}], "Eval": "tool-call"}},
      "1": {"Return": {"Output": [{"role": "assistant", "content": "It is sunny."}], "Eval": "stop"}}
    },
    "ChatLength": {"0": {"Return": {"Output": [{"role": "assistant", "content": "It is"}], "Eval": "length"}}},
    "ToolsOK": {"0": {"Return": {"Output": [{"role": "tool", "content": "22C, sunny"}], "Eval": "ok"}}},
    "ToolsError": {"0": {"Return": {"Output": [{"role": "tool", "content": "weather: timeout"}], "Eval": "error"}}},
    "Throttled": {"0": {"Throw": {"Error": "RateLimited", "Cause": "slow down"}}}
  }
}`

func runMocked(t *testing.T, testCase string) (flowcrt.ChainState, error) {
	t.Helper()
	cfg, err := flowcrun.ParseMockConfig([]byte(mocks))
	require.NoError(t, err)
	m, err := cfg.Case("toolloop", testCase)
	require.NoError(t, err)
	question := []any{map[string]any{"role": "user", "content": "Weather in Paris?"}}
	return NewToolloopMock(m).Run(context.Background(), question)
}

func encoded(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// The loop runs chat, the tools, chat again, and stops; each history is
// merged in front of the one before (merge_chat_histories of contenox's
// earlier documentation).
func TestLoopUntilStop(t *testing.T) {
	s, err := runMocked(t, "loop")
	require.NoError(t, err)
	assert.JSONEq(t, `[{"role": "assistant", "content": "It is sunny."}]`, encoded(t, s.Output))
	assert.JSONEq(t, `{"history": [
		{"role": "assistant", "content": "It is sunny."},
		{"role": "tool", "content": "22C, sunny"},
		{"role": "assistant", "content": "calling weather(Paris)"}
	]}`, encoded(t, s.Vars))
}

// "length" matches only the default branch, which ends the chain without
// composing.
func TestDefaultEnds(t *testing.T) {
	s, err := runMocked(t, "length")
	require.NoError(t, err)
	assert.JSONEq(t, `[{"role": "assistant", "content": "It is"}]`, encoded(t, s.Output))
	assert.JSONEq(t, `{}`, encoded(t, s.Vars))
}

func TestToolErrorEnds(t *testing.T) {
	s, err := runMocked(t, "tool_error")
	require.NoError(t, err)
	assert.JSONEq(t, `[{"role": "tool", "content": "weather: timeout"}]`, encoded(t, s.Output))
	assert.JSONEq(t, `{"history": [{"role": "assistant", "content": "calling weather(Paris)"}]}`, encoded(t, s.Vars))
}

// Without on_failure, a failing handler ends the chain with its error.
func TestHandlerErrorEnds(t *testing.T) {
	s, err := runMocked(t, "throttled")
	require.Error(t, err)
	assert.Equal(t, "RateLimited", flowcrt.ErrorName(err))
	var se *flowcrt.StateError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, "chat", se.State)
	assert.JSONEq(t, `[{"role": "user", "content": "Weather in Paris?"}]`, encoded(t, s.Output), "the failed task's input")
}

// agent is a hand-written ToolloopHandlers: the model asks for one tool
// call, then answers from what the history holds.
type agent struct{ calls int }

func (a *agent) ChatCompletion(_ context.Context, call flowcrt.LLMCall) (flowcrt.ChainResult, error) {
	a.calls++
	history, _ := call.History("history")
	if len(history) == 0 {
		return flowcrt.ChainResult{Output: flowcrt.Messages{{Role: "assistant", Content: "weather(Paris)"}}, Eval: "tool-call"}, nil
	}
	answer := "It is " + history[0].Content + "."
	return flowcrt.ChainResult{Output: flowcrt.Messages{{Role: "assistant", Content: answer}}, Eval: "stop"}, nil
}

func (a *agent) ExecuteToolCalls(_ context.Context, call flowcrt.ToolCallsCall) (flowcrt.ChainResult, error) {
	return flowcrt.ChainResult{Output: flowcrt.Messages{{Role: "tool", Content: "sunny"}}, Eval: "ok"}, nil
}

func TestHandwrittenHandlers(t *testing.T) {
	a := &agent{}
	s, err := NewToolloop(a).Run(context.Background(), "Weather in Paris?")
	require.NoError(t, err)
	assert.Equal(t, 2, a.calls)
	history, ok := flowcrt.ChatHistory(s.Vars["history"])
	require.True(t, ok)
	assert.Equal(t, flowcrt.Messages{
		{Role: "assistant", Content: "It is sunny."},
		{Role: "tool", Content: "sunny"},
		{Role: "assistant", Content: "weather(Paris)"},
	}, history)
}

func TestCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := NewToolloop(&agent{}).Run(ctx, nil)
	assert.ErrorIs(t, err, context.Canceled)
}

// tokenAgent leaves Eval empty, so chat_completion's control token decides:
// "tool_call" when its last message asks for tools (contenox taskexec.go
// today), which the branch written "tool-call" (contenox's transitions documentation, taskexec.go
// at 0c28a698) takes too.
type tokenAgent struct{ agent }

func (a *tokenAgent) ChatCompletion(ctx context.Context, call flowcrt.LLMCall) (flowcrt.ChainResult, error) {
	r, err := a.agent.ChatCompletion(ctx, call)
	if r.Eval == "tool-call" {
		r.Output = []any{map[string]any{"role": "assistant", "content": "", "tool_calls": []any{map[string]any{"id": "1"}}}}
	}
	r.Eval = ""
	return r, err
}

func TestToolCallTokenSpellings(t *testing.T) {
	a := &tokenAgent{}
	s, err := NewToolloop(a).Run(context.Background(), "Weather in Paris?")
	require.NoError(t, err)
	assert.Equal(t, 2, a.calls, "the tool_call token took the tool-call branch")
	history, ok := flowcrt.ChatHistory(s.Vars["history"])
	require.True(t, ok)
	assert.Len(t, history, 2, "the tool call and the tool's answer; the final answer ends on the default branch")
}
