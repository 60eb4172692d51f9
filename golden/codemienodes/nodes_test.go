package codemienodes

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
	NodesMock
	calls *jsontest.Calls
}

func (h recorded) Extract(ctx context.Context, c flowcrt.JSONCall) (string, error) {
	h.calls.Add(c)
	return h.NodesMock.Extract(ctx, c)
}

func (h recorded) CallMCPTool(ctx context.Context, c flowcrt.JSONCall) (string, error) {
	h.calls.Add(c)
	return h.NodesMock.CallMCPTool(ctx, c)
}

func TestCustomNodeAndMCPTool(t *testing.T) {
	calls := &jsontest.Calls{}
	h := recorded{NewNodesMockHandlers(jsontest.Mocks(t, "nodes", "read")), calls}
	out, err := NewNodes(h).Run(context.Background(), map[string]any{})
	require.NoError(t, err)

	node := calls.Of("labels")[0].CustomNode
	require.NotNil(t, node)
	assert.Equal(t, "transform_node", node.CustomNodeID)
	assert.Equal(t, "event", node.Config["input_key"])

	read := calls.Of("read")[0]
	assert.Equal(t, "read_file", read.Tool.Tool)
	assert.Equal(t, "npx", read.Tool.MCPServer.Config.Command)
	assert.Equal(t, map[string]string{"path": "/repo/main.go"}, read.ToolArgs)

	// output_key kept the node's whole output, as text, beside its keys
	// (base_node.py, _add_output_key).
	assert.Equal(t, []any{"bug"}, out.(map[string]any)["labels"])
	assert.JSONEq(t, `{"file": "main.go", "labels": ["bug"]}`, out.(map[string]any)["extracted"].(string))
}
