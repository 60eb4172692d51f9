package aslbudget

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// agents report what they spend as `_tokens` and `_cost`.
type agents struct {
	tokens  float64
	inputs  []map[string]any
	summary []map[string]any
	limits  []flowcrt.Agent
}

func (a *agents) Researcher(_ context.Context, in any, agent flowcrt.Agent) (any, error) {
	a.inputs = append(a.inputs, in.(map[string]any))
	a.limits = append(a.limits, agent)
	return map[string]any{"findings": "Go is fast (key=s3cret)", "_tokens": a.tokens, "_cost": 0.01}, nil
}

func (a *agents) Summarizer(_ context.Context, in any, _ flowcrt.Agent) (any, error) {
	a.summary = append(a.summary, in.(map[string]any))
	return map[string]any{"text": "fast"}, nil
}

var input = map[string]any{"query": "Go", "sources": []any{"web"}}

// Under budget and spending little: the memory default is injected, the
// findings are remembered for the next run of the same workflow, and the
// report reads the run's spend.
func TestWithinBudget(t *testing.T) {
	mem := flowcrt.NewMemory()
	a := &agents{tokens: 100}
	w := NewResearch(a, flowcrt.WithMemory(mem))
	out, err := w.Run(context.Background(), input)
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"answer": "Go is fast (***)", "tokens": 100.0, "left": 0.99, "all": []any{"web", "memory"}}, out)
	assert.Equal(t, map[string]any{"query": "Go", "recalled": map[string]any{"notes": "none yet"}}, a.inputs[0])
	require.NotNil(t, a.limits[0].Limit)
	assert.Equal(t, 600.0, a.limits[0].Limit.MaxTokens)
	assert.Equal(t, 1.0, a.limits[0].RunLimit.MaxCost)
	assert.Equal(t, map[string]any{"Allowed": []any{"search"}, "Denied": []any{"shell"}, "Timeout": "30s"}, a.limits[0].Tools, "the task's Tools over the workflow's DefaultTools")

	_, err = w.Run(context.Background(), input)
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"notes": "Go is fast (***)"}, a.inputs[1]["recalled"], "the second run recalls the first one's notes")
}

// Spending more routes through the compiled-in template, whose {{style}}
// the Include state set.
func TestIncludedTemplate(t *testing.T) {
	a := &agents{tokens: 500}
	out, err := NewResearch(a).Run(context.Background(), input)
	require.NoError(t, err)
	assert.Equal(t, "fast", out.(map[string]any)["answer"], out)
	require.Len(t, a.summary, 1)
	assert.Equal(t, map[string]any{"text": "Go is fast (***)", "style": "short"}, a.summary[0], "the summarizer sees the masked findings")
}

// An agent that runs over its state's budget fails with
// States.BudgetExceeded, which the state catches.
func TestOverBudget(t *testing.T) {
	_, err := NewResearch(&agents{tokens: 700}).Run(context.Background(), input)
	require.Error(t, err)
	assert.Equal(t, "OverBudget", flowcrt.ErrorName(err))
	assert.Contains(t, err.Error(), `state "Research" ran over its budget: 700 tokens used, the limit is 600`)
}

// The input guardrails block what they forbid before the agent runs; the
// output ones mask what matches; the semantic rule is the agent's.
func TestGuardrails(t *testing.T) {
	a := &agents{tokens: 100}
	out, err := NewResearch(a).Run(context.Background(), map[string]any{"query": "<script>", "sources": []any{}})
	require.Error(t, err)
	assert.Equal(t, "Agent.GuardrailViolation", flowcrt.ErrorName(err))
	assert.Empty(t, a.inputs, "blocked before the call")

	out, err = NewResearch(a).Run(context.Background(), input)
	require.NoError(t, err)
	assert.Equal(t, "Go is fast (***)", out.(map[string]any)["answer"], "the output guardrail masked the key")
	require.Len(t, a.limits, 1)
	assert.Equal(t, map[string]any{"Output": map[string]any{"Rules": []any{
		map[string]any{"Type": "regex", "Pattern": "key=\\w+", "Action": "mask"},
		map[string]any{"Type": "semantic", "Check": "harmful_content"},
	}}, "Input": map[string]any{"Rules": []any{
		map[string]any{"Type": "pattern", "Block": []any{"<script>"}},
		map[string]any{"Type": "length", "Max": 200.0},
	}}}, a.limits[0].Guardrails, "the handler gets every rule")
}
