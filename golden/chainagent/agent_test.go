package chainagent

import (
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrun "github.com/flowc-dev/flowc/flowrun"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

func runMocked(t *testing.T, ctx context.Context, testCase string) (flowcrt.ChainState, error) {
	t.Helper()
	data, err := os.ReadFile("mocks.json")
	require.NoError(t, err)
	cfg, err := flowcrun.ParseMockConfig(data)
	require.NoError(t, err)
	m, err := cfg.Case("support-agent", testCase)
	require.NoError(t, err)
	return NewSupportAgentMock(m).Run(ctx, "Weather in Paris?")
}

// The route's answer is normalized to a label; one tool round, then the
// leaf summary reads the input and the chat task's output by id. The chat
// mocks give no Eval: the branches see the control tokens tool_call, then
// executed.
func TestOneRound(t *testing.T) {
	var prints []string
	ctx := flowcrt.WithChainPrinter(context.Background(), func(p flowcrt.ChainPrint) { prints = append(prints, p.Task+": "+p.Text) })
	s, err := runMocked(t, ctx, "one-round")
	require.NoError(t, err)
	assert.Equal(t, "Q: Weather in Paris? / A: It is sunny. / rounds: 1", s.Output)
	assert.Equal(t, map[string]int{"triage->chat": 1, "chat->run_tools": 1, "run_tools->chat": 1, "chat->summary": 1}, s.Edges)
	assert.Equal(t, []string{"chat: round 0", "chat: round 1"}, prints, "print renders before the edge is taken and changes no output")
}

// A model that always asks for tools is stopped by the edge budget: the
// edge_traversed_at_least branch comes before the tool_call branch.
func TestBudget(t *testing.T) {
	s, err := runMocked(t, context.Background(), "budget")
	require.NoError(t, err)
	assert.Equal(t, "Q: Weather in Paris? / A: again / rounds: 2", s.Output)
	assert.Equal(t, 2, s.Traversed("chat->run_tools"))
}

// The default route ends at a noop task whose empty goto ends the chain
// with the input unchanged.
func TestSmalltalk(t *testing.T) {
	s, err := runMocked(t, context.Background(), "smalltalk")
	require.NoError(t, err)
	assert.Equal(t, "Weather in Paris?", s.Output)
	assert.Empty(t, s.Vars)
}

// model is a hand-written SupportAgentHandlers that records what the typed
// calls carry.
type model struct {
	routes []flowcrt.RouteCall
	chats  []flowcrt.LLMCall
}

func (m *model) Route(_ context.Context, call flowcrt.RouteCall) (string, error) {
	m.routes = append(m.routes, call)
	return "Research", nil
}

func (m *model) ChatCompletion(_ context.Context, call flowcrt.LLMCall) (flowcrt.ChainResult, error) {
	m.chats = append(m.chats, call)
	if len(m.chats) == 1 {
		return flowcrt.ChainResult{Output: []any{map[string]any{"role": "assistant", "content": "", "tool_calls": []any{"weather"}}}}, nil
	}
	return flowcrt.ChainResult{Output: flowcrt.Messages{{Role: "assistant", Content: "Sunny."}}}, nil
}

func (m *model) ExecuteToolCalls(_ context.Context, call flowcrt.ToolCallsCall) (flowcrt.ChainResult, error) {
	return flowcrt.ChainResult{Output: append(call.Messages, flowcrt.Message{Role: "tool", Content: "sunny"})}, nil
}

// Handlers leave Eval empty: the control tokens come from flowc, and the
// settings arrive typed with their macros expanded.
func TestTypedHandlers(t *testing.T) {
	m := &model{}
	ctx := flowcrt.WithChainVars(context.Background(), map[string]string{"model": "qwen3"})
	s, err := NewSupportAgent(m).Run(ctx, "Weather?")
	require.NoError(t, err)
	assert.Equal(t, "Q: Weather? / A: Sunny. / rounds: 1", s.Output)

	require.Len(t, m.routes, 1)
	assert.Equal(t, []string{"research", "smalltalk"}, m.routes[0].Labels)
	assert.Contains(t, m.routes[0].System, "Decide whether the question needs tools.")
	assert.Equal(t, flowcrt.Messages{{Role: "user", Content: "Weather?"}}, m.routes[0].Messages)

	require.Len(t, m.chats, 2)
	assert.Equal(t, "qwen3", m.chats[0].Config.Model)
	assert.Equal(t, 256, m.chats[0].Config.MaxTokens, "the macro's default")
	assert.Equal(t, 8192, m.chats[0].Config.TokenLimit)
	assert.Equal(t, []string{"*"}, m.chats[0].Config.Tools)
	assert.Equal(t, "Tool rounds so far: 0 of 2.", m.chats[0].System)
	assert.Equal(t, "Tool rounds so far: 1 of 2.", m.chats[1].System)
}
