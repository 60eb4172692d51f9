package typedfanoutstop

// Approvals inside a typed fan-out (docs/sessions.md, "Stops inside
// fan-outs"; issue 22 item 2): each item of the iteration at "load" stops
// at "review" on its own, the parallel branch "legal" stops while
// "security" finishes, and each stop is answered on its own by a new
// workflow value over the same checkpointer, as a new process would.

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// team counts the calls of each handler; items run two at a time.
type team struct {
	mu    sync.Mutex
	calls map[string]int
}

func (t *team) count(name string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.calls == nil {
		t.calls = map[string]int{}
	}
	t.calls[name]++
}

func (t *team) Load(context.Context, ReleaseState) (ReleaseUpdate, error) {
	t.count("load")
	return ReleaseUpdate{}.WithSteps(1), nil
}

func (t *team) Draft(_ context.Context, _ ReleaseState, item string) (ReleaseUpdate, error) {
	t.count("draft " + item)
	return ReleaseUpdate{}.WithDrafts([]string{"draft of " + item}).WithSteps(1), nil
}

func (t *team) Sign(context.Context, ReleaseState) (ReleaseUpdate, error) {
	t.count("sign")
	return ReleaseUpdate{}.WithSigned(map[string]string{"sign": "asked"}), nil
}

func (t *team) Cleared(context.Context, ReleaseState) (ReleaseUpdate, error) {
	t.count("cleared")
	return ReleaseUpdate{}.WithSigned(map[string]string{"legal": "cleared"}).WithSteps(1), nil
}

func (t *team) Refused(context.Context, ReleaseState) (ReleaseUpdate, error) {
	t.count("refused")
	return ReleaseUpdate{}.WithSigned(map[string]string{"legal": "refused"}).WithSteps(1), nil
}

func (t *team) Security(context.Context, ReleaseState) (ReleaseUpdate, error) {
	t.count("security")
	return ReleaseUpdate{}.WithSigned(map[string]string{"security": "ok"}).WithSteps(1), nil
}

func (t *team) Report(_ context.Context, s ReleaseState) (ReleaseUpdate, error) {
	t.count("report")
	return ReleaseUpdate{}.WithSteps(1), nil
}

// approver answers every approval at once: legal approves, and each item's
// review says yes but for the draft of "b".
type approver struct{ team }

func (a *approver) Approve(_ context.Context, req flowcrt.ApprovalRequest) (string, error) {
	if req.State == "legal" {
		return "approve", nil
	}
	s := req.Input.(ReleaseState)
	if s.Drafts[len(s.Drafts)-1] == "draft of b" {
		return "no", nil
	}
	return "yes", nil
}

var items = []string{"a", "b", "c"}

func keys(t *testing.T, err error) []string {
	t.Helper()
	var wait *flowcrt.Interrupted
	require.ErrorAs(t, err, &wait)
	assert.Equal(t, "r1", wait.Session)
	var out []string
	for _, p := range wait.Stops {
		out = append(out, p.Key)
	}
	return out
}

// The session stops with every item waiting, answers them one at a time,
// and ends where the uninterrupted run with an approver ends, every
// handler having run once per item or branch.
func TestStopsAnsweredOneAtATime(t *testing.T) {
	ctx := context.Background()
	a := &approver{}
	want, err := NewRelease(a).Run(ctx, ReleaseState{Items: items})
	require.NoError(t, err)
	assert.Equal(t, ReleaseState{Items: items, Drafts: []string{"draft of a", "draft of b", "draft of c"},
		Signed: map[string]string{"sign": "asked", "legal": "cleared", "security": "ok"}, Steps: 7}, want)

	store := flowcrt.NewMemoryCheckpointer()
	h := &team{}
	w := func() *Release { return NewRelease(h, flowcrt.WithCheckpointer(store)) }

	_, err = w().Invoke(ctx, "r1", &ReleaseState{Items: items})
	assert.Equal(t, []string{"load/0/review", "load/1/review", "load/2/review"}, keys(t, err))
	cp, err := store.Load(ctx, "r1")
	require.NoError(t, err)
	assert.Equal(t, "load", cp.Position.State)
	require.NotNil(t, cp.Position.FanOut)
	assert.Len(t, cp.Position.FanOut.Stopped, 3)

	// Resume asks every stop again; nothing before them runs again.
	_, err = w().Resume(ctx, "r1")
	assert.Equal(t, []string{"load/0/review", "load/1/review", "load/2/review"}, keys(t, err))

	// Decide refuses to guess which of three stops it answers, and
	// DecideAt a key that waits nowhere.
	_, err = w().Decide(ctx, "r1", "yes")
	var serr *flowcrt.SessionError
	require.ErrorAs(t, err, &serr)
	assert.Contains(t, err.Error(), `"load/0/review", "load/1/review", "load/2/review"`)
	_, err = w().DecideAt(ctx, "r1", "load/7/review", "yes")
	require.ErrorAs(t, err, &serr)
	_, err = w().DecideAt(ctx, "r1", "load/1/review", "maybe")
	require.ErrorAs(t, err, &serr)

	_, err = w().DecideAt(ctx, "r1", "load/1/review", "no")
	assert.Equal(t, []string{"load/0/review", "load/2/review"}, keys(t, err))
	_, err = w().DecideAt(ctx, "r1", "load/2/review", "yes")
	assert.Equal(t, []string{"load/0/review"}, keys(t, err))

	// The last item's answer finishes the iteration; the parallel sign-off
	// then stops at legal, while security finishes and is saved.
	_, err = w().Decide(ctx, "r1", "yes")
	assert.Equal(t, []string{"sign/0/legal"}, keys(t, err))
	cp, err = store.Load(ctx, "r1")
	require.NoError(t, err)
	assert.Equal(t, "sign", cp.Position.State)
	assert.Contains(t, cp.Position.FanOut.Done, 1)

	out, err := w().Decide(ctx, "r1", "approve")
	require.NoError(t, err)
	assert.Equal(t, want, out)
	assert.Equal(t, map[string]int{"load": 1, "draft a": 1, "draft b": 1, "draft c": 1, "sign": 1,
		"security": 1, "cleared": 1, "report": 1}, h.calls)
	assert.Equal(t, a.calls, h.calls)
	cp, err = store.Load(ctx, "r1")
	require.NoError(t, err)
	assert.Equal(t, flowcrt.StatusFinished, cp.Status)
}

// The decision reaches the `next` expressions of the branch it answers:
// "reject" routes legal's branch to refused.
func TestDecisionRoutesItsBranch(t *testing.T) {
	ctx := context.Background()
	h := &team{}
	w := NewRelease(h, flowcrt.WithCheckpointer(flowcrt.NewMemoryCheckpointer()))
	_, err := w.Invoke(ctx, "r1", &ReleaseState{Items: []string{"x"}})
	assert.Equal(t, []string{"load/0/review"}, keys(t, err))
	_, err = w.Decide(ctx, "r1", "yes")
	assert.Equal(t, []string{"sign/0/legal"}, keys(t, err))
	out, err := w.DecideAt(ctx, "r1", "sign/0/legal", "reject")
	require.NoError(t, err)
	assert.Equal(t, "refused", out.Signed["legal"])
	assert.Equal(t, 1, h.calls["refused"])
	assert.Zero(t, h.calls["cleared"])
}

// Without a session nothing can wait inside the fan-out: the run stops
// with an *flowcrt.Interrupted that no session continues.
func TestWithoutSessionInterrupts(t *testing.T) {
	_, err := NewRelease(&team{}).Run(context.Background(), ReleaseState{Items: items})
	var wait *flowcrt.Interrupted
	require.ErrorAs(t, err, &wait)
	assert.Empty(t, wait.Session)
	assert.Equal(t, "review", wait.State)
	assert.False(t, errors.Is(err, context.Canceled))
	assert.True(t, strings.Contains(err.Error(), "Publish this draft?"))
}

// Legal's timeout runs from when its branch first stopped there, however
// often the session is resumed: a decision after the hour is a timeout,
// which its catch rule routes to refused.
func TestBranchTimeoutKeepsItsDeadline(t *testing.T) {
	ctx := context.Background()
	clock := flowcrt.NewFakeClock(time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC))
	store := flowcrt.NewMemoryCheckpointer()
	h := &team{}
	w := func() *Release { return NewRelease(h, flowcrt.WithCheckpointer(store), flowcrt.WithClock(clock)) }
	_, err := w().Invoke(ctx, "r1", &ReleaseState{Items: []string{"x"}})
	assert.Equal(t, []string{"load/0/review"}, keys(t, err))
	_, err = w().Decide(ctx, "r1", "yes")
	assert.Equal(t, []string{"sign/0/legal"}, keys(t, err))

	require.NoError(t, clock.Sleep(ctx, 40*time.Minute))
	_, err = w().Resume(ctx, "r1")
	assert.Equal(t, []string{"sign/0/legal"}, keys(t, err))
	require.NoError(t, clock.Sleep(ctx, 40*time.Minute))
	out, err := w().Decide(ctx, "r1", "approve")
	require.NoError(t, err)
	assert.Equal(t, "refused", out.Signed["legal"])
	assert.Equal(t, 1, h.calls["security"])
	assert.Zero(t, h.calls["cleared"])
}
