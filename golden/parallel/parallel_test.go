package parallel

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// reversed finishes the branches in reverse order: c first, then b and
// b_check, then a. Each handler checks the copy of the state it runs on.
type reversed struct {
	t            *testing.T
	cDone, bDone chan struct{}
}

func newReversed(t *testing.T) *reversed {
	return &reversed{t: t, cDone: make(chan struct{}), bDone: make(chan struct{})}
}

func update(name string, total int) ParallelUpdate {
	return ParallelUpdate{}.WithLog([]string{name}).WithTotal(total).WithStatus(name).
		WithSeen(map[string]string{name: "done"})
}

func (h *reversed) Split(context.Context, ParallelState) (ParallelUpdate, error) {
	return ParallelUpdate{}.WithLog([]string{"split"}), nil
}

// A writes into the slices and maps of its copy: no other branch, and not
// the caller's input, may see that.
func (h *reversed) A(_ context.Context, s ParallelState) (ParallelUpdate, error) {
	<-h.bDone
	assert.Equal(h.t, []string{"in", "split"}, s.Log, "a branch starts from the state at the fan-out")
	s.Log[0] = "scribbled by a"
	s.Seen["scribbled"] = "by a"
	return update("a", 1), nil
}

func (h *reversed) B(_ context.Context, s ParallelState) (ParallelUpdate, error) {
	<-h.cDone
	assert.Equal(h.t, []string{"in", "split"}, s.Log)
	assert.NotContains(h.t, s.Seen, "c", "branches do not see each other's updates")
	return update("b", 10), nil
}

// BCheck sees its own branch's update and no other: total is 10, so the
// condition takes it to the join, not to b_big.
func (h *reversed) BCheck(_ context.Context, s ParallelState) (ParallelUpdate, error) {
	defer close(h.bDone)
	assert.Equal(h.t, []string{"in", "split", "b"}, s.Log)
	assert.Equal(h.t, 10, s.Total)
	return ParallelUpdate{}.WithLog([]string{"b_check"}), nil
}

func (h *reversed) BBig(context.Context, ParallelState) (ParallelUpdate, error) {
	h.t.Error("b_big runs only when total > 100 in b's branch")
	return ParallelUpdate{}, nil
}

func (h *reversed) C(_ context.Context, s ParallelState) (ParallelUpdate, error) {
	defer close(h.cDone)
	assert.Equal(h.t, []string{"in", "split"}, s.Log)
	return update("c", 100), nil
}

func (h *reversed) Merge(_ context.Context, s ParallelState) (ParallelUpdate, error) {
	return ParallelUpdate{}.WithLog([]string{"merge"}), nil
}

func input() ParallelState {
	return ParallelState{Log: []string{"in"}, Seen: map[string]string{"in": "1"}}
}

// The branches finish c, b, a, but the join applies their updates in
// declaration order a, b, c: the log lists them so, status (replace) ends
// as c's, total adds all three.
func TestJoinInDeclarationOrder(t *testing.T) {
	in := input()
	out, err := NewParallel(newReversed(t)).Run(context.Background(), in)
	require.NoError(t, err)
	assert.Equal(t, []string{"in", "split", "a", "b", "b_check", "c", "merge"}, out.Log)
	assert.Equal(t, "c", out.Status)
	assert.Equal(t, 111, out.Total)
	assert.Equal(t, map[string]string{"in": "1", "a": "done", "b": "done", "c": "done"}, out.Seen)
	assert.Equal(t, input(), in, "the caller's input is untouched")
}

// failing fails branch b once a and c have started; they wait until the
// failure cancels them.
type failing struct {
	reversed
	started, cancelled chan string
}

func (h *failing) A(ctx context.Context, _ ParallelState) (ParallelUpdate, error) {
	return h.waitForCancel(ctx, "a")
}

func (h *failing) C(ctx context.Context, _ ParallelState) (ParallelUpdate, error) {
	return h.waitForCancel(ctx, "c")
}

func (h *failing) waitForCancel(ctx context.Context, name string) (ParallelUpdate, error) {
	h.started <- name
	<-ctx.Done()
	h.cancelled <- name
	return update(name, 1), ctx.Err()
}

func (h *failing) B(context.Context, ParallelState) (ParallelUpdate, error) {
	<-h.started
	<-h.started
	return ParallelUpdate{}, flowcrt.NewError("Broken", "b cannot go on")
}

func (h *failing) Merge(context.Context, ParallelState) (ParallelUpdate, error) {
	h.t.Error("the join must not run after a failed branch")
	return ParallelUpdate{}, nil
}

func TestFailingBranchCancelsTheOthers(t *testing.T) {
	h := &failing{reversed: *newReversed(t), started: make(chan string, 2), cancelled: make(chan string, 2)}
	out, err := NewParallel(h).Run(context.Background(), input())
	require.Error(t, err)
	assert.Equal(t, "Broken", flowcrt.ErrorName(err))
	var se *flowcrt.StateError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, "b", se.State)
	assert.ElementsMatch(t, []string{"a", "c"}, []string{<-h.cancelled, <-h.cancelled})
	assert.Equal(t, []string{"in", "split"}, out.Log, "no branch's update is applied")
}

type panicking struct{ reversed }

func (h *panicking) A(context.Context, ParallelState) (ParallelUpdate, error) {
	return update("a", 1), nil
}
func (h *panicking) B(context.Context, ParallelState) (ParallelUpdate, error) {
	return update("b", 1), nil
}
func (h *panicking) BCheck(context.Context, ParallelState) (ParallelUpdate, error) {
	panic("b_check broke")
}
func (h *panicking) C(context.Context, ParallelState) (ParallelUpdate, error) {
	return update("c", 1), nil
}

func TestPanickingBranchNamesItsState(t *testing.T) {
	_, err := NewParallel(&panicking{*newReversed(t)}).Run(context.Background(), input())
	require.Error(t, err)
	assert.Equal(t, "TaskFailed", flowcrt.ErrorName(err))
	var se *flowcrt.StateError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, "b_check", se.State)
	assert.ErrorContains(t, err, `panic in state "b_check": b_check broke`)
}

// A cancelled run stops inside the fan-out too.
func TestCancelledRun(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := NewParallel(&panicking{*newReversed(t)}).Run(ctx, input())
	assert.True(t, errors.Is(err, context.Canceled), "%v", err)
}
