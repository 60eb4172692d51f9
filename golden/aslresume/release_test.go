package aslresume

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// team builds, scans and ships, counting its calls; it cannot approve.
type team struct{ builds, scans, ships int }

func (t *team) Build(context.Context, any) (any, error) {
	t.builds++
	return "b-1", nil
}

func (t *team) Scan2(_ context.Context, in any) (any, error) {
	t.scans++
	return map[string]any{"count": 2}, nil
}

func (t *team) Ship(context.Context, any) (any, error) {
	t.ships++
	return true, nil
}

// lead also approves.
type lead struct {
	*team
	decision string
}

func (l lead) Approve(context.Context, flowcrt.ApprovalRequest) (string, error) {
	return l.decision, nil
}

// recorder keeps every checkpoint saved; the save numbered failAt fails
// once, as if the process had died before writing it.
type recorder struct {
	*flowcrt.MemoryCheckpointer
	saved  []*flowcrt.Checkpoint
	failAt int
}

func (r *recorder) Save(ctx context.Context, c *flowcrt.Checkpoint) error {
	if c.Step == r.failAt {
		r.failAt = 0
		return errors.New("the disk is gone")
	}
	r.saved = append(r.saved, c)
	return r.MemoryCheckpointer.Save(ctx, c)
}

// position renders where a checkpoint goes on: the top-level state, then
// the state in each child, with the child's input and own variables.
func position(c *flowcrt.Checkpoint) []string {
	out := []string{c.Position.State + " " + string(c.State)}
	for _, p := range c.Position.Inside {
		out = append(out, p.State+" "+string(p.Input)+" vars "+string(p.Vars))
	}
	return out
}

var shipped = map[string]any{
	"team": "core", "build": "b-1",
	"signoff": map[string]any{"team": "core", "findings": 2.0, "decision": "ship"},
	"shipped": true,
}

// The session stops at the Approval two templates deep, its checkpoint
// saying where in each; Decide goes on there, then in the parent, without
// building or scanning again.
func TestDecideInsideTemplates(t *testing.T) {
	ctx := context.Background()
	store := &recorder{MemoryCheckpointer: flowcrt.NewMemoryCheckpointer()}
	h := &team{}
	w := NewRelease(h, flowcrt.WithCheckpointer(store))

	_, err := w.Invoke(ctx, "r1", map[string]any{"team": "core"})
	var wait *flowcrt.Interrupted
	require.ErrorAs(t, err, &wait)
	assert.Equal(t, "SignOff/Ask/Decide", wait.State)
	assert.Equal(t, "r1", wait.Session)
	var positions [][]string
	for _, c := range store.saved {
		positions = append(positions, position(c))
	}
	in := `{"team":"core","build":"b-1"}`
	assert.Equal(t, [][]string{
		{"SignOff " + in}, // after Build
		{"SignOff " + in, "SignOff/Ask " + in + ` vars {"findings":2,"team":"core"}`},                                        // after Scan
		{"SignOff " + in, "SignOff/Ask " + in + ` vars {"findings":2,"team":"core"}`, "SignOff/Ask/Decide " + in + " vars "}, // after the Checkpoint
		{"SignOff " + in, "SignOff/Ask " + in + ` vars {"findings":2,"team":"core"}`, "SignOff/Ask/Decide " + in + " vars "}, // waiting
	}, positions)
	last := store.saved[len(store.saved)-1]
	assert.Equal(t, flowcrt.StatusInterrupted, last.Status)
	assert.Equal(t, "SignOff/Ask/Decide", last.Pending.State)

	_, err = w.Resume(ctx, "r1")
	require.ErrorAs(t, err, &wait, "resuming asks again")
	assert.Len(t, store.saved, 5, "asking again saves the wait again, nothing else")

	out, err := w.Decide(ctx, "r1", "ship")
	require.NoError(t, err)
	assert.Equal(t, shipped, out)
	assert.Equal(t, [3]int{1, 1, 1}, [3]int{h.builds, h.scans, h.ships})
	cp, err := store.Load(ctx, "r1")
	require.NoError(t, err)
	assert.Equal(t, flowcrt.StatusFinished, cp.Status)
	assert.Empty(t, cp.Position.Inside)
}

// A decision that takes the template's Fail fails the parent with it.
func TestHoldInsideTemplates(t *testing.T) {
	ctx := context.Background()
	h := &team{}
	w := NewRelease(h, flowcrt.WithCheckpointer(flowcrt.NewMemoryCheckpointer()))
	_, err := w.Invoke(ctx, "r1", map[string]any{"team": "core"})
	require.True(t, flowcrt.IsInterrupted(err))
	_, err = w.Decide(ctx, "r1", "hold")
	assert.Equal(t, "Release.Held", flowcrt.ErrorName(err))
	assert.Equal(t, 0, h.ships)
}

// A run that dies inside the template resumes at its last checkpoint there,
// with the template's variables (its parameter and what Scan assigned).
func TestResumeInsideTemplate(t *testing.T) {
	ctx := context.Background()
	store := &recorder{MemoryCheckpointer: flowcrt.NewMemoryCheckpointer(), failAt: 3} // the save after the Checkpoint
	h := &team{}
	w := NewRelease(lead{team: h, decision: "ship"}, flowcrt.WithCheckpointer(store))
	_, err := w.Invoke(ctx, "r1", map[string]any{"team": "core"})
	require.ErrorContains(t, err, "the disk is gone")
	cp, err := store.Load(ctx, "r1")
	require.NoError(t, err)
	require.Len(t, cp.Position.Inside, 1)
	assert.Equal(t, "SignOff/Ask", cp.Position.Inside[0].State)

	out, err := w.Resume(ctx, "r1")
	require.NoError(t, err)
	assert.Equal(t, shipped, out)
	assert.Equal(t, [3]int{1, 1, 1}, [3]int{h.builds, h.scans, h.ships})
}

// Without a session the template's Approval asks the approver, as before.
func TestRunWithoutSession(t *testing.T) {
	out, err := NewRelease(lead{team: &team{}, decision: "ship"}).Run(context.Background(), map[string]any{"team": "core"})
	require.NoError(t, err)
	assert.Equal(t, shipped, out)
	data, err := json.Marshal(out)
	require.NoError(t, err)
	assert.JSONEq(t, `{"team":"core","build":"b-1","signoff":{"team":"core","findings":2,"decision":"ship"},"shipped":true}`, string(data))
}
