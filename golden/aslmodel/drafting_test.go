package aslmodel

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// desk plays the writer and the editor; big models are rate limited, and
// the editor spends more tokens on them than its budget allows.
type desk struct {
	calls  []flowcrt.Agent
	fail   string  // the error the writer's big model fails with
	tokens float64 // what the editor spends with the small model
}

func (d *desk) Writer(_ context.Context, in any, agent flowcrt.Agent) (any, error) {
	d.calls = append(d.calls, agent)
	if agent.Model == "big" {
		return nil, flowcrt.NewError(d.fail, "too many requests")
	}
	if title, ok := in.(map[string]any)["title"]; ok {
		return "Title of " + title.(string), nil
	}
	return "draft by " + agent.Model, nil
}

func (d *desk) Editor(_ context.Context, in any, agent flowcrt.Agent) (any, error) {
	d.calls = append(d.calls, agent)
	tokens := d.tokens
	if agent.Model == "big" {
		tokens = 5000
	}
	return map[string]any{"text": "polished by " + agent.Model, "_tokens": tokens}, nil
}

func models(calls []flowcrt.Agent) []string {
	var out []string
	for _, a := range calls {
		out = append(out, a.Name+":"+a.Model)
	}
	return out
}

// A task's model is handed to its agent; an error FallbackOn names (short
// or full) asks again with the fallback model, which has no fallback of
// its own; Generation reaches the agent as written.
func TestModelFallback(t *testing.T) {
	d := &desk{fail: "States.RateLimitExceeded", tokens: 20}
	out, err := NewDrafting(d).Run(context.Background(), map[string]any{})
	require.NoError(t, err)
	m := out.(map[string]any)
	assert.Equal(t, "draft by small", m["draft"])
	assert.Equal(t, "polished by small", m["polished"].(map[string]any)["text"])
	assert.Equal(t, "Title of draft by small", m["title"])
	assert.Equal(t, []string{"Writer:big", "Writer:small", "Editor:big", "Editor:small", "Writer:tiny"}, models(d.calls))

	g := d.calls[0].Generation
	require.NotNil(t, g)
	assert.Equal(t, 0.3, *g.Temperature)
	assert.Equal(t, 0.9, *g.TopP)
	assert.Equal(t, 400, g.MaxTokens)
	assert.Equal(t, []string{"END"}, g.StopSequences)
	assert.NotNil(t, d.calls[0].Fallback)
	assert.Nil(t, d.calls[1].Fallback, "the fallback call does not fall back again")
	assert.Nil(t, d.calls[4].Generation)
}

// An error FallbackOn does not name fails the task with the preferred
// model's error; the fallback model is not asked.
func TestModelNoFallback(t *testing.T) {
	d := &desk{fail: "Agent.ModelError"}
	_, err := NewDrafting(d).Run(context.Background(), map[string]any{})
	require.Error(t, err)
	assert.Equal(t, "Agent.ModelError", flowcrt.ErrorName(err))
	assert.Equal(t, []string{"Writer:big"}, models(d.calls))
}

// Once the run has spent half of the workflow's tokens the agents ask the
// Cascade's first model, from 90% its second; running over does not fail
// the run (OnExceed UseFallback).
func TestBudgetCascade(t *testing.T) {
	for _, tc := range []struct {
		tokens float64
		model  string
	}{{499, "tiny"}, {500, "medium"}, {900, "cheap"}, {1500, "cheap"}} {
		d := &desk{fail: "States.RateLimitExceeded", tokens: tc.tokens}
		_, err := NewDrafting(d).Run(context.Background(), map[string]any{})
		require.NoError(t, err, "%g tokens", tc.tokens)
		assert.Equal(t, "Writer:"+tc.model, models(d.calls)[4], "%g tokens", tc.tokens)
	}
}
