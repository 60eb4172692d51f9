package aslincludestop

import (
	"context"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// teller counts the votes of each team, and its calls.
type teller struct {
	mu    sync.Mutex
	calls int
}

func (t *teller) Tally(_ context.Context, in any) (any, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.calls++
	n := 0.0
	for _, v := range in.(map[string]any)["votes"].([]any) {
		if v.(map[string]any)["approval"] == "for" {
			n++
		}
	}
	return n, nil
}

var teams = map[string]any{"teams": []any{
	map[string]any{"members": []any{"ann", "bob"}},
	map[string]any{"members": []any{"cy"}},
}}

// Stops nest through a Map item, the template its Include runs, a Map of
// that template, and the template each of its items includes: a key names
// every fan-out and index on the way, and the ids of the states in the
// children ("Teams/0/Poll/Members/1/Poll/Vote/Ballot"). Answering the only
// stop of one team finishes that team, its tally once; the other team's
// stops wait on, then are answered one by one.
func TestStopsNestThroughChildrenAndFanOuts(t *testing.T) {
	ctx := context.Background()
	store := flowcrt.NewMemoryCheckpointer()
	h := &teller{}
	w := NewVote(h, flowcrt.WithCheckpointer(store))

	_, err := w.Invoke(ctx, "v1", teams)
	ann, bob, cy := "Teams/0/Poll/Members/0/Poll/Vote/Ballot", "Teams/0/Poll/Members/1/Poll/Vote/Ballot", "Teams/1/Poll/Members/0/Poll/Vote/Ballot"
	assert.Equal(t, []string{ann, bob, cy}, keys(t, err))

	_, err = w.DecideAt(ctx, "v1", cy, "for")
	assert.Equal(t, []string{ann, bob}, keys(t, err))
	assert.Equal(t, 1, h.calls, "team 1 tallied")

	_, err = w.DecideAt(ctx, "v1", ann, "against")
	assert.Equal(t, []string{bob}, keys(t, err))
	assert.Equal(t, 1, h.calls)

	out, err := w.DecideAt(ctx, "v1", bob, "for")
	require.NoError(t, err)
	assert.Equal(t, []any{1.0, 1.0}, out)
	assert.Equal(t, 2, h.calls, "each team tallied once")
}
