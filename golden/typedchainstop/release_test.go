package typedchainstop

// An approval state inside an iteration chain, before its last state
// (docs/sessions.md, "Stops inside fan-outs"; issue 22 item 2): the item
// stops there, and the states after it in the chain run once the stop is
// answered, for that item only.

import (
	"context"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

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
	return ReleaseUpdate{}, nil
}

func (t *team) Draft(_ context.Context, _ ReleaseState, item string) (ReleaseUpdate, error) {
	t.count("draft " + item)
	return ReleaseUpdate{}.WithLog([]string{"drafted " + item}), nil
}

func (t *team) Publish(_ context.Context, _ ReleaseState, item string) (ReleaseUpdate, error) {
	t.count("publish " + item)
	return ReleaseUpdate{}.WithLog([]string{"published " + item}), nil
}

func (t *team) Report(context.Context, ReleaseState) (ReleaseUpdate, error) {
	t.count("report")
	return ReleaseUpdate{}, nil
}

func stops(t *testing.T, err error) []string {
	t.Helper()
	var wait *flowcrt.Interrupted
	require.ErrorAs(t, err, &wait)
	var out []string
	for _, p := range wait.Stops {
		out = append(out, p.Key)
	}
	return out
}

func TestStopInsideTheChain(t *testing.T) {
	ctx := context.Background()
	store := flowcrt.NewMemoryCheckpointer()
	h := &team{}
	w := func() *Release { return NewRelease(h, flowcrt.WithCheckpointer(store)) }

	_, err := w().Invoke(ctx, "s1", &ReleaseState{Items: []string{"a", "b"}})
	assert.Equal(t, []string{"load/0/review", "load/1/review"}, stops(t, err))
	assert.Equal(t, map[string]int{"load": 1, "draft a": 1, "draft b": 1}, h.calls, "nothing after the review runs before it is answered")

	_, err = w().DecideAt(ctx, "s1", "load/1/review", "yes")
	assert.Equal(t, []string{"load/0/review"}, stops(t, err))
	assert.Equal(t, 1, h.calls["publish b"], "the answered item goes on to the end of its chain")
	assert.Zero(t, h.calls["publish a"])

	out, err := w().DecideAt(ctx, "s1", "load/0/review", "no")
	require.NoError(t, err)
	assert.Equal(t, []string{"drafted a", "published a", "drafted b", "published b"}, out.Log, "updates apply in item order")
	assert.Equal(t, map[string]int{"load": 1, "draft a": 1, "draft b": 1, "publish a": 1, "publish b": 1, "report": 1}, h.calls)
}
