package approvalasl

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/checkpoint/sqlite"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// writer drafts and publishes, counting its calls; it cannot approve.
type writer struct{ drafts, publishes int }

func (w *writer) Draft(_ context.Context, in any) (any, error) {
	w.drafts++
	return "a draft about " + in.(map[string]any)["topic"].(string), nil
}

func (w *writer) Publish(context.Context, any) (any, error) {
	w.publishes++
	return true, nil
}

// chief also approves.
type chief struct {
	writer
	decision string
}

func (c *chief) Approve(context.Context, flowcrt.ApprovalRequest) (string, error) {
	return c.decision, nil
}

// With an approver the Approval state asks it, as before.
func TestApprover(t *testing.T) {
	out, err := NewReview(&chief{decision: "approve"}).Run(context.Background(), map[string]any{"topic": "Go"})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"topic": "Go", "draft": "a draft about Go", "review": map[string]any{"approval": "approve"}, "published": true}, out)
	_, err = NewReview(&chief{decision: "reject"}).Run(context.Background(), map[string]any{"topic": "Go"})
	assert.Equal(t, "Rejected", flowcrt.ErrorName(err))
}

// Without one the session waits at the Approval, its checkpoint holding
// the state's input; Decide continues it without drafting again.
func TestInterruptedSession(t *testing.T) {
	ctx := context.Background()
	store, err := sqlite.Open(filepath.Join(t.TempDir(), "review.db"))
	require.NoError(t, err)
	defer store.Close()
	h := &writer{}
	w := NewReview(h, flowcrt.WithCheckpointer(store))

	_, err = w.Invoke(ctx, "doc", map[string]any{"topic": "Go"})
	var wait *flowcrt.Interrupted
	require.ErrorAs(t, err, &wait)
	assert.Equal(t, "Publish the draft?", wait.Prompt)
	assert.Equal(t, []string{"approve", "reject"}, wait.Options)
	cp, err := store.Load(ctx, "doc")
	require.NoError(t, err)
	assert.Equal(t, "Review", cp.Position.State)
	assert.JSONEq(t, `{"topic": "Go", "draft": "a draft about Go"}`, string(cp.State))

	_, err = w.Resume(ctx, "doc")
	require.ErrorAs(t, err, &wait, "resuming asks again")
	out, err := w.Decide(ctx, "doc", "approve")
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"topic": "Go", "draft": "a draft about Go", "review": map[string]any{"approval": "approve"}, "published": true}, out)
	assert.Equal(t, 1, h.drafts)
	assert.Equal(t, 1, h.publishes)

	cp, err = store.Load(ctx, "doc")
	require.NoError(t, err)
	assert.Equal(t, flowcrt.StatusFinished, cp.Status)
}

// Invoking a finished session again merges the input's members into its
// saved input and starts again.
func TestInvokeAgain(t *testing.T) {
	ctx := context.Background()
	w := NewReview(&chief{decision: "approve"}, flowcrt.WithCheckpointer(flowcrt.NewMemoryCheckpointer()))
	_, err := w.Invoke(ctx, "doc", map[string]any{"topic": "Go"})
	require.NoError(t, err)
	out, err := w.Invoke(ctx, "doc", map[string]any{"topic": "Rust"})
	require.NoError(t, err)
	assert.Equal(t, "a draft about Rust", out.(map[string]any)["draft"])
}
