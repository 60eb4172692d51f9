package aslcost

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// agents report what they spend as `_tokens` and `_cost` in their
// result; they record their inputs.
type agents struct {
	inputs []any
}

func (a *agents) Writer(_ context.Context, in any, _ flowcrt.Agent) (any, error) {
	a.inputs = append(a.inputs, in)
	return map[string]any{"text": "go is fast", "_tokens": 120.0, "_cost": 0.25}, nil
}

func (a *agents) Editor(_ context.Context, in any, _ flowcrt.Agent) (any, error) {
	a.inputs = append(a.inputs, in)
	return map[string]any{"text": "Go is fast.", "_tokens": 30.0, "_cost": 0.5}, nil
}

// States.CurrentCost() and States.CurrentTokens() sum what the agents
// reported so far; an array in Parameters holds templates like an object
// does; "$.topics[0]" reads the first item.
func TestReportsSpend(t *testing.T) {
	a := &agents{}
	out, err := NewSpend(a).Run(context.Background(), map[string]any{"topics": []any{"go", "rust"}, "limits": []any{60.0}})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{
		"cost":   0.75,
		"tokens": 150.0,
		"pages": []any{
			map[string]any{"version": "draft", "text": "go is fast"},
			map[string]any{"version": "polished", "text": "Go is fast."},
		},
		"topic": "go",
	}, out)
	assert.Equal(t, []any{
		map[string]any{"topic": "go", "limits": []any{60.0}},
		map[string]any{"text": "go is fast", "_tokens": 120.0, "_cost": 0.25},
	}, a.inputs, "the draft is passed on as the writer returned it, its report too")
}

// TimeoutSecondsPath "$.limits[0]" reads the first limit, which must be a
// whole number of seconds of at least 1.
func TestTimeoutFromFirstLimit(t *testing.T) {
	_, err := NewSpend(&agents{}).Run(context.Background(), map[string]any{"topics": []any{"go"}, "limits": []any{0.5, 60.0}})
	require.Error(t, err)
	assert.Equal(t, "States.Runtime", flowcrt.ErrorName(err))
	assert.Contains(t, err.Error(), `TimeoutSecondsPath "$.limits[0]" must point to a whole number of at least 1, got 0.5`)
}
