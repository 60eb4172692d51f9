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

func (h recorded) CallMCPTool(ctx context.Context, c flowcrt.JSONCall) (string, error) {
	h.calls.Add(c)
	return h.NodesMock.CallMCPTool(ctx, c)
}

func TestCustomNodeAndMCPTool(t *testing.T) {
	calls := &jsontest.Calls{}
	h := recorded{NewNodesMockHandlers(jsontest.Mocks(t, "nodes", "read")), calls}
	event := map[string]any{"pull_request": map[string]any{
		"labels": []any{map[string]any{"name": "bug"}, map[string]any{"name": "ui"}, map[string]any{"color": "red"}},
		"file":   "main.go",
	}}
	out, err := NewNodes(h).Run(context.Background(), map[string]any{"event": event})
	require.NoError(t, err)

	// transform_node ran with no handler (transform_node.py,
	// TransformNode.execute): input_key `event` merged the event's keys,
	// array_map took each label's name, leaving out the one with none.
	assert.Equal(t, []string{"read"}, calls.States())
	read := calls.Of("read")[0]
	assert.Equal(t, "read_file", read.Tool.Tool)
	assert.Equal(t, "npx", read.Tool.MCPServer.Config.Command)
	assert.Equal(t, map[string]string{"path": "/repo/main.go"}, read.ToolArgs)

	// output_key kept the node's whole output, its JSON text as the engine
	// dumps it, keys in mapping order, beside its keys (base_node.py,
	// _add_output_key).
	assert.Equal(t, []any{"bug", "ui"}, out.(map[string]any)["labels"])
	assert.Equal(t, `{"labels": ["bug", "ui"], "file": "main.go"}`, out.(map[string]any)["extracted"])
}
