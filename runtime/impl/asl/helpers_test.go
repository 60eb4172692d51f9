package asl

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/flowc-dev/flowc/runtime/impl"
	"github.com/stretchr/testify/require"
)

// testSession is the session that generated code is given for id on cfg's
// checkpointer (a new memory one when cfg has none): a session whose
// checkpoint is saved there resumes where it says.
func testSession(t *testing.T, cfg *impl.Config, id string) *impl.Session {
	t.Helper()
	if cfg.Checkpointer == nil {
		cfg.Checkpointer = impl.NewMemoryCheckpointer()
	}
	var sess *impl.Session
	s := &impl.Sessions[any, any]{Workflow: "m", Schema: "json", Start: "A", Fresh: EmptyASLInput, Decode: DecodeASLInput, Merge: MergeASLInput,
		Run: func(_ context.Context, got *impl.Session, v any, _ string) (any, error) {
			sess = got
			return v, nil
		}}
	_, err := s.Invoke(context.Background(), cfg, id, nil)
	require.NoError(t, err)
	return sess
}

// savedSession is testSession for a session whose last checkpoint, still
// running, is at pos.
func savedSession(t *testing.T, cfg *impl.Config, id string, pos impl.Position) *impl.Session {
	t.Helper()
	if cfg.Checkpointer == nil {
		cfg.Checkpointer = impl.NewMemoryCheckpointer()
	}
	cp := &impl.Checkpoint{Session: id, Workflow: "m", Schema: "json", Status: impl.StatusRunning, Position: pos, State: json.RawMessage(`{}`)}
	require.NoError(t, cfg.Checkpointer.Save(context.Background(), cp))
	return testSession(t, cfg, id)
}

// nothingSaved asserts that no checkpoint of id was saved on cfg.
func nothingSaved(t *testing.T, cfg *impl.Config, id string) {
	t.Helper()
	_, err := cfg.Checkpointer.Load(context.Background(), id)
	require.ErrorIs(t, err, impl.ErrNoCheckpoint)
}

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
func (c *dyingClock) store(cp impl.Checkpointer) impl.Checkpointer { return &mortalStore{cp, c} }

type mortalStore struct {
	impl.Checkpointer
	clock *dyingClock
}

func (m *mortalStore) Save(ctx context.Context, cp *impl.Checkpoint) error {
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

// clockOf is a Clock that reads whichever clock *c holds at the moment.
func clockOf(c *impl.Clock) impl.Clock { return indirectClock{c} }

type indirectClock struct{ c *impl.Clock }

func (i indirectClock) Now() time.Time { return (*i.c).Now() }

func (i indirectClock) Sleep(ctx context.Context, d time.Duration) error { return (*i.c).Sleep(ctx, d) }
