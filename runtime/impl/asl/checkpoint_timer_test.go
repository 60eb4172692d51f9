package asl

import (
	"context"
	"testing"
	"time"

	"github.com/flowc-dev/flowc/runtime/impl"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// waitMachine is a States Language machine run by hand as generated code
// runs it: A, then the Wait state W of wait, then the end. Each run gets
// the clock of the process it runs in.
func waitMachine(clock *impl.Clock, wait *Wait) *impl.Sessions[any, any] {
	return &impl.Sessions[any, any]{Workflow: "w", Schema: "json", Start: "A", Fresh: EmptyASLInput, Decode: DecodeASLInput, Merge: MergeASLInput,
		Run: func(ctx context.Context, sess *impl.Session, in any, state string) (any, error) {
			cfg := impl.NewConfig(impl.WithClock(*clock))
			x, in, err := NewASLExec(&cfg, "w", nil, in)
			if err != nil {
				return nil, err
			}
			x.SetSession(sess)
			if state == "A" {
				if err := x.Save(ctx, "W", in, nil); err != nil {
					return nil, err
				}
			}
			out, err := x.Do(ctx, &ASLState{Name: "W"}, x.Enter(ctx, "W"), in, x.Wait(wait))
			if err := x.Save(ctx, "", out, err); err != nil {
				return nil, err
			}
			return out, nil
		}}
}

// Killed 4 s into a 6 s Wait (the case of issue 22), the resumed session
// waits the 2 s left: the Wait ends at its deadline, 6 s after it began,
// not 6 s after the resumption. Step Functions' Wait state ends at its
// deadline whatever happens to the workers meanwhile (States Language
// specification, "Wait State").
func TestWaitResumesWithTimeLeft(t *testing.T) {
	ctx := context.Background()
	store := impl.NewMemoryCheckpointer()
	dying := &dyingClock{now: t0, dieAt: t0.Add(4 * time.Second)}
	var clock impl.Clock = dying
	s := waitMachine(&clock, &Wait{Seconds: 6, HasSeconds: true})
	cfg := impl.NewConfig(impl.WithCheckpointer(dying.store(store)))
	_, err := s.Invoke(ctx, &cfg, "s1", nil)
	require.ErrorIs(t, err, errKilled)
	cfg = impl.NewConfig(impl.WithCheckpointer(store)) // a new process

	cp, err := store.Load(ctx, "s1")
	require.NoError(t, err)
	assert.Equal(t, "W", cp.Position.State)
	require.NotNil(t, cp.Position.Timer, "the deadline is saved before the Wait sleeps")
	assert.Equal(t, t0.Add(6*time.Second), cp.Position.Timer.Until)

	fake := impl.NewFakeClock(t0.Add(4 * time.Second))
	clock = fake
	out, err := s.Resume(ctx, &cfg, "s1")
	require.NoError(t, err)
	assert.Equal(t, "{}", impl.JSONText(out))
	assert.Equal(t, []time.Duration{2 * time.Second}, fake.Sleeps(), "only the time left")
	assert.Equal(t, t0.Add(6*time.Second), fake.Now(), "the Wait ends at its deadline")
	cp, err = store.Load(ctx, "s1")
	require.NoError(t, err)
	assert.Equal(t, impl.StatusFinished, cp.Status)
	assert.Nil(t, cp.Position.Timer)
}

// A session resumed after its Wait's deadline does not wait at all; one
// given new input while it waits keeps the deadline too.
func TestWaitPastItsDeadline(t *testing.T) {
	ctx := context.Background()
	store := impl.NewMemoryCheckpointer()
	dying := &dyingClock{now: t0, dieAt: t0.Add(time.Second)}
	var clock impl.Clock = dying
	s := waitMachine(&clock, &Wait{Timestamp: "2026-11-27T10:00:00Z"})
	cfg := impl.NewConfig(impl.WithCheckpointer(dying.store(store)))
	_, err := s.Invoke(ctx, &cfg, "s1", nil)
	require.ErrorIs(t, err, errKilled)

	dying = &dyingClock{now: t0.Add(30 * time.Minute), dieAt: t0.Add(31 * time.Minute)}
	clock = dying
	cfg = impl.NewConfig(impl.WithCheckpointer(dying.store(store)))
	var more any = map[string]any{"more": true}
	_, err = s.Invoke(ctx, &cfg, "s1", &more)
	require.ErrorIs(t, err, errKilled, "the hour's wait goes on, from the same deadline")
	cfg = impl.NewConfig(impl.WithCheckpointer(store)) // a new process
	cp, err := store.Load(ctx, "s1")
	require.NoError(t, err)
	assert.Equal(t, `{"more":true}`, string(cp.State))
	require.NotNil(t, cp.Position.Timer)
	assert.Equal(t, t0.Add(time.Hour), cp.Position.Timer.Until)

	fake := impl.NewFakeClock(t0.Add(2 * time.Hour))
	clock = fake
	out, err := s.Resume(ctx, &cfg, "s1")
	require.NoError(t, err)
	assert.Equal(t, `{"more":true}`, impl.JSONText(out))
	assert.Equal(t, []time.Duration{0}, fake.Sleeps())
}

// The delay before a retry is kept too: killed during it, the resumed run
// sleeps what is left and goes on counting its retries, so that
// MaxAttempts bounds the attempts of all the processes together
// (States Language specification, "Retrying after error").
func TestRetryDelayResumesWithTimeLeft(t *testing.T) {
	ctx := context.Background()
	store := impl.NewMemoryCheckpointer()
	dying := &dyingClock{now: t0, dieAt: t0.Add(3 * time.Second)}
	var clock impl.Clock = dying
	var attempts []float64 // $$.State.RetryCount of each attempt
	st := &ASLState{Name: "T", Task: true, Retry: []impl.Retrier{{Errors: []string{"States.ALL"}, MaxAttempts: 3, Interval: 10 * time.Second, BackoffRate: 2}}}
	s := &impl.Sessions[any, any]{Workflow: "w", Schema: "json", Start: "T", Fresh: EmptyASLInput, Decode: DecodeASLInput, Merge: MergeASLInput,
		Run: func(ctx context.Context, sess *impl.Session, in any, _ string) (any, error) {
			cfg := impl.NewConfig(impl.WithClock(clock))
			x, in, err := NewASLExec(&cfg, "w", nil, in)
			if err != nil {
				return nil, err
			}
			x.SetSession(sess)
			cx := x.Enter(ctx, "T")
			out, err := x.Do(ctx, st, cx, in, func(context.Context, *aslContext, any) (any, error) {
				attempts = append(attempts, float64(cx.retries))
				return nil, &impl.Error{Name: "Flaky"}
			})
			return out, x.Save(ctx, "", out, err)
		}}
	cfg := impl.NewConfig(impl.WithCheckpointer(dying.store(store)))
	_, err := s.Invoke(ctx, &cfg, "s1", nil)
	require.ErrorIs(t, err, errKilled)
	cfg = impl.NewConfig(impl.WithCheckpointer(store)) // a new process
	cp, err := store.Load(ctx, "s1")
	require.NoError(t, err)
	require.NotNil(t, cp.Position.Timer)
	assert.Equal(t, []int{1}, cp.Position.Timer.Retries)
	assert.Equal(t, t0.Add(10*time.Second), cp.Position.Timer.Until)

	fake := impl.NewFakeClock(t0.Add(3 * time.Second))
	clock = fake
	_, err = s.Resume(ctx, &cfg, "s1")
	assert.Equal(t, "Flaky", impl.ErrorName(err))
	assert.Equal(t, []float64{0, 1, 2}, attempts, "three attempts in all, not one and then three")
	assert.Equal(t, []time.Duration{7 * time.Second, 20 * time.Second}, fake.Sleeps())
}

// A Wait inside a Parallel branch keeps no deadline: no checkpoint names
// a branch's states, and resuming runs the whole Parallel state again.
func TestWaitInBranchSavesNothing(t *testing.T) {
	ctx := context.Background()
	store := impl.NewMemoryCheckpointer()
	clock := &dyingClock{now: t0, dieAt: t0.Add(time.Second)}
	branch := func(ctx context.Context, x *ASLExec, in any) (any, error) {
		return x.Do(ctx, &ASLState{Name: "BW"}, x.Enter(ctx, "BW"), in, x.Wait(&Wait{Seconds: 5, HasSeconds: true}))
	}
	s := &impl.Sessions[any, any]{Workflow: "w", Schema: "json", Start: "P", Fresh: EmptyASLInput, Decode: DecodeASLInput, Merge: MergeASLInput,
		Run: func(ctx context.Context, sess *impl.Session, in any, _ string) (any, error) {
			cfg := impl.NewConfig(impl.WithClock(clock))
			x, in, err := NewASLExec(&cfg, "w", nil, in)
			require.NoError(t, err)
			x.SetSession(sess)
			out, err := x.Do(ctx, &ASLState{Name: "P"}, x.Enter(ctx, "P"), in, x.Parallel("P", branch))
			return out, x.Save(ctx, "", out, err)
		}}
	cfg := impl.NewConfig(impl.WithCheckpointer(clock.store(store)))
	_, err := s.Invoke(ctx, &cfg, "s1", nil)
	require.ErrorIs(t, err, errKilled)
	_, err = store.Load(ctx, "s1")
	require.ErrorIs(t, err, impl.ErrNoCheckpoint)
}

// A Wait inside a compiled-in child (an Include) keeps its deadline in the
// checkpoint that names the child's state, and the run resumed inside the
// child waits the time left.
func TestWaitInsideChildResumesWithTimeLeft(t *testing.T) {
	ctx := context.Background()
	store := impl.NewMemoryCheckpointer()
	dying := &dyingClock{now: t0, dieAt: t0.Add(5 * time.Second)}
	var clock impl.Clock = dying
	ids, steps := []string{"A", "W"}, []int{0, 1}
	child := func(ctx context.Context, x *ASLExec, in any) (any, error) {
		step, in, err := ResumeChild(ctx, x, ids, steps, in)
		if err != nil {
			return nil, err
		}
		if step == 0 {
			if err := x.SaveChild(ctx, "W", in, nil); err != nil {
				return nil, err
			}
		}
		return x.Do(ctx, &ASLState{Name: "W"}, x.Enter(ctx, "W"), in, x.Wait(&Wait{Seconds: 8, HasSeconds: true}))
	}
	s := &impl.Sessions[any, any]{Workflow: "w", Schema: "json", Start: "Inc", Fresh: EmptyASLInput, Decode: DecodeASLInput, Merge: MergeASLInput,
		Run: func(ctx context.Context, sess *impl.Session, in any, _ string) (any, error) {
			cfg := impl.NewConfig(impl.WithClock(clock))
			x, in, err := NewASLExec(&cfg, "w", nil, in)
			if err != nil {
				return nil, err
			}
			x.SetSession(sess)
			cx := x.Enter(ctx, "Inc")
			cx.input = in
			out, err := child(enterChild(ctx, x, cx, x.scope(ctx)), x, in)
			return out, x.Save(ctx, "", out, err)
		}}
	cfg := impl.NewConfig(impl.WithCheckpointer(dying.store(store)))
	_, err := s.Invoke(ctx, &cfg, "s1", nil)
	require.ErrorIs(t, err, errKilled)
	cfg = impl.NewConfig(impl.WithCheckpointer(store)) // a new process
	cp, err := store.Load(ctx, "s1")
	require.NoError(t, err)
	assert.Equal(t, "Inc", cp.Position.State)
	require.Len(t, cp.Position.Inside, 1)
	assert.Equal(t, "W", cp.Position.Inside[0].State)
	require.NotNil(t, cp.Position.Timer)
	assert.Equal(t, t0.Add(8*time.Second), cp.Position.Timer.Until)

	fake := impl.NewFakeClock(t0.Add(5 * time.Second))
	clock = fake
	_, err = s.Resume(ctx, &cfg, "s1")
	require.NoError(t, err)
	assert.Equal(t, []time.Duration{3 * time.Second}, fake.Sleeps())
}

// An Approval inside a compiled-in child keeps its deadline too: a
// decision after it is a States.Timeout.
func TestApprovalInsideChildKeepsItsDeadline(t *testing.T) {
	ctx := context.Background()
	store := impl.NewMemoryCheckpointer()
	var clock impl.Clock = impl.NewFakeClock(t0)
	req := impl.ApprovalRequest{State: "Ask", Prompt: "Go?", Timeout: time.Minute}
	cfg := impl.NewConfig(impl.WithCheckpointer(store), impl.WithClock(clockOf(&clock))) // one Config, as generated code has
	s := &impl.Sessions[any, any]{Workflow: "w", Schema: "json", Start: "Inc", Fresh: EmptyASLInput, Decode: DecodeASLInput, Merge: MergeASLInput,
		Run: func(ctx context.Context, sess *impl.Session, in any, _ string) (any, error) {
			x, in, err := NewASLExec(&cfg, "w", nil, in)
			if err != nil {
				return nil, err
			}
			x.SetSession(sess)
			cx := x.Enter(ctx, "Inc")
			cx.input = in
			cctx := enterChild(ctx, x, cx, x.scope(ctx))
			if _, in, err = ResumeChild(cctx, x, []string{"Ask"}, []int{0}, in); err != nil {
				return nil, err
			}
			out, err := x.Do(cctx, &ASLState{Name: "Ask"}, x.Enter(cctx, "Ask"), in, x.Approval(req, true))
			if err = x.SaveChild(cctx, "", out, err); err != nil {
				return nil, err
			}
			return out, x.Save(ctx, "", out, nil)
		}}
	_, err := s.Invoke(ctx, &cfg, "s1", nil)
	require.True(t, impl.IsInterrupted(err), "%v", err)
	cp, err := store.Load(ctx, "s1")
	require.NoError(t, err)
	require.NotNil(t, cp.Position.Timer)
	assert.Equal(t, "Ask", cp.Position.Inside[0].State)
	assert.Equal(t, t0.Add(time.Minute), cp.Position.Timer.Until)

	clock = impl.NewFakeClock(t0.Add(time.Hour))
	_, err = s.Decide(ctx, &cfg, "s1", "yes")
	assert.True(t, IsTimeout(err), "%v", err)
}
