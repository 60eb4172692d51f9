package aslincludestop

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/checkpoint/sqlite"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// team does the work and counts every call, by handler and item, so that a
// test can tell that nothing finished ran twice across resumed runs.
type team struct {
	mu    sync.Mutex
	calls map[string]int
}

func newTeam() *team { return &team{calls: map[string]int{}} }

func (t *team) count(name string, in any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	key := name
	if m, ok := in.(map[string]any); ok && m["id"] != nil {
		key = fmt.Sprintf("%s %v", name, m["id"])
	}
	t.calls[key]++
}

func (t *team) Prepare(_ context.Context, in any) (any, error) {
	t.count("prepare", in)
	return map[string]any{
		"items": []any{map[string]any{"id": 1.0}, map[string]any{"id": 2.0}},
	}, nil
}

func (t *team) Check(_ context.Context, in any) (any, error) {
	t.count("check", in)
	return in, nil
}

func (t *team) Ship(_ context.Context, in any) (any, error) {
	t.count("ship", in)
	m := in.(map[string]any)
	return map[string]any{"id": m["id"], "shipped": m["decision"].(map[string]any)["approval"]}, nil
}

func (t *team) Record(_ context.Context, in any) (any, error) {
	t.count("record", in)
	return in.(map[string]any)["signature"], nil
}

func (t *team) Notify(_ context.Context, in any) (any, error) {
	t.count("notify", in)
	return "notified", nil
}

func (t *team) Finish(_ context.Context, in any) (any, error) {
	t.count("finish", in)
	return in, nil
}

// approver answers every Approval at once: the uninterrupted run.
type approver struct{ *team }

func (approver) Approve(_ context.Context, req flowcrt.ApprovalRequest) (string, error) {
	return req.Options[0], nil
}

// everyCallOnce is what each handler of a whole run is called: once per
// item it runs for.
var everyCallOnce = map[string]int{
	"prepare": 1, "check 1": 1, "check 2": 1, "ship 1": 1, "ship 2": 1, "record": 1, "notify": 1, "finish": 1,
}

func uninterrupted(t *testing.T) any {
	h := newTeam()
	out, err := NewRelease(approver{h}).Run(context.Background(), map[string]any{})
	require.NoError(t, err)
	assert.Equal(t, everyCallOnce, h.calls)
	return out
}

// keys lists the keys of the stops an interrupted run waits at.
func keys(t *testing.T, err error) []string {
	t.Helper()
	var wait *flowcrt.Interrupted
	require.ErrorAs(t, err, &wait)
	var out []string
	for _, p := range wait.Stops {
		out = append(out, p.Key)
	}
	return out
}

// A session stops at the Approval of a template that an Include compiles
// into each item of a Map (both items at once), then into a Parallel
// branch (the other branch finishing). The key of each stop runs through
// the child: "<fan-out>/<index>/<child state>". Each stop is answered on
// its own, by a new workflow value over the same SQLite store as a new
// process would; no finished state runs again, and the output is that of
// the run whose approver answered at once. Source: the Include and
// Approval states of the Agent State Language spec; Step Functions' Map
// and Parallel states (https://docs.aws.amazon.com/step-functions/latest/dg/state-map.html).
func TestStopsInsideIncludedTemplates(t *testing.T) {
	want := uninterrupted(t)
	ctx := context.Background()
	store, err := sqlite.Open(filepath.Join(t.TempDir(), "release.db"))
	require.NoError(t, err)
	defer store.Close()
	h := newTeam()
	process := func() *Release { return NewRelease(h, flowcrt.WithCheckpointer(store)) }

	_, err = process().Invoke(ctx, "r1", map[string]any{})
	assert.Equal(t, []string{"Review/0/Vet/Approve", "Review/1/Vet/Approve"}, keys(t, err))
	assert.Equal(t, map[string]int{"prepare": 1, "check 1": 1, "check 2": 1}, h.calls)
	cp, err := store.Load(ctx, "r1")
	require.NoError(t, err)
	assert.Equal(t, flowcrt.StatusInterrupted, cp.Status)
	assert.Equal(t, "Review", cp.Position.State)
	assert.Equal(t, "Review/0/Vet/Approve", cp.Pending.Key)

	_, err = process().Decide(ctx, "r1", "yes")
	assert.ErrorContains(t, err, `2 stops wait for a decision, "Review/0/Vet/Approve", "Review/1/Vet/Approve"`)
	_, err = process().DecideAt(ctx, "r1", "Review/1/Approve", "yes")
	assert.ErrorContains(t, err, `no stop "Review/1/Approve" waits`)

	_, err = process().DecideAt(ctx, "r1", "Review/1/Vet/Approve", "no")
	assert.Equal(t, []string{"Review/0/Vet/Approve"}, keys(t, err), "the other item waits still")
	assert.Equal(t, map[string]int{"prepare": 1, "check 1": 1, "check 2": 1, "ship 2": 1}, h.calls,
		"the answered item went on inside its template, from the Approval")

	_, err = process().Resume(ctx, "r1")
	assert.Equal(t, []string{"Review/0/Vet/Approve"}, keys(t, err), "resuming asks again")

	_, err = process().DecideAt(ctx, "r1", "Review/0/Vet/Approve", "yes")
	assert.Equal(t, []string{"Release/0/Sign/Countersign"}, keys(t, err))
	assert.Equal(t, 1, h.calls["notify"], "the other branch finished")
	assert.Equal(t, 1, h.calls["ship 1"])

	out, err := process().Decide(ctx, "r1", "signed")
	require.NoError(t, err)
	reviewed := out.(map[string]any)["reviewed"].([]any)
	assert.Equal(t, map[string]any{"id": 2.0, "shipped": "no"}, reviewed[1], "the decision given")
	reviewed[1] = want.(map[string]any)["reviewed"].([]any)[1]
	assert.Equal(t, want, out)
	assert.Equal(t, everyCallOnce, h.calls)
	cp, err = store.Load(ctx, "r1")
	require.NoError(t, err)
	assert.Equal(t, flowcrt.StatusFinished, cp.Status)
}

// Without a session nothing changed: an Approval inside a template
// compiled into a Map item, with no handler to answer it, is a
// States.Runtime error, since no checkpoint could hold the run waiting
// there.
func TestWithoutSession(t *testing.T) {
	_, err := NewRelease(newTeam()).Run(context.Background(), map[string]any{})
	assert.Equal(t, "States.Runtime", flowcrt.ErrorName(err))
	assert.ErrorContains(t, err, "inside a Parallel or Map an approval cannot wait")
}

// A session that the process loses while items wait resumes from its
// checkpoint with the clock moved on: the stops are the same, and the
// checks that ran are not run again.
func TestResumeAfterRestart(t *testing.T) {
	ctx := context.Background()
	clock := flowcrt.NewFakeClock(time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC))
	store := flowcrt.NewMemoryCheckpointer()
	h := newTeam()
	process := func() *Release {
		return NewRelease(h, flowcrt.WithCheckpointer(store), flowcrt.WithClock(clock))
	}
	_, err := process().Invoke(ctx, "t", map[string]any{})
	assert.Equal(t, []string{"Review/0/Vet/Approve", "Review/1/Vet/Approve"}, keys(t, err))
	clock.Sleep(ctx, time.Hour)
	_, err = process().Resume(ctx, "t")
	assert.Equal(t, []string{"Review/0/Vet/Approve", "Review/1/Vet/Approve"}, keys(t, err))
	assert.Equal(t, map[string]int{"prepare": 1, "check 1": 1, "check 2": 1}, h.calls)
}
