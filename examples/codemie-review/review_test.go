package codemiereview

import (
	"context"
	"os"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// recorder answers from the generated mock and keeps the calls.
type recorder struct {
	ReviewMock
	mu    sync.Mutex
	calls []flowcrt.JSONCall
}

func (r *recorder) add(c flowcrt.JSONCall) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, c)
}

func (r *recorder) CallMCPTool(ctx context.Context, c flowcrt.JSONCall) (string, error) {
	r.add(c)
	return r.ReviewMock.CallMCPTool(ctx, c)
}

func (r *recorder) Tracker(ctx context.Context, c flowcrt.JSONCall) (string, error) {
	r.add(c)
	return r.ReviewMock.Tracker(ctx, c)
}

func (r *recorder) Triager(ctx context.Context, c flowcrt.JSONCall) (string, error) {
	r.add(c)
	return r.ReviewMock.Triager(ctx, c)
}

func (r *recorder) Fixer(ctx context.Context, c flowcrt.JSONCall) (string, error) {
	r.add(c)
	return r.ReviewMock.Fixer(ctx, c)
}

func (r *recorder) of(state string) []flowcrt.JSONCall {
	var out []flowcrt.JSONCall
	for _, c := range r.calls {
		if c.State == state {
			out = append(out, c)
		}
	}
	return out
}

// The README's workflow: the tool's arguments and the assistant's system
// prompt rendered, each issue triaged and routed by the switch inside the
// iteration, the fix confirmed before it runs.
func TestReview(t *testing.T) {
	data, err := os.ReadFile("mocks.json")
	require.NoError(t, err)
	cfg, err := flowcrt.ParseMockConfig(data)
	require.NoError(t, err)
	mocks, err := cfg.Case("review", "one-fix")
	require.NoError(t, err)
	h := &recorder{ReviewMock: NewReviewMockHandlers(mocks)}
	out, err := NewReview(h).Run(context.Background(), map[string]any{"team": map[string]any{"name": "Storage", "project": "STO"}})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"summary": "1 fixed, 1 logged"}, out)

	fetch := h.of("fetch")[0]
	assert.Equal(t, map[string]string{"project": "STO", "limit": "20"}, fetch.ToolArgs)
	triage := h.of("triage")
	require.Len(t, triage, 2)
	assert.Equal(t, "Triage A-1: crash on save", triage[0].Task)
	assert.Equal(t, "You triage tickets of Storage.", triage[0].SystemPrompt)
	assert.Equal(t, "Fix A-1", h.of("fix")[0].Task)
	assert.Equal(t, "filesystem", h.of("fix")[0].Assistant.MCPServers[0].Name)
	assert.Equal(t, "Log A-2 as low", h.of("log")[0].Task)
}
