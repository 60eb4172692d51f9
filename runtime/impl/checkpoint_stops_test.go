package impl

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// nestedStops is a checkpoint stopped inside an outer fan-out: branch 0
// finished, branch 1 waits inside an inner fan-out at two items, branch 2
// waits itself.
func nestedStops() *Checkpoint {
	p := func(key, state string) *Pending {
		return &Pending{Key: key, State: state, Prompt: "ok?", Options: []string{"yes", "no"}}
	}
	inner := &FanOutProgress{Done: map[int]json.RawMessage{1: json.RawMessage(`"done"`)}, Stopped: map[int]*BranchStop{
		2: {State: "A", Input: json.RawMessage(`{}`), Pending: p("O/1/I/2/A", "A")},
		0: {State: "A", Input: json.RawMessage(`{}`), Pending: p("O/1/I/0/A", "A")},
	}}
	outer := &FanOutProgress{Done: map[int]json.RawMessage{0: json.RawMessage(`1`)}, Stopped: map[int]*BranchStop{
		2: {State: "B", Input: json.RawMessage(`{"x":1}`), Vars: json.RawMessage(`{"v":2}`), Pending: p("O/2/B", "B")},
		1: {State: "I", Input: json.RawMessage(`{}`), FanOut: inner},
	}}
	return &Checkpoint{Session: "s", Status: StatusInterrupted, Position: Position{State: "O", FanOut: outer},
		State: json.RawMessage(`{}`), Pending: p("O/1/I/0/A", "A")}
}

// The stops of a checkpoint are listed in branch order, depth first, and a
// decision names one by its key; the only one may go unnamed.
func TestPickStop(t *testing.T) {
	cp := nestedStops()
	var keys []string
	for _, s := range cp.Waiting() {
		keys = append(keys, s.Key)
	}
	assert.Equal(t, []string{"O/1/I/0/A", "O/1/I/2/A", "O/2/B"}, keys)

	p, err := pick(cp, "O/2/B")
	require.NoError(t, err)
	assert.Equal(t, "B", p.State)
	_, err = pick(cp, "")
	assert.EqualError(t, err, `3 stops wait for a decision, "O/1/I/0/A", "O/1/I/2/A", "O/2/B": say which one the decision answers (DecideAt, or flowc run --at)`)
	_, err = pick(cp, "O/1/A")
	assert.ErrorContains(t, err, `no stop "O/1/A" waits for a decision`)

	top := &Checkpoint{Status: StatusInterrupted, Pending: &Pending{State: "review"}}
	p, err = pick(top, "")
	require.NoError(t, err)
	assert.Equal(t, "review", p.StopKey(), "a stop outside fan-outs is named by its state")
	p, err = pick(top, "review")
	require.NoError(t, err)
	assert.Equal(t, "review", p.State)
}

// A store never shares a fan-out's stops with the workflow that saved them.
func TestCloneStops(t *testing.T) {
	cp := nestedStops()
	c := cp.Clone()
	assert.Equal(t, cp, c)
	c.Position.FanOut.Stopped[1].FanOut.Stopped[0].Pending.Options[0] = "changed"
	c.Position.FanOut.Stopped[2].Input[0] = '['
	assert.Equal(t, nestedStops(), cp)
}

// The result line lists every stop; a run stopped outside fan-outs prints
// the line it always did.
func TestInterruptedLineStops(t *testing.T) {
	wait := &Interrupted{State: "A", Prompt: "ok?", Options: []string{"yes"}, Key: "M/0/A",
		Stops: []Pending{{Key: "M/0/A", State: "A", Prompt: "ok?", Options: []string{"yes"}}, {Key: "M/1/A", State: "A", Prompt: "ok?"}}}
	assert.Equal(t, `{"status":"INTERRUPTED","prompt":"ok?","options":["yes"],"stops":[`+
		`{"key":"M/0/A","state":"A","prompt":"ok?","options":["yes"]},{"key":"M/1/A","state":"A","prompt":"ok?","options":[]}]}`,
		string(interruptedLine(wait)))
	assert.Equal(t, `2 stops wait for a decision: M/0/A, M/1/A`, wait.Error())
	assert.Equal(t, `{"status":"INTERRUPTED","prompt":"ok?","options":[]}`, string(interruptedLine(&Interrupted{State: "R", Prompt: "ok?"})))
}

// A typed fan-out resumed from a checkpoint restores the records of its
// finished branches, and its stopped branch starts at its approval state
// with the updates it recorded replayed; a checkpoint that names a branch
// the fan-out no longer has, or a state outside it, is refused.
func TestTypedFanOutResume(t *testing.T) {
	ctx := context.Background()
	ids := []string{"", "F", "A", "B"}
	progress := func() *FanOutProgress {
		return &FanOutProgress{Done: map[int]json.RawMessage{0: json.RawMessage(`[1,2]`)}, Stopped: map[int]*BranchStop{
			1: {State: "B", Input: json.RawMessage(`[5]`), Pending: &Pending{Key: "F/1/B", State: "B"}},
		}}
	}
	sess := &Session{cfg: &Config{Checkpointer: NewMemoryCheckpointer()}, id: "s", workflow: "w", fanOut: progress(), fanOutAt: "F"}
	recs := NewRecords[int](2, 2)
	f, err := StartFanOutStops(ctx, sess, "F", &struct{}{}, recs)
	require.NoError(t, err)
	assert.True(t, f.Done(0))
	assert.False(t, f.Done(1))
	assert.Equal(t, []int{1, 2}, *recs.Of(0))
	sum := 0
	bctx, step, err := BranchAt(ctx, f, 1, recs.Of(1), func(u *int) { sum += *u }, ids, []int{2, 3}, 2)
	require.NoError(t, err)
	assert.Equal(t, 3, step)
	assert.Equal(t, 5, sum)
	assert.Equal(t, "F/1/B", StopKey(bctx, "B"))

	require.NoError(t, f.Settle(bctx, 1, recs.Of(1), &Interrupted{State: "B", Prompt: "ok?"}))
	var wait *Interrupted
	require.ErrorAs(t, f.Stopped(), &wait)
	assert.Equal(t, []Pending{{Key: "F/1/B", State: "B", Prompt: "ok?"}}, wait.Stops)
	assert.JSONEq(t, `[5]`, string(wait.At.FanOut.Stopped[1].Input))
	assert.JSONEq(t, `[1,2]`, string(wait.At.FanOut.Done[0]))

	sess.fanOut, sess.fanOutAt = progress(), "F"
	_, err = StartFanOutStops(ctx, sess, "F", &struct{}{}, NewRecords[int](1, 1))
	assert.ErrorContains(t, err, `a stop in branch 1 of the fan-out at "F", which has 1`)

	sess.fanOut, sess.fanOutAt = progress(), "F"
	f, err = StartFanOutStops(ctx, sess, "F", &struct{}{}, NewRecords[int](2, 1))
	require.NoError(t, err)
	_, _, err = BranchAt(ctx, f, 1, new([]int), func(*int) {}, ids, []int{1, 2}, 1)
	var serr *SessionError
	require.ErrorAs(t, err, &serr)

	var none *typedFanOut
	assert.False(t, none.Done(0))
	boom := errors.New("boom")
	assert.Equal(t, boom, none.Settle(ctx, 0, nil, boom))
	assert.NoError(t, none.Stopped())
	_, step, err = BranchAt(ctx, none, 0, new([]int), func(*int) {}, ids, []int{2}, 2)
	require.NoError(t, err)
	assert.Equal(t, 2, step)
}

// childStops is a fan-out whose branch 0 waits inside the compiled-in
// child its state "Inc" runs, at an approval, and whose branch 1 waits
// there for a task token.
func childStops() *FanOutProgress {
	return &FanOutProgress{Done: map[int]json.RawMessage{}, Stopped: map[int]*BranchStop{
		0: {State: "Inc", Input: json.RawMessage(`{}`), Child: &BranchStop{State: "Inc/Ask", Input: json.RawMessage(`{"a":1}`),
			Pending: &Pending{Key: "M/0/Inc/Ask", State: "Inc/Ask", Options: []string{"yes"}}}},
		1: {State: "Inc", Input: json.RawMessage(`{}`), Child: &BranchStop{State: "Inc/Call", Input: json.RawMessage(`{}`),
			Callback: &CallbackWait{State: "Inc/Call", Token: "t1"}}},
	}}
}

// The stops and tokens inside a branch's compiled-in child are the
// branch's: listed, keyed by the child's state ids under the branch's
// prefix (as StopKey keys them when they stop), and cloned deeply.
func TestStopsInsideChildren(t *testing.T) {
	f := childStops()
	assert.Equal(t, []Pending{*f.Stopped[0].Child.Pending}, f.Waiting())
	keys, waits := f.Tokens("M/")
	assert.Equal(t, []string{"M/1/Inc/Call"}, keys)
	assert.Equal(t, "t1", waits[0].Token)
	assert.True(t, f.WaitsForToken())

	c := f.Clone()
	assert.Equal(t, f, c)
	c.Stopped[0].Child.Pending.Options[0] = "changed"
	c.Stopped[1].Child.Callback.Token = "t2"
	assert.Equal(t, childStops(), f)

	pos := Position{State: "Top", Inside: []ChildPosition{{State: "Top/M", FanOut: f}}}
	assert.Same(t, f.Stopped[1].Child.Callback, waitFor(&pos, "t1"), "a fan-out inside a top-level child holds its tokens")
}
