package codemiereview

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/golden/jsontest"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// recorder answers from the generated mock and keeps the calls.
type recorder struct {
	ReviewMock
	calls *jsontest.Calls
}

func (r recorder) Tracker(ctx context.Context, c flowcrt.JSONCall) (string, error) {
	r.calls.Add(c)
	return r.ReviewMock.Tracker(ctx, c)
}

func (r recorder) Triager(ctx context.Context, c flowcrt.JSONCall) (string, error) {
	r.calls.Add(c)
	return r.ReviewMock.Triager(ctx, c)
}

func (r recorder) Fixer(ctx context.Context, c flowcrt.JSONCall) (string, error) {
	r.calls.Add(c)
	return r.ReviewMock.Fixer(ctx, c)
}

// The workflow of docs/codemie.md: the tool's arguments and the assistant's system
// prompt rendered, each issue triaged and routed by the switch inside the
// iteration, the fix confirmed before it runs.
func TestReview(t *testing.T) {
	calls := &jsontest.Calls{}
	h := recorder{NewReviewMockHandlers(jsontest.Mocks(t, "review", "one-fix")), calls}
	out, err := NewReview(h).Run(context.Background(), map[string]any{"team": map[string]any{"name": "Storage", "project": "STO"}})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"summary": "1 fixed, 1 logged"}, out)

	assert.Equal(t, map[string]string{"project": "STO", "limit": "20"}, calls.Of("fetch")[0].ToolArgs)
	triage := calls.Of("triage")
	require.Len(t, triage, 2)
	// A map node's task ends with the item, as CodeMie's agent node writes it.
	assert.Equal(t, "Triage A-1: crash on save\nCurrent task: {'key': 'A-1', 'title': 'crash on save'}", triage[0].Task)
	assert.Equal(t, "You triage tickets of Storage.", triage[0].SystemPrompt)
	assert.Equal(t, []string{"Fix A-1"}, calls.Tasks("fix"), "fix is reached through a switch case, not a state_id with an iter_key: no map node")
	assert.Equal(t, "filesystem", calls.Of("fix")[0].Assistant.MCPServers[0].Name)
	assert.Equal(t, []string{"Log A-2 as low"}, calls.Tasks("log"))
}
