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
	for _, s := range cp.waiting() {
		keys = append(keys, s.Key)
	}
	assert.Equal(t, []string{"O/1/I/0/A", "O/1/I/2/A", "O/2/B"}, keys)

	p, err := cp.pick("O/2/B")
	require.NoError(t, err)
	assert.Equal(t, "B", p.State)
	_, err = cp.pick("")
	assert.EqualError(t, err, `3 stops wait for a decision, "O/1/I/0/A", "O/1/I/2/A", "O/2/B": say which one the decision answers (DecideAt, or flowc run --at)`)
	_, err = cp.pick("O/1/A")
	assert.ErrorContains(t, err, `no stop "O/1/A" waits for a decision`)

	top := &Checkpoint{Status: StatusInterrupted, Pending: &Pending{State: "review"}}
	p, err = top.pick("")
	require.NoError(t, err)
	assert.Equal(t, "review", p.key(), "a stop outside fan-outs is named by its state")
	p, err = top.pick("review")
	require.NoError(t, err)
	assert.Equal(t, "review", p.State)
}

// A store never shares a fan-out's stops with the workflow that saved them.
func TestCloneStops(t *testing.T) {
	cp := nestedStops()
	c := cp.clone()
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

// A branch that stops is recorded, not failed; other errors pass through;
// without a session nothing is recorded and a stop is an error like any.
func TestSettleBranches(t *testing.T) {
	sess := &Session{cfg: &Config{}, id: "s"}
	f := OpenStops(context.Background(), sess, "M")
	require.NotNil(t, f)
	ctx := f.Branch(context.Background(), 3)
	assert.Equal(t, "M/3/A", StopKey(ctx, "A"))

	stop := StopInBranch(ctx, &Interrupted{State: "A", Prompt: "ok?"}, "A", map[string]any{"n": 1.0}, nil)
	require.NoError(t, f.Settle(ctx, 3, nil, StateFailed("A", stop)))
	require.NoError(t, f.Settle(ctx, 1, []any{"out"}, nil))
	boom := errors.New("boom")
	assert.Equal(t, boom, f.Settle(ctx, 2, nil, boom))

	err := f.Interrupted("M", map[string]any{"in": true}, nil)
	var wait *Interrupted
	require.ErrorAs(t, err, &wait)
	assert.Equal(t, []Pending{{Key: "M/3/A", State: "A", Prompt: "ok?"}}, wait.Stops)
	assert.JSONEq(t, `{"in":true}`, string(wait.At.Input))
	assert.JSONEq(t, `["out"]`, string(wait.At.FanOut.Done[1]))
	assert.JSONEq(t, `{"n":1}`, string(wait.At.FanOut.Stopped[3].Input))

	var none *OpenFanOut
	assert.Equal(t, boom, none.Settle(ctx, 0, nil, boom))
	assert.Equal(t, context.Background(), none.Branch(context.Background(), 0))
	assert.Nil(t, OpenStops(context.Background(), nil, "M"))
	plain := &Interrupted{State: "A"}
	assert.Equal(t, error(plain), StopInBranch(context.Background(), plain, "A", nil, nil), "outside a session's fan-out a stop stays as it was")
}

// A CodeMie branch's copy survives its checkpoint with what Join takes
// from it: the keys it set, those it removed, where its messages start.
func TestBranchStateRoundTrip(t *testing.T) {
	s := FreshJSONState()
	s.set("a", 1.0)
	b := s.Iterations([]any{map[string]any{"k": "v"}})[0]
	b.set("x", "y")
	b.remove("a")
	b.History = append(b.History, Message{Role: "assistant", Content: "hi"})
	raw, err := encodeBranch(&b)
	require.NoError(t, err)
	var back JSONState
	require.NoError(t, decodeBranch(raw, &back))
	assert.Equal(t, b.branch, back.branch)
	assert.Equal(t, b.iterating, back.iterating)
	assert.Equal(t, b.History, back.History)

	joined, again := FreshJSONState(), FreshJSONState()
	joined.set("a", 1.0)
	again.set("a", 1.0)
	joined.Join([]JSONState{b})
	again.Join([]JSONState{back})
	assert.Equal(t, joined.Context, again.Context)
	assert.Equal(t, joined.History, again.History)
}

// A Map at the top level of a session's run saves its progress as items
// finish: resumed after a failure inside it, only the items that had not
// finished run again, and the Map's output is whole.
func TestMapProgressSurvivesFailure(t *testing.T) {
	ctx := context.Background()
	store := NewMemoryCheckpointer()
	cfg := &Config{Checkpointer: store}
	runs := map[float64]int{}
	fail := true
	iterator := func(_ context.Context, _ *ASLExec, in any) (any, error) {
		n := in.(float64)
		runs[n]++
		if n == 3 && fail {
			return nil, &Error{Name: "Flaky", Cause: "once"}
		}
		return n * 10, nil
	}
	mapOnce := func(sess *Session) (any, error) {
		x, in, err := NewASLExec(cfg, "m", nil, []any{1.0, 2.0, 3.0, 4.0})
		require.NoError(t, err)
		x.SetSession(sess)
		cx := x.Enter(ctx, "M")
		cx.input = in
		return x.Map("M", &MapSpec{MaxConcurrency: 1}, iterator)(ctx, cx, in)
	}

	_, err := mapOnce(&Session{cfg: cfg, id: "s", workflow: "m"})
	assert.Equal(t, "Flaky", ErrorName(err))
	cp, err := store.Load(ctx, "s")
	require.NoError(t, err)
	assert.Equal(t, StatusRunning, cp.Status)
	assert.Equal(t, "M", cp.Position.State)
	assert.Len(t, cp.Position.FanOut.Done, 2)

	fail = false
	out, err := mapOnce(&Session{cfg: cfg, id: "s", workflow: "m", step: cp.Step, fanOut: cp.Position.FanOut, fanOutAt: "M"})
	require.NoError(t, err)
	assert.Equal(t, []any{10.0, 20.0, 30.0, 40.0}, Plain(out))
	assert.Equal(t, map[float64]int{1: 1, 2: 1, 3: 2, 4: 1}, runs)
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

// A fan-out whose only stops wait for task tokens is saved as waiting, at
// any depth, as a callback state outside any fan-out is (issue 22); one
// that also waits for a decision is interrupted, and one with no stop is
// still running.
func TestFanOutOfTokensIsSavedWaiting(t *testing.T) {
	token := func(state string) *BranchStop {
		return &BranchStop{State: state, Callback: &CallbackWait{State: state, Token: "tok-" + state}}
	}
	tests := []struct {
		name  string
		fan   *FanOutProgress
		stops []Pending
		want  Status
	}{
		{"tokens", &FanOutProgress{Stopped: map[int]*BranchStop{0: token("Left"), 1: token("Right")}}, nil, StatusWaiting},
		{"a token in a nested fan-out", &FanOutProgress{Stopped: map[int]*BranchStop{
			1: {State: "Inner", FanOut: &FanOutProgress{Stopped: map[int]*BranchStop{2: token("Ask")}}},
		}}, nil, StatusWaiting},
		{"a token and a decision", &FanOutProgress{Stopped: map[int]*BranchStop{
			0: token("Left"), 1: {State: "Review", Pending: &Pending{Key: "Both/1/Review", State: "Review"}},
		}}, []Pending{{Key: "Both/1/Review", State: "Review"}}, StatusInterrupted},
		{"progress only", &FanOutProgress{Done: map[int]json.RawMessage{0: json.RawMessage(`[]`)}}, nil, StatusRunning},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			store := NewMemoryCheckpointer()
			s := &Session{cfg: &Config{Checkpointer: store}, id: "s", workflow: "m"}
			require.NoError(t, s.Put(ctx, Position{State: "Both", FanOut: tt.fan}, json.RawMessage(`{}`), tt.stops))
			cp, err := store.Load(ctx, "s")
			require.NoError(t, err)
			assert.Equal(t, tt.want, cp.Status)
		})
	}
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
// prefix (as stopKey keys them when they stop), and cloned deeply.
func TestStopsInsideChildren(t *testing.T) {
	f := childStops()
	assert.Equal(t, []Pending{*f.Stopped[0].Child.Pending}, f.stops())
	keys, waits := f.Tokens("M/")
	assert.Equal(t, []string{"M/1/Inc/Call"}, keys)
	assert.Equal(t, "t1", waits[0].Token)
	assert.True(t, f.waitsForToken())

	c := f.clone()
	assert.Equal(t, f, c)
	c.Stopped[0].Child.Pending.Options[0] = "changed"
	c.Stopped[1].Child.Callback.Token = "t2"
	assert.Equal(t, childStops(), f)

	pos := Position{State: "Top", Inside: []ChildPosition{{State: "Top/M", FanOut: f}}}
	assert.Same(t, f.Stopped[1].Child.Callback, pos.WaitFor("t1"), "a fan-out inside a top-level child holds its tokens")
}

// A stop inside a compiled-in child run by a branch is saved by nothing
// but its fan-out: SaveChild makes it the stop of the state that runs the
// child, and a run resumed there enters the child at its stop.
func TestStopInsideChildOfBranch(t *testing.T) {
	x, _, err := NewASLExec(&Config{}, "m", nil, map[string]any{})
	require.NoError(t, err)
	x.sess = &Session{cfg: &Config{}, id: "s"}
	f := OpenStops(context.Background(), x.sess, "M")
	ctx := x.innerScope(f.Branch(context.Background(), 0))
	ctx = enterChild(ctx, x, &aslContext{state: "Inc", input: map[string]any{"raw": true}}, x.scope(ctx))
	x.scope(ctx).assign(Obj("v", 1.0))

	stop := StopInBranch(ctx, &Interrupted{State: "Inc/Ask"}, "Inc/Ask", map[string]any{"a": 1.0}, nil)
	err = x.SaveChild(ctx, "", nil, stop)
	wait, ok := errors.AsType[*Interrupted](err)
	require.True(t, ok)
	assert.Equal(t, "M/0/Inc/Ask", wait.Key)
	assert.Equal(t, "Inc", wait.At.State)
	assert.JSONEq(t, `{"raw":true}`, string(wait.At.Input))
	assert.JSONEq(t, `{"v":1}`, string(wait.At.Vars), "the variables of the scope the Include runs in")
	assert.Equal(t, "Inc/Ask", wait.At.Child.State)
	assert.Zero(t, x.sess.step, "nothing saved")

	assert.Nil(t, x.SaveChild(ctx, "Inc/Next", map[string]any{}, nil), "a state of the child that went well saves nothing")
	assert.Zero(t, x.sess.step)

	sc := &BranchScope{prefix: "M/0/", resume: wait.At}
	rctx := context.WithValue(context.Background(), branchScopeKey{}, sc)
	require.Same(t, wait.At, TakeResume(rctx))
	rctx = enterChild(rctx, x, &aslContext{state: "Inc"}, x.scope(rctx))
	child, inside := childStop(rctx)
	assert.True(t, inside)
	assert.Same(t, wait.At.Child, child)
	assert.Same(t, child, sc.At, "the child's states resume at its stop")
	_, inside = childStop(context.Background())
	assert.False(t, inside, "outside branches the checkpoint says where a child resumes")
}
