package codemiereview

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/checkpoint/sqlite"
	"github.com/flowc-dev/flowc/golden/jsontest"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// The example of docs/codemie.md as a session: the first issue waits at
// fix's interrupt_before inside the iteration while the second is logged;
// Decide, in a new workflow value over the same file, fixes it without
// fetching or triaging again, and the run ends as one-fix does.
func TestReviewSession(t *testing.T) {
	ctx := context.Background()
	input := map[string]any{"team": map[string]any{"name": "Storage", "project": "STO"}}
	store, err := sqlite.Open(filepath.Join(t.TempDir(), "s.db"))
	require.NoError(t, err)
	defer store.Close()
	calls := &jsontest.Calls{}
	process := func() *Review {
		h := recorder{NewReviewMockHandlers(jsontest.Mocks(t, "review", "waits-for-fix")), calls}
		return NewReview(h, flowcrt.WithCheckpointer(store))
	}

	_, err = process().Invoke(ctx, "s1", input)
	var wait *flowcrt.Interrupted
	require.ErrorAs(t, err, &wait)
	require.Len(t, wait.Stops, 1)
	assert.Equal(t, "fetch/0/fix", wait.Stops[0].Key)
	assert.Equal(t, []string{"Log A-2 as low"}, calls.Tasks("log"))
	assert.Empty(t, calls.Tasks("fix"))

	out, err := process().Decide(ctx, "s1", "continue")
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"summary": "1 fixed, 1 logged"}, out)
	assert.Len(t, calls.Of("fetch"), 1)
	assert.Len(t, calls.Of("triage"), 2)
	assert.Equal(t, []string{"Fix A-1"}, calls.Tasks("fix"))
	assert.Len(t, calls.Of("report"), 1)
}
