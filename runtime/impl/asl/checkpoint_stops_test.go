package asl

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/flowc-dev/flowc/runtime/impl"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A branch that stops is recorded, not failed; other errors pass through;
// without a session nothing is recorded and a stop is an error like any.
func TestSettleBranches(t *testing.T) {
	sess := testSession(t, &impl.Config{}, "s")
	f := impl.OpenStops(context.Background(), sess, "M")
	require.NotNil(t, f)
	ctx := f.Branch(context.Background(), 3)
	assert.Equal(t, "M/3/A", impl.StopKey(ctx, "A"))

	stop := impl.StopInBranch(ctx, &impl.Interrupted{State: "A", Prompt: "ok?"}, "A", map[string]any{"n": 1.0}, nil)
	require.NoError(t, f.Settle(ctx, 3, nil, StateFailed("A", stop)))
	require.NoError(t, f.Settle(ctx, 1, []any{"out"}, nil))
	boom := errors.New("boom")
	assert.Equal(t, boom, f.Settle(ctx, 2, nil, boom))

	err := f.Interrupted("M", map[string]any{"in": true}, nil)
	var wait *impl.Interrupted
	require.ErrorAs(t, err, &wait)
	assert.Equal(t, []impl.Pending{{Key: "M/3/A", State: "A", Prompt: "ok?"}}, wait.Stops)
	assert.JSONEq(t, `{"in":true}`, string(wait.At.Input))
	assert.JSONEq(t, `["out"]`, string(wait.At.FanOut.Done[1]))
	assert.JSONEq(t, `{"n":1}`, string(wait.At.FanOut.Stopped[3].Input))

	var none *impl.OpenFanOut
	assert.Equal(t, boom, none.Settle(ctx, 0, nil, boom))
	assert.Equal(t, context.Background(), none.Branch(context.Background(), 0))
	assert.Nil(t, impl.OpenStops(context.Background(), nil, "M"))
	plain := &impl.Interrupted{State: "A"}
	assert.Equal(t, error(plain), impl.StopInBranch(context.Background(), plain, "A", nil, nil), "outside a session's fan-out a stop stays as it was")
}

// A Map at the top level of a session's run saves its progress as items
// finish: resumed after a failure inside it, only the items that had not
// finished run again, and the Map's output is whole.
func TestMapProgressSurvivesFailure(t *testing.T) {
	ctx := context.Background()
	store := impl.NewMemoryCheckpointer()
	cfg := &impl.Config{Checkpointer: store}
	runs := map[float64]int{}
	fail := true
	iterator := func(_ context.Context, _ *ASLExec, in any) (any, error) {
		n := in.(float64)
		runs[n]++
		if n == 3 && fail {
			return nil, &impl.Error{Name: "Flaky", Cause: "once"}
		}
		return n * 10, nil
	}
	mapOnce := func(sess *impl.Session) (any, error) {
		x, in, err := NewASLExec(cfg, "m", nil, []any{1.0, 2.0, 3.0, 4.0})
		require.NoError(t, err)
		x.SetSession(sess)
		cx := x.Enter(ctx, "M")
		cx.input = in
		return x.Map("M", &MapSpec{MaxConcurrency: 1}, iterator)(ctx, cx, in)
	}

	_, err := mapOnce(testSession(t, cfg, "s"))
	assert.Equal(t, "Flaky", impl.ErrorName(err))
	cp, err := store.Load(ctx, "s")
	require.NoError(t, err)
	assert.Equal(t, impl.StatusRunning, cp.Status)
	assert.Equal(t, "M", cp.Position.State)
	assert.Len(t, cp.Position.FanOut.Done, 2)

	fail = false
	out, err := mapOnce(testSession(t, cfg, "s")) // resumed inside the Map
	require.NoError(t, err)
	assert.Equal(t, []any{10.0, 20.0, 30.0, 40.0}, Plain(out))
	assert.Equal(t, map[float64]int{1: 1, 2: 1, 3: 2, 4: 1}, runs)
}

// A fan-out whose only stops wait for task tokens is saved as waiting, at
// any depth, as a callback state outside any fan-out is (issue 22); one
// that also waits for a decision is interrupted, and one with no stop is
// still running.
func TestFanOutOfTokensIsSavedWaiting(t *testing.T) {
	token := func(state string) *impl.BranchStop {
		return &impl.BranchStop{State: state, Callback: &impl.CallbackWait{State: state, Token: "tok-" + state}}
	}
	tests := []struct {
		name  string
		fan   *impl.FanOutProgress
		stops []impl.Pending
		want  impl.Status
	}{
		{"tokens", &impl.FanOutProgress{Stopped: map[int]*impl.BranchStop{0: token("Left"), 1: token("Right")}}, nil, impl.StatusWaiting},
		{"a token in a nested fan-out", &impl.FanOutProgress{Stopped: map[int]*impl.BranchStop{
			1: {State: "Inner", FanOut: &impl.FanOutProgress{Stopped: map[int]*impl.BranchStop{2: token("Ask")}}},
		}}, nil, impl.StatusWaiting},
		{"a token and a decision", &impl.FanOutProgress{Stopped: map[int]*impl.BranchStop{
			0: token("Left"), 1: {State: "Review", Pending: &impl.Pending{Key: "Both/1/Review", State: "Review"}},
		}}, []impl.Pending{{Key: "Both/1/Review", State: "Review"}}, impl.StatusInterrupted},
		{"progress only", &impl.FanOutProgress{Done: map[int]json.RawMessage{0: json.RawMessage(`[]`)}}, nil, impl.StatusRunning},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			store := impl.NewMemoryCheckpointer()
			s := testSession(t, &impl.Config{Checkpointer: store}, "s")
			require.NoError(t, s.Put(ctx, impl.Position{State: "Both", FanOut: tt.fan}, json.RawMessage(`{}`), tt.stops))
			cp, err := store.Load(ctx, "s")
			require.NoError(t, err)
			assert.Equal(t, tt.want, cp.Status)
		})
	}
}

// A stop inside a compiled-in child run by a branch is saved by nothing
// but its fan-out: SaveChild makes it the stop of the state that runs the
// child, and a run resumed there enters the child at its stop.
func TestStopInsideChildOfBranch(t *testing.T) {
	x, _, err := NewASLExec(&impl.Config{}, "m", nil, map[string]any{})
	require.NoError(t, err)
	cfg := &impl.Config{}
	x.sess = testSession(t, cfg, "s")
	f := impl.OpenStops(context.Background(), x.sess, "M")
	ctx := x.innerScope(f.Branch(context.Background(), 0))
	ctx = enterChild(ctx, x, &aslContext{state: "Inc", input: map[string]any{"raw": true}}, x.scope(ctx))
	x.scope(ctx).assign(Obj("v", 1.0))

	err = x.SaveChild(ctx, "", nil, impl.StopInBranch(ctx, &impl.Interrupted{State: "Inc/Ask"}, "Inc/Ask", map[string]any{"a": 1.0}, nil))
	wait, ok := errors.AsType[*impl.Interrupted](err)
	require.True(t, ok)
	assert.Equal(t, "M/0/Inc/Ask", wait.Key)
	assert.Equal(t, "Inc", wait.At.State)
	assert.JSONEq(t, `{"raw":true}`, string(wait.At.Input))
	assert.JSONEq(t, `{"v":1}`, string(wait.At.Vars), "the variables of the scope the Include runs in")
	assert.Equal(t, "Inc/Ask", wait.At.Child.State)
	nothingSaved(t, cfg, "s")

	assert.Nil(t, x.SaveChild(ctx, "Inc/Next", map[string]any{}, nil), "a state of the child that went well saves nothing")
	nothingSaved(t, cfg, "s")

	resumed := savedSession(t, &impl.Config{}, "r", impl.Position{State: "M", FanOut: &impl.FanOutProgress{Stopped: map[int]*impl.BranchStop{0: wait.At}}})
	rctx := impl.OpenStops(context.Background(), resumed, "M").Branch(context.Background(), 0)
	sc := impl.BranchOf(rctx)
	require.Equal(t, "M/0/X", impl.StopKey(rctx, "X"))
	stop := impl.TakeResume(rctx) // as the checkpoint saved it
	require.Equal(t, wait.At, stop)
	rctx = enterChild(rctx, x, &aslContext{state: "Inc"}, x.scope(rctx))
	child, inside := childStop(rctx)
	assert.True(t, inside)
	assert.Same(t, stop.Child, child)
	assert.Same(t, child, sc.At, "the child's states resume at its stop")
	_, inside = childStop(context.Background())
	assert.False(t, inside, "outside branches the checkpoint says where a child resumes")
}
