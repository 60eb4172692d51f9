package aslmapapproval

import (
	"context"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// inspector inspects parts, counting each part's inspections.
type inspector struct {
	mu    sync.Mutex
	parts map[string]int
}

func (h *inspector) Inspect(_ context.Context, in any) (any, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.parts[in.(string)]++
	return map[string]any{"part": in, "ok": true}, nil
}

type accepter struct{ *inspector }

func (accepter) Approve(context.Context, flowcrt.ApprovalRequest) (string, error) {
	return "accept", nil
}

// The items of a distributed Map inside a compiled-in child wait at its
// Approval (the child's states are named under the Include, "Vet/Each", so
// the keys are "Vet/Each/<item>/Vet/Accept"), one at a time: the Map's
// MaxConcurrency is 1, and an item that waits still counts against it. The
// checkpoint names the Include and, inside the child, the Map's progress.
// Answered one by one in separate workflow values over one in-memory
// store, each part is inspected once, and the output is the one of the run
// whose approver accepted at once. Sources: the Include state of the Agent
// State Language; Step Functions' distributed Map and its MaxConcurrency
// (https://docs.aws.amazon.com/step-functions/latest/dg/state-map-distributed.html).
func TestStopsInsideChildDistributedMap(t *testing.T) {
	ctx := context.Background()
	want, err := NewBundle(accepter{&inspector{parts: map[string]int{}}}).Run(ctx, map[string]any{})
	require.NoError(t, err)

	store := flowcrt.NewMemoryCheckpointer()
	h := &inspector{parts: map[string]int{}}
	process := func() *Bundle { return NewBundle(h, flowcrt.WithCheckpointer(store)) }
	_, err = process().Invoke(ctx, "b", map[string]any{})
	assert.Equal(t, []string{"Vet/Each/0/Vet/Accept"}, keys(t, err))
	assert.Equal(t, map[string]int{"bolt": 1}, h.parts, "the other parts have not started")
	cp, err := store.Load(ctx, "b")
	require.NoError(t, err)
	assert.Equal(t, "Vet", cp.Position.State)
	require.Len(t, cp.Position.Inside, 1)

	_, err = process().DecideAt(ctx, "b", "Vet/Each/1/Vet/Accept", "accept")
	assert.ErrorContains(t, err, `no stop "Vet/Each/1/Vet/Accept" waits`)
	_, err = process().Decide(ctx, "b", "accept")
	assert.Equal(t, []string{"Vet/Each/1/Vet/Accept"}, keys(t, err))
	_, err = process().Decide(ctx, "b", "accept")
	assert.Equal(t, []string{"Vet/Each/2/Vet/Accept"}, keys(t, err))
	out, err := process().Decide(ctx, "b", "accept")
	require.NoError(t, err)
	assert.Equal(t, want, out)
	assert.Equal(t, map[string]int{"bolt": 1, "nut": 1, "gear": 1}, h.parts)
}
