package impl

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var (
	t0        = time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	errKilled = errors.New("killed")
)

// dyingClock is the fake clock of a process killed at dieAt: the sleep
// that reaches past it stops there and fails, as the run stops when its
// process dies; the time then stands still.
type dyingClock struct {
	mu    sync.Mutex
	now   time.Time
	dieAt time.Time
	dead  bool
}

// store is cp as the process of c sees it: once c has died, the process
// writes nothing more, not even the failed checkpoint of its run.
func (c *dyingClock) store(cp Checkpointer) Checkpointer { return &mortalStore{cp, c} }

type mortalStore struct {
	Checkpointer
	clock *dyingClock
}

func (m *mortalStore) Save(ctx context.Context, cp *Checkpoint) error {
	m.clock.mu.Lock()
	dead := m.clock.dead
	m.clock.mu.Unlock()
	if dead {
		return errKilled
	}
	return m.Checkpointer.Save(ctx, cp)
}

func (c *dyingClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *dyingClock) Sleep(_ context.Context, d time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.now.Add(d).After(c.dieAt) {
		c.now, c.dead = c.dieAt, true
		return errKilled
	}
	c.now = c.now.Add(d)
	return nil
}

// A typed workflow's handler calls retry through Call: the same holds.
func TestCallRetryDelayResumesWithTimeLeft(t *testing.T) {
	type state struct{ N int }
	ctx := context.Background()
	store := NewMemoryCheckpointer()
	dying := &dyingClock{now: t0, dieAt: t0.Add(time.Second)}
	var clock Clock = dying
	p := &Policy{State: "fetch", Retry: []Retrier{{Errors: []string{"ALL"}, MaxAttempts: 4, Interval: 5 * time.Second}}}
	calls := 0
	s := &Sessions[state, state]{Workflow: "typed", Schema: "h", Start: "fetch", Merge: func(s *state, in state) { *s = in },
		Run: func(ctx context.Context, sess *Session, s state, _ string) (state, error) {
			cfg := NewConfig(WithClock(clock))
			err := Call(ctx, &cfg, p, func(context.Context) error {
				calls++
				return errors.New("down")
			})
			return s, sess.Save(ctx, "", s, err)
		}}
	cfg := NewConfig(WithCheckpointer(dying.store(store)))
	_, err := s.Invoke(ctx, &cfg, "s1", &state{N: 7})
	require.ErrorIs(t, err, errKilled)
	cfg = NewConfig(WithCheckpointer(store)) // a new process
	cp, err := store.Load(ctx, "s1")
	require.NoError(t, err)
	assert.Equal(t, `{"N":7}`, string(cp.State), "a checkpoint before the first save holds the state the run started on")
	assert.Equal(t, "fetch", cp.Position.State)

	fake := NewFakeClock(t0.Add(time.Second))
	clock = fake
	_, err = s.Resume(ctx, &cfg, "s1")
	assert.EqualError(t, err, "down")
	assert.Equal(t, 4, calls)
	assert.Equal(t, []time.Duration{4 * time.Second, 5 * time.Second, 5 * time.Second}, fake.Sleeps())
}

// deadlineApprover records the deadline of the context it is asked with,
// and leaves the decision to a person.
type deadlineApprover struct{ left time.Duration }

func (a *deadlineApprover) Approve(ctx context.Context, _ ApprovalRequest) (string, error) {
	d, _ := ctx.Deadline()
	a.left = time.Until(d)
	return "", ErrNoDecision
}

// An approval's timeout runs from when the state was first reached, across
// the runs of its session: asked again, the approver gets the time left,
// the checkpoint keeps the first deadline, and a decision after it is a
// timeout, as on Temporal, where the run waits for the decision on a
// timer of the timeout (flowtemporal.Approve).
func TestApprovalTimeoutKeepsItsDeadline(t *testing.T) {
	type state struct{ Decision string }
	ctx := context.Background()
	store := NewMemoryCheckpointer()
	req := ApprovalRequest{State: "review", Prompt: "Ship it?", Options: []string{"yes", "no"}, Timeout: time.Hour}
	var clock Clock
	var handlers any
	s := &Sessions[state, state]{Workflow: "typed", Schema: "h", Start: "review", Merge: func(s *state, in state) { *s = in },
		Run: func(ctx context.Context, sess *Session, s state, _ string) (state, error) {
			d, err := Approve(ctx, sess, handlers, &req, s)
			s.Decision = d
			return s, sess.Save(ctx, "", s, err)
		}}
	cfg := NewConfig(WithCheckpointer(store), WithClock(clockOf(&clock)))
	run := func(at time.Duration, f func() (state, error)) (state, error) {
		clock = NewFakeClock(t0.Add(at))
		return f()
	}

	_, err := run(0, func() (state, error) { return s.Invoke(ctx, &cfg, "late", nil) })
	require.True(t, IsInterrupted(err), "%v", err)
	cp, err := store.Load(ctx, "late")
	require.NoError(t, err)
	require.NotNil(t, cp.Position.Timer)
	assert.Equal(t, t0.Add(time.Hour), cp.Position.Timer.Until)

	approver := &deadlineApprover{}
	handlers = approver
	_, err = run(20*time.Minute, func() (state, error) { return s.Resume(ctx, &cfg, "late") })
	require.True(t, IsInterrupted(err), "%v", err)
	assert.InDelta(t, (40 * time.Minute).Seconds(), approver.left.Seconds(), 5, "the approver is given the 40 min left")
	cp, err = store.Load(ctx, "late")
	require.NoError(t, err)
	assert.Equal(t, t0.Add(time.Hour), cp.Position.Timer.Until, "asking again keeps the first deadline")

	handlers = nil
	_, err = run(2*time.Hour, func() (state, error) { return s.Decide(ctx, &cfg, "late", "yes") })
	assert.ErrorIs(t, err, ErrStateTimeout)

	_, err = run(0, func() (state, error) { return s.Invoke(ctx, &cfg, "in-time", nil) })
	require.True(t, IsInterrupted(err))
	out, err := run(59*time.Minute, func() (state, error) { return s.Decide(ctx, &cfg, "in-time", "yes") })
	require.NoError(t, err)
	assert.Equal(t, "yes", out.Decision)
}

// clockOf is a Clock that reads whichever clock *c holds at the moment.
func clockOf(c *Clock) Clock { return indirectClock{c} }

type indirectClock struct{ c *Clock }

func (i indirectClock) Now() time.Time { return (*i.c).Now() }

func (i indirectClock) Sleep(ctx context.Context, d time.Duration) error { return (*i.c).Sleep(ctx, d) }
