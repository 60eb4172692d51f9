package chaincondition

import (
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrun "github.com/flowc-dev/flowc/flowrun"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// reviewer is a hand-written GateHandlers: it finds a post on topic when
// it mentions Go, and records the calls.
type reviewer struct {
	calls []flowcrt.ConditionCall
}

func (r *reviewer) ConditionKey(_ context.Context, call flowcrt.ConditionCall) (bool, error) {
	r.calls = append(r.calls, call)
	post, _ := call.Input.(string)
	return post == "Go 1.26 is out", nil
}

// The condition_key task gets the sorted valid_conditions, its system
// instruction and model, and the chain's input; true takes the "true"
// branch to the noop, whose input_var makes the input the output again.
func TestMeetsCondition(t *testing.T) {
	r := &reviewer{}
	s, err := NewGate(r).Run(context.Background(), "Go 1.26 is out")
	require.NoError(t, err)
	require.Len(t, r.calls, 1)
	assert.Equal(t, []string{"on topic", "polite"}, r.calls[0].Conditions)
	assert.Equal(t, "You review posts for a Go blog.", r.calls[0].System)
	assert.Equal(t, "small", r.calls[0].Config.Model)
	assert.Equal(t, "Go 1.26 is out", r.calls[0].Input)
	assert.Equal(t, "Go 1.26 is out", s.Output)
	assert.Equal(t, map[string]int{"check->publish": 1}, s.Edges)
}

// false takes the default branch to raise_error, which fails the chain
// with its rendered prompt.
func TestFailsCondition(t *testing.T) {
	_, err := NewGate(&reviewer{}).Run(context.Background(), "Buy cheap watches")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "not published: Buy cheap watches")
}

// The mocks answer condition_key with a JSON bool, as `flowc run
// --mock-config mocks.json` does; its eval is the bool's text.
func TestMocked(t *testing.T) {
	data, err := os.ReadFile("mocks.json")
	require.NoError(t, err)
	cfg, err := flowcrun.ParseMockConfig(data)
	require.NoError(t, err)
	m, err := cfg.Case("gate", "yes")
	require.NoError(t, err)
	s, err := NewGateMock(m).Run(context.Background(), "anything")
	require.NoError(t, err)
	assert.Equal(t, "anything", s.Output)

	m, err = cfg.Case("gate", "no")
	require.NoError(t, err)
	_, err = NewGateMock(m).Run(context.Background(), "anything")
	assert.ErrorContains(t, err, "not published: anything")
}
