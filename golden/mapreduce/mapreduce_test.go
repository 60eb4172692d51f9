package mapreduce

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// scorer scores a ticket; later tickets finish sooner, so items complete out
// of list order. It tracks how many run at once.
type scorer struct {
	t             *testing.T
	running, peak atomic.Int32
	mu            sync.Mutex
	seen          []string // items in the order they started
	fail, panicOn string   // a ticket id that fails or panics
}

func (h *scorer) Load(context.Context, MapReduceState) (MapReduceUpdate, error) {
	return MapReduceUpdate{}.WithNotes(map[string]string{"loaded": "yes"}), nil
}

func (h *scorer) Score(ctx context.Context, s MapReduceState, item Ticket) (MapReduceUpdate, error) {
	now := h.running.Add(1)
	defer h.running.Add(-1)
	for old := h.peak.Load(); now > old && !h.peak.CompareAndSwap(old, now); old = h.peak.Load() {
	}
	h.mu.Lock()
	h.seen = append(h.seen, item.ID)
	h.mu.Unlock()
	switch item.ID {
	case h.panicOn:
		panic("cannot score " + item.ID)
	case h.fail:
		return MapReduceUpdate{}, flowcrt.NewError("Unscorable", item.ID)
	}
	// Every item starts from the state as it was at the fan-out, whatever
	// the others did, and writes into its own copy only.
	assert.Equal(h.t, []int{-1}, s.Scores)
	assert.Equal(h.t, map[string]string{"in": "x", "loaded": "yes"}, s.Notes)
	s.Scores[0] = item.Priority
	s.Notes["scribbled"] = item.ID
	select {
	case <-time.After(time.Duration(10-item.Priority) * time.Millisecond):
	case <-ctx.Done():
		return MapReduceUpdate{}, ctx.Err()
	}
	return MapReduceUpdate{}.WithScores([]int{item.Priority * 10}).WithTotal(item.Priority).
		WithNotes(map[string]string{item.ID: fmt.Sprint(item.Priority)}).WithLast(item.ID), nil
}

func (h *scorer) Report(_ context.Context, s MapReduceState) (MapReduceUpdate, error) {
	return MapReduceUpdate{}, nil
}

func tickets(n int) []Ticket {
	out := make([]Ticket, n)
	for i := range out {
		out[i] = Ticket{ID: fmt.Sprintf("t%d", i), Priority: i + 1}
	}
	return out
}

func input(n int) MapReduceState {
	return MapReduceState{Tickets: tickets(n), Scores: []int{-1}, Notes: map[string]string{"in": "x"}}
}

// The items finish in reverse, two at a time at most, yet the scores land
// in list order and `last` (replace) is the last item's.
func TestMergedInItemOrder(t *testing.T) {
	h := &scorer{t: t}
	in := input(6)
	out, err := NewMapReduce(h).Run(context.Background(), in)
	require.NoError(t, err)
	assert.Equal(t, []int{-1, 10, 20, 30, 40, 50, 60}, out.Scores)
	assert.Equal(t, 21, out.Total)
	assert.Equal(t, "t5", out.Last)
	assert.Equal(t, map[string]string{"in": "x", "loaded": "yes", "t0": "1", "t1": "2", "t2": "3", "t3": "4", "t4": "5", "t5": "6"}, out.Notes)
	assert.Equal(t, int32(2), h.peak.Load(), "max_concurrency 2 bounds the items, and they do overlap")
	assert.ElementsMatch(t, []string{"t0", "t1", "t2", "t3", "t4", "t5"}, h.seen, "each item runs once")
	assert.Equal(t, input(6), in, "the caller's input is untouched")
	assert.Equal(t, tickets(6), out.Tickets)
}

func TestNoItems(t *testing.T) {
	out, err := NewMapReduce(&scorer{t: t}).Run(context.Background(), input(0))
	require.NoError(t, err)
	assert.Equal(t, []int{-1}, out.Scores)
	assert.Equal(t, map[string]string{"in": "x", "loaded": "yes"}, out.Notes)
}

func TestFailingItemFailsTheRun(t *testing.T) {
	h := &scorer{t: t, fail: "t1"}
	out, err := NewMapReduce(h).Run(context.Background(), input(6))
	require.Error(t, err)
	assert.Equal(t, "Unscorable", flowcrt.ErrorName(err))
	var se *flowcrt.StateError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, "score", se.State)
	assert.Equal(t, []int{-1}, out.Scores, "no item's update is applied")
	assert.Less(t, len(h.seen), 6, "items not yet started when t1 failed never start")
}

func TestPanickingItemNamesItsState(t *testing.T) {
	_, err := NewMapReduce(&scorer{t: t, panicOn: "t3"}).Run(context.Background(), input(6))
	require.Error(t, err)
	assert.Equal(t, "TaskFailed", flowcrt.ErrorName(err))
	var se *flowcrt.StateError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, "score", se.State)
	assert.ErrorContains(t, err, `panic in state "score": cannot score t3`)
}
