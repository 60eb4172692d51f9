package builtin

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrt "github.com/flowc-dev/flowc/runtime"
	flowcimpl "github.com/flowc-dev/flowc/runtime/impl"
	flowcasl "github.com/flowc-dev/flowc/runtime/impl/asl"
	flowcagent "github.com/flowc-dev/flowc/runtime/impl/asl/agent"
)

func writer() flowcrt.Agent {
	return flowcrt.Agent{
		Name:  "Writer",
		Model: "big",
		Generation: &flowcagent.Generation{
			Temperature: flowcimpl.Float(0.2), TopP: flowcimpl.Float(0.9), MaxTokens: 300, StopSequences: []string{"END"},
		},
		Reasoning:  map[string]any{"Format": "reflection", "MinSteps": 2.0},
		Guardrails: map[string]any{"Output": map[string]any{"Rules": []any{map[string]any{"Type": "pii", "Action": "mask"}}}},
		Memory:     map[string]any{"Read": map[string]any{"Keys": []any{"style", "audience"}, "InjectAt": "$.background"}},
	}
}

// The endpoint sees the task's model and sampling settings, a system
// prompt that carries the Reasoning and the unchecked guardrails, and the
// input as JSON; a JSON reply is the result as a value.
func TestAgentRequestAndResult(t *testing.T) {
	f := &fake{reply: answer("```json\n{\"result\": {\"title\": \"Go\"}, \"reasoning\": {\"steps\": []}}\n```")}
	out, err := client(t, f).Agent(context.Background(), flowcasl.Obj("topic", "Go", "n", 2.0), writer())
	require.NoError(t, err)
	b, _ := json.Marshal(out)
	assert.JSONEq(t, `{"result": {"title": "Go"}, "reasoning": {"steps": []}}`, string(b))

	require.Len(t, f.requests, 1)
	req := f.requests[0]
	assert.Equal(t, "big", req["model"])
	assert.Equal(t, 0.2, req["temperature"])
	assert.Equal(t, 0.9, req["top_p"])
	assert.Equal(t, 300.0, req["max_tokens"])
	assert.Equal(t, []any{"END"}, req["stop"])
	assert.NotContains(t, req, "tools")
	msgs := req["messages"].([]any)
	require.Len(t, msgs, 2)
	system := msgs[0].(map[string]any)
	assert.Equal(t, "system", system["role"])
	assert.Contains(t, system["content"], `"Writer"`)
	assert.Contains(t, system["content"], "critique it and refine it, each draft and critique a step, in at least 2 steps")
	assert.Contains(t, system["content"], `{"result": <your result>, "reasoning"`)
	assert.Contains(t, system["content"], "Do not include personal information")
	assert.Contains(t, system["content"], "The input's $.background holds what earlier steps remembered under these keys: style, audience.")
	assert.Equal(t, map[string]any{"role": "user", "content": `{"topic":"Go","n":2}`}, msgs[1])
}

// Without Generation nothing is sent for sampling; a string input is sent
// as it is, and a reply that is no JSON value is the result as text.
func TestAgentTextReply(t *testing.T) {
	f := &fake{reply: answer("Go is a language.\n")}
	out, err := client(t, f).Agent(context.Background(), "tell me", flowcrt.Agent{Name: "Plain", Model: "m"})
	require.NoError(t, err)
	assert.Equal(t, "Go is a language.\n", out)
	req := f.requests[0]
	assert.NotContains(t, req["messages"].([]any)[0].(map[string]any)["content"], "remembered")
	for _, k := range []string{"temperature", "top_p", "max_tokens", "stop"} {
		assert.NotContains(t, req, k)
	}
	assert.Equal(t, "tell me", req["messages"].([]any)[1].(map[string]any)["content"])
}

// The client's errors reach the workflow under the agent language's names,
// the client's name kept in the cause.
func TestAgentErrorNames(t *testing.T) {
	for _, tc := range []struct {
		status int
		reply  string
		name   string
	}{
		{429, `{"error": "slow down"}`, flowcagent.StatesRateLimitExceeded},
		{500, `oops`, flowcagent.AgentModelError},
		{401, `{"error": "bad key"}`, flowcagent.AgentModelError},
		{400, `{"error": {"code": "context_length_exceeded"}}`, flowcagent.AgentContextOverflow},
		{200, `not json`, flowcagent.AgentModelError},
	} {
		_, err := client(t, &fake{status: tc.status, reply: tc.reply}).Agent(context.Background(), nil, flowcrt.Agent{Name: "A", Model: "m"})
		var named *flowcrt.Error
		require.ErrorAs(t, err, &named, "HTTP %d", tc.status)
		assert.Equal(t, tc.name, named.Name, "HTTP %d", tc.status)
		assert.Contains(t, named.Cause, "LLM.", "HTTP %d", tc.status)
	}
	_, err := client(t, &fake{reply: answer("hi")}).Agent(context.Background(), nil, flowcrt.Agent{Name: "A"})
	assert.Equal(t, flowcagent.AgentModelError, flowcrt.ErrorName(err), "no model anywhere")
}

// Required reasoning makes a reply without it Agent.InvalidOutput.
func TestAgentRequiredReasoning(t *testing.T) {
	a := flowcrt.Agent{Name: "A", Model: "m", Reasoning: map[string]any{"Required": true}}
	_, err := client(t, &fake{reply: answer(`{"title": "Go"}`)}).Agent(context.Background(), nil, a)
	assert.Equal(t, flowcagent.AgentInvalidOutput, flowcrt.ErrorName(err))
}

// A cancelled run stays a context error, which no rule matches.
func TestAgentCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := client(t, &fake{reply: answer("x")}).Agent(ctx, nil, flowcrt.Agent{Name: "A", Model: "m"})
	assert.ErrorIs(t, err, context.Canceled)
}

// Under a budget, an object result reports the tokens the endpoint counted;
// without one, or for text, the result is the reply alone.
func TestAgentTokens(t *testing.T) {
	usage := `{"choices": [{"message": {"role": "assistant", "content": %q}}], "usage": {"total_tokens": 42}}`
	limited := flowcrt.Agent{Name: "A", Model: "m", Limit: &flowcagent.Budget{MaxTokens: 100}}
	for _, tc := range []struct {
		agent   flowcrt.Agent
		content string
		want    string
	}{
		{limited, `{"a": 1}`, `{"a": 1, "_tokens": 42}`},
		{limited, `{"a": 1, "_tokens": 7}`, `{"a": 1, "_tokens": 7}`},
		{flowcrt.Agent{Name: "A", Model: "m"}, `{"a": 1}`, `{"a": 1}`},
		{limited, `plain`, `"plain"`},
	} {
		out, err := client(t, &fake{reply: fmt.Sprintf(usage, tc.content)}).Agent(context.Background(), nil, tc.agent)
		require.NoError(t, err)
		b, _ := json.Marshal(out)
		assert.JSONEq(t, tc.want, string(b), tc.content)
	}
}

func TestMemoryPrompt(t *testing.T) {
	assert.Equal(t, "The input's $._memory holds what earlier steps remembered under these keys: k.",
		memoryPrompt(map[string]any{"Read": []any{"k"}}), "a list of keys lands at $._memory")
	assert.Empty(t, memoryPrompt(map[string]any{"Write": map[string]any{"Key": "k"}}))
	assert.Empty(t, memoryPrompt(nil))
}
