package codemiefinish

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/golden/jsontest"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// recorded answers from the generated mock and records every call.
type recorded struct {
	SuiteMock
	calls *jsontest.Calls
}

func (h recorded) Writer(ctx context.Context, c flowcrt.JSONCall) (string, error) {
	h.calls.Add(c)
	return h.SuiteMock.Writer(ctx, c)
}

// Each endpoint's plan starts an iteration over its test cases; all of
// them are written, in order, before the single commit.
func TestFinishIteration(t *testing.T) {
	calls := &jsontest.Calls{}
	h := recorded{NewSuiteMockHandlers(jsontest.Mocks(t, "suite", "two-by-two")), calls}
	out, err := NewSuite(h).Run(context.Background(), map[string]any{"service": "shop"})
	require.NoError(t, err)
	// Each item's task ends with it (agent_node.py, get_task).
	assert.Equal(t, []string{"Write a1\nCurrent task: a1", "Write a2\nCurrent task: a2", "Write b1\nCurrent task: b1"}, calls.Tasks("write-test"))
	assert.Equal(t, []string{"Commit b1"}, calls.Tasks("commit"))
	assert.Equal(t, "b1", out.(map[string]any)["written"])
}
