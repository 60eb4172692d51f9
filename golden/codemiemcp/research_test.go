package codemiemcp

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrun "github.com/flowc-dev/flowc/flowrun"
	"github.com/flowc-dev/flowc/golden/jsontest"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// researcher records its calls and answers with JSON; the mocks answer
// the rest (no MCP tool is called: that is the model's choice).
type researcher struct {
	ResearchMock
	calls *jsontest.Calls
}

func (r researcher) Researcher(_ context.Context, c flowcrt.JSONCall) (string, error) {
	r.calls.Add(c)
	return `{"answer": "sessions are checkpointed"}`, nil
}

// The assistant's mcp_servers come with call.Assistant, the state's own in
// call.MCPServers, each as CodeMie writes it (the MCPServerConfig of
// codemie-tools: command, args and env, or url and headers; enabled when
// not written).
func TestServersReachTheHandler(t *testing.T) {
	calls := &jsontest.Calls{}
	out, err := NewResearch(researcher{NewResearchMockHandlers(&flowcrun.Mocks{}), calls}).Run(context.Background(), map[string]any{"topic": "sessions"})
	require.NoError(t, err)
	assert.Equal(t, "sessions are checkpointed", out.(map[string]any)["answer"])
	require.Len(t, calls.Of("research"), 1)
	call := calls.Of("research")[0]
	assert.Equal(t, "Find what the repository says about sessions", call.Task)

	own := call.MCPServers
	require.Len(t, own, 2)
	assert.Equal(t, "fetch", own[0].Name)
	assert.Nil(t, own[0].Enabled, "not written: enabled")
	assert.Equal(t, "https://mcp.example.com/fetch", own[0].Config.URL)
	assert.Equal(t, map[string]string{"Authorization": "Bearer $TOKEN"}, own[0].Config.Headers, "left for the MCP client to expand")
	assert.Equal(t, []string{"fetch_page"}, own[0].Tools)
	assert.Equal(t, "memory", own[1].Name)
	require.NotNil(t, own[1].Enabled)
	assert.False(t, *own[1].Enabled)

	require.NotNil(t, call.Assistant)
	assistants := call.Assistant.MCPServers
	require.Len(t, assistants, 1)
	assert.Equal(t, "filesystem", assistants[0].Name)
	assert.Equal(t, "The files of the repository", assistants[0].Description)
	cfg := assistants[0].Config
	assert.Equal(t, "npx", cfg.Command)
	assert.Equal(t, []string{"-y", "@modelcontextprotocol/server-filesystem", "/repo"}, cfg.Args)
	assert.Equal(t, map[string]string{"LOG_LEVEL": "warn"}, cfg.Env)
}
