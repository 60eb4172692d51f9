package aslwait

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/flowc-dev/flowc/checkpoint/sqlite"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// team builds and ships; Ship fails its first failShips calls. With log
// set, every call appends the state's name to that file, so that a test
// counts the calls across processes.
type team struct {
	log       string
	mu        sync.Mutex
	failShips int
	ships     int
}

func (t *team) note(state string) {
	if t.log == "" {
		return
	}
	f, err := os.OpenFile(t.log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		panic(err)
	}
	defer f.Close()
	if _, err := f.WriteString(state + "\n"); err != nil {
		panic(err)
	}
}

func (t *team) Build(context.Context, any) (any, error) {
	t.note("build")
	return "b-1", nil
}

func (t *team) Ship(context.Context, any) (any, error) {
	t.note("ship")
	t.mu.Lock()
	defer t.mu.Unlock()
	t.ships++
	if t.ships <= t.failShips {
		return nil, errors.New("the registry is down")
	}
	return true, nil
}

const (
	crashDB  = "FLOWC_WAIT_DB"
	crashLog = "FLOWC_WAIT_LOG"
)

// TestMain lets the test binary play the process that is killed: with
// FLOWC_WAIT_DB set, it runs session "crash", which sleeps 5 s in the Wait
// state CoolOff, on the real clock. Otherwise it runs the tests, and
// fails if any leaves a goroutine behind.
func TestMain(m *testing.M) {
	if db := os.Getenv(crashDB); db != "" {
		store, err := sqlite.Open(db)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		w := NewRelease(&team{log: os.Getenv(crashLog)}, flowcrt.WithCheckpointer(store))
		_, err = w.Invoke(context.Background(), "crash", map[string]any{"cool": 5})
		fmt.Fprintln(os.Stderr, "the run was meant to be killed in its Wait, but ended:", err)
		os.Exit(4)
	}
	goleak.VerifyTestMain(m)
}

// A process killed with SIGKILL 2.5 s into the 5 s Wait is resumed from the
// SQLite file by another, which waits the 2.5 s left: the run ships at the
// deadline its checkpoint holds, not 5 s after the resumption, and Build,
// which completed before the kill, is not run again. A Wait ends at its
// deadline whatever happens to the process meanwhile, as a Step Functions
// Wait state does (States Language specification, "Wait State"; issue 22).
func TestWaitResumesAfterSIGKILL(t *testing.T) {
	dir := t.TempDir()
	db, log := filepath.Join(dir, "release.db"), filepath.Join(dir, "calls.log")
	child := exec.Command(os.Args[0], "-test.run=^$")
	child.Env = append(os.Environ(), crashDB+"="+db, crashLog+"="+log)
	child.Stderr = os.Stderr
	require.NoError(t, child.Start())

	ctx := context.Background()
	store, err := sqlite.Open(db)
	require.NoError(t, err)
	t.Cleanup(func() { store.Close() })
	until := waitForTimer(t, store, "crash")
	time.Sleep(time.Until(until.Add(-2500 * time.Millisecond)))
	require.NoError(t, child.Process.Signal(syscall.SIGKILL))
	err = child.Wait()
	var exit *exec.ExitError
	require.True(t, errors.As(err, &exit), "the child must die of the signal: %v", err)
	assert.Equal(t, syscall.SIGKILL, exit.Sys().(syscall.WaitStatus).Signal())

	out, err := NewRelease(&team{log: log}, flowcrt.WithCheckpointer(store)).Resume(ctx, "crash")
	end := time.Now()
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"cool": 5.0, "build": "b-1", "shipped": true}, out)
	assert.False(t, end.Before(until), "the Wait lasts until its deadline")
	// Waiting the whole 5 s again would end 2.5 s after the deadline.
	assert.True(t, end.Before(until.Add(1500*time.Millisecond)), "the resumed run waited only what was left: it ended %s after the deadline", end.Sub(until))
	data, err := os.ReadFile(log)
	require.NoError(t, err)
	assert.Equal(t, []string{"build", "ship"}, strings.Fields(string(data)))
}

// waitForTimer polls the session's checkpoint until it holds the deadline
// of the CoolOff Wait, and returns that deadline.
func waitForTimer(t *testing.T, store *sqlite.Store, session string) time.Time {
	t.Helper()
	give := time.Now().Add(60 * time.Second) // the child may be slow to start on a busy machine
	for time.Now().Before(give) {
		cp, err := store.Load(context.Background(), session)
		if err == nil && cp.Position.Timer != nil {
			require.Equal(t, "CoolOff", cp.Position.Timer.State)
			require.Equal(t, "CoolOff", cp.Position.State)
			return cp.Position.Timer.Until
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the child never saved the Wait's deadline")
	return time.Time{}
}

var t0 = time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)

// dyingClock is the fake clock of a process killed at dieAt: the sleep
// that reaches past it stops there and fails.
type dyingClock struct {
	mu    sync.Mutex
	now   time.Time
	dieAt time.Time
	dead  bool
}

// store is cp as the process of c sees it: once c has died, the process
// writes nothing more, not even the failed checkpoint of its run.
func (c *dyingClock) store(cp flowcrt.Checkpointer) flowcrt.Checkpointer { return &mortalStore{cp, c} }

type mortalStore struct {
	flowcrt.Checkpointer
	clock *dyingClock
}

func (m *mortalStore) Save(ctx context.Context, cp *flowcrt.Checkpoint) error {
	m.clock.mu.Lock()
	dead := m.clock.dead
	m.clock.mu.Unlock()
	if dead {
		return errKilled
	}
	return m.Checkpointer.Save(ctx, cp)
}

var errKilled = errors.New("killed")

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

// Ship fails twice; the process dies 1 s into the 4 s delay before the
// second retry. The resumed run sleeps the 3 s left and makes the third
// attempt, which ships: the retries count on across processes, and the
// Wait before them is not waited again.
func TestRetryDelayResumesWithTimeLeft(t *testing.T) {
	ctx := context.Background()
	store := flowcrt.NewMemoryCheckpointer()
	h := &team{failShips: 2}
	// 10 s of Wait, 2 s before the first retry, then the kill.
	dying := &dyingClock{now: t0, dieAt: t0.Add(13 * time.Second)}
	_, err := NewRelease(h, flowcrt.WithCheckpointer(dying.store(store)), flowcrt.WithClock(dying)).Invoke(ctx, "s1", map[string]any{"cool": 10})
	require.ErrorIs(t, err, errKilled)
	cp, err := store.Load(ctx, "s1")
	require.NoError(t, err)
	require.NotNil(t, cp.Position.Timer)
	assert.Equal(t, "Ship", cp.Position.Timer.State)
	assert.Equal(t, []int{2}, cp.Position.Timer.Retries)
	assert.Equal(t, t0.Add(16*time.Second), cp.Position.Timer.Until, "2 s, then 4 s: IntervalSeconds doubled by the default BackoffRate")

	fake := flowcrt.NewFakeClock(t0.Add(13 * time.Second))
	out, err := NewRelease(h, flowcrt.WithCheckpointer(store), flowcrt.WithClock(fake)).Resume(ctx, "s1")
	require.NoError(t, err)
	assert.Equal(t, true, out.(map[string]any)["shipped"])
	assert.Equal(t, 3, h.ships)
	assert.Equal(t, []time.Duration{3 * time.Second}, fake.Sleeps())
}
