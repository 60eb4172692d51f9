package reducers

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// inPlace answers as handlers does, through the in-place form of its
// methods, and counts the calls of each form.
type inPlace struct {
	handlers
	returned, written int
	fail              error  // what NodeInto returns
	panicIn           string // the state whose in-place handler panics
}

func (h *inPlace) Node(ctx context.Context, s ReducersState) (ReducersUpdate, error) {
	h.returned++
	return h.handlers.Node(ctx, s)
}

func (h *inPlace) Tally(ctx context.Context, s ReducersState) (ReducersUpdate, error) {
	h.returned++
	return h.handlers.Tally(ctx, s)
}

func (h *inPlace) NodeInto(ctx context.Context, s ReducersState, u *ReducersUpdate) error {
	h.written++
	if h.panicIn == "node" {
		panic("node broke")
	}
	u.SetMessages([]string{"b"})
	u.SetStatus("done")
	u.SetCounter(2)
	u.SetLabels(map[string]int{"b": 2, "c": 3})
	u.SetTotal(5)
	u.SetCost(0.25)
	u.SetHistory(flowcrt.Messages{{Role: "assistant", Content: "hello"}})
	return h.fail
}

func (h *inPlace) TallyInto(ctx context.Context, s ReducersState, u *ReducersUpdate) error {
	h.written++
	if h.panicIn == "tally" {
		panic("tally broke")
	}
	if !reflect.DeepEqual(*u, ReducersUpdate{}) {
		return errors.New("the update did not arrive empty")
	}
	h.seen = s
	u.SetTotal(1)
	return nil
}

// Handlers with the in-place form give the run the same state as those
// that return their updates, and a run without observer, state context
// or session calls only that form.
func TestInPlaceAgrees(t *testing.T) {
	want, err := NewReducers(&handlers{}).Run(context.Background(), reducersInput())
	require.NoError(t, err)

	h := &inPlace{}
	got, err := NewReducers(h).Run(context.Background(), reducersInput())
	require.NoError(t, err)
	assert.Equal(t, want, got)
	assert.Equal(t, 15, h.seen.Total, "tally saw node's update applied")
	assert.Equal(t, 2, h.written)
	assert.Zero(t, h.returned)
}

// With a state context (or an observer, or a session) between states, the
// run calls the handlers' returning form.
func TestInPlaceNotBetweenHooks(t *testing.T) {
	h := &inPlace{}
	got, err := NewReducers(h, flowcrt.WithStateContext()).Run(context.Background(), reducersInput())
	require.NoError(t, err)
	assert.Equal(t, 16, got.Total)
	assert.Equal(t, 2, h.returned)
	assert.Zero(t, h.written)
}

func TestInPlaceFailureNamesState(t *testing.T) {
	boom := errors.New("boom")
	_, err := NewReducers(&inPlace{fail: boom}).Run(context.Background(), reducersInput())
	var se *flowcrt.StateError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, "node", se.State)
	assert.ErrorIs(t, err, boom)

	out, err := NewReducers(&inPlace{panicIn: "node"}).Run(context.Background(), reducersInput())
	require.ErrorAs(t, err, &se)
	assert.Equal(t, "node", se.State)
	assert.ErrorContains(t, err, "node broke")
	assert.Equal(t, 10, out.Total, "the state as it was when node began")

	out, err = NewReducers(&inPlace{panicIn: "tally"}).Run(context.Background(), reducersInput())
	require.ErrorAs(t, err, &se)
	assert.Equal(t, "tally", se.State)
	assert.ErrorContains(t, err, "tally broke")
	assert.Equal(t, 15, out.Total, "the state as it was when tally began")
}

func TestInPlaceCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	h := &inPlace{}
	_, err := NewReducers(h).Run(ctx, reducersInput())
	assert.ErrorIs(t, err, context.Canceled)
	assert.Zero(t, h.written)
}
