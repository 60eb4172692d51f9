package checkpoint

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

	"github.com/flowc-dev/flowc/checkpoint/sqlite"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// chat counts the turns and answers each; when log is set, every call
// appends the state's id to that file, so that a test can count the calls
// across processes.
type chat struct {
	log   string
	block string // the state whose call never returns (in the crashing child)
}

func (h chat) note(state string) {
	if h.log == "" {
		return
	}
	f, err := os.OpenFile(h.log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		panic(err)
	}
	defer f.Close()
	if _, err := f.WriteString(state + "\n"); err != nil {
		panic(err)
	}
	if state == h.block {
		select {} // killed here
	}
}

func (h chat) Receive(context.Context, ChatState) (ChatUpdate, error) {
	h.note("receive")
	return ChatUpdate{}, nil
}

func (h chat) Count(_ context.Context, s ChatState) (ChatUpdate, error) {
	h.note("count")
	return ChatUpdate{}.WithCounter(s.Counter + 1), nil
}

func (h chat) Reply(_ context.Context, s ChatState) (ChatUpdate, error) {
	h.note("reply")
	return ChatUpdate{}.WithMessages([]string{fmt.Sprintf("reply %d", s.Counter)}), nil
}

func openStore(t *testing.T, path string) *sqlite.Store {
	t.Helper()
	store, err := sqlite.Open(path)
	require.NoError(t, err)
	t.Cleanup(func() { store.Close() })
	return store
}

// The three invocations of llmfy's continuation example: the second one's
// messages are appended, its status replaces the old one, and the counter
// is carried over; with no input the finished session starts again on its
// state. On the SQLite store and in memory alike.
func TestContinuation(t *testing.T) {
	stores := map[string]flowcrt.Checkpointer{
		"memory": flowcrt.NewMemoryCheckpointer(),
		"sqlite": openStore(t, filepath.Join(t.TempDir(), "chat.db")),
	}
	for name, store := range stores {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			w := NewChat(chat{}, flowcrt.WithCheckpointer(store))
			first, err := w.Invoke(ctx, "user-123", &ChatState{Messages: []string{}, Status: "start", Counter: 0})
			require.NoError(t, err)
			assert.Equal(t, ChatState{Messages: []string{"reply 1"}, Status: "start", Counter: 1}, first)

			second, err := w.InvokeUpdate(ctx, "user-123", ChatUpdate{}.WithMessages([]string{"new input"}).WithStatus("continuing"))
			require.NoError(t, err)
			assert.Equal(t, ChatState{Messages: []string{"reply 1", "new input", "reply 2"}, Status: "continuing", Counter: 2}, second)

			third, err := w.Invoke(ctx, "user-123", nil)
			require.NoError(t, err)
			assert.Equal(t, ChatState{Messages: []string{"reply 1", "new input", "reply 2", "reply 3"}, Status: "continuing", Counter: 3}, third)

			cp, err := store.Load(ctx, "user-123")
			require.NoError(t, err)
			assert.Equal(t, flowcrt.StatusFinished, cp.Status)
			assert.Equal(t, "Chat", cp.Workflow)
			assert.True(t, strings.HasPrefix(cp.Schema, chatSchema+" "), "the schema hash, then the state's shape: %s", cp.Schema)
			assert.Equal(t, 9, cp.Step, "three runs of three states")

			again, err := w.Resume(ctx, "user-123")
			require.NoError(t, err)
			assert.Equal(t, third, again, "resuming a finished session returns its state")
		})
	}
}

// Invoke merges every field of its input, zero values included: the
// counter is replaced by 0, where InvokeUpdate would have carried it.
func TestInvokeMergesEveryField(t *testing.T) {
	ctx := context.Background()
	w := NewChat(chat{}, flowcrt.WithCheckpointer(flowcrt.NewMemoryCheckpointer()))
	_, err := w.Invoke(ctx, "s", &ChatState{Status: "start", Counter: 5})
	require.NoError(t, err)
	out, err := w.Invoke(ctx, "s", &ChatState{Messages: []string{"hi"}, Status: "again"})
	require.NoError(t, err)
	assert.Equal(t, ChatState{Messages: []string{"reply 6", "hi", "reply 1"}, Status: "again", Counter: 1}, out)
}

const (
	crashDB  = "FLOWC_CRASH_DB"
	crashLog = "FLOWC_CRASH_LOG"
)

// TestMain lets the test binary play the process that crashes: with
// FLOWC_CRASH_DB set, it runs a session that blocks in state "reply" until
// it is killed.
func TestMain(m *testing.M) {
	if db := os.Getenv(crashDB); db != "" {
		store, err := sqlite.Open(db)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		w := NewChat(chat{log: os.Getenv(crashLog), block: "reply"}, flowcrt.WithCheckpointer(store))
		_, err = w.Invoke(context.Background(), "crash", &ChatState{Messages: []string{"hello"}, Status: "start"})
		fmt.Fprintln(os.Stderr, "the run was meant to block, but ended:", err)
		os.Exit(4)
	}
	os.Exit(m.Run())
}

// A process killed with SIGKILL in the middle of a run is resumed from the
// SQLite file by another: it ends in the state an uninterrupted run ends
// in, and the states that had completed are not run again.
func TestResumeAfterSIGKILL(t *testing.T) {
	dir := t.TempDir()
	db, log := filepath.Join(dir, "chat.db"), filepath.Join(dir, "calls.log")
	child := exec.Command(os.Args[0], "-test.run=^$")
	child.Env = append(os.Environ(), crashDB+"="+db, crashLog+"="+log)
	child.Stderr = os.Stderr
	require.NoError(t, child.Start())
	waitForLine(t, log, "reply")
	require.NoError(t, child.Process.Signal(syscall.SIGKILL))
	err := child.Wait()
	var exit *exec.ExitError
	require.True(t, errors.As(err, &exit), "the child must die of the signal: %v", err)
	assert.Equal(t, syscall.SIGKILL, exit.Sys().(syscall.WaitStatus).Signal())

	ctx := context.Background()
	store := openStore(t, db)
	cp, err := store.Load(ctx, "crash")
	require.NoError(t, err)
	assert.Equal(t, "reply", cp.Position.State, "the last checkpoint is the one after count")

	resumed, err := NewChat(chat{log: log}, flowcrt.WithCheckpointer(store)).Resume(ctx, "crash")
	require.NoError(t, err)
	want, err := NewChat(chat{}).Run(ctx, ChatState{Messages: []string{"hello"}, Status: "start"})
	require.NoError(t, err)
	assert.Equal(t, want, resumed)
	assert.Equal(t, []string{"receive", "count", "reply", "reply"}, readLines(t, log),
		"receive and count completed before the kill and ran once; reply, interrupted, ran again")
}

func waitForLine(t *testing.T, path, line string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		data, _ := os.ReadFile(path)
		for _, l := range strings.Split(string(data), "\n") {
			if l == line {
				return
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("the child never wrote %q to %s", line, path)
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return strings.Fields(string(data))
}

// Many sessions run at once on one database, through two stores as two
// processes would have; each ends with its own state.
func TestConcurrentSessions(t *testing.T) {
	db := filepath.Join(t.TempDir(), "shared.db")
	stores := []*sqlite.Store{openStore(t, db), openStore(t, db)}
	ctx := context.Background()
	const sessions = 16
	var wg sync.WaitGroup
	errs := make([]error, sessions)
	for i := range sessions {
		wg.Go(func() {
			w := NewChat(chat{}, flowcrt.WithCheckpointer(stores[i%2]))
			id := fmt.Sprintf("session-%02d", i)
			for turn := range 3 {
				if _, err := w.InvokeUpdate(ctx, id, ChatUpdate{}.WithStatus(fmt.Sprintf("turn %d", turn))); err != nil {
					errs[i] = err
					return
				}
			}
		})
	}
	wg.Wait()
	require.NoError(t, errors.Join(errs...))
	ids, err := stores[0].List(ctx)
	require.NoError(t, err)
	assert.Len(t, ids, sessions)
	for _, id := range ids {
		out, err := NewChat(chat{}, flowcrt.WithCheckpointer(stores[1])).Resume(ctx, id)
		require.NoError(t, err)
		assert.Equal(t, ChatState{Messages: []string{"reply 1", "reply 2", "reply 3"}, Status: "turn 2", Counter: 3}, out, id)
	}
}

// A checkpoint of another state schema is refused, naming both hashes;
// so is one of another workflow, and a session with no checkpoint cannot
// be resumed.
func TestRefusedCheckpoints(t *testing.T) {
	ctx := context.Background()
	store := flowcrt.NewMemoryCheckpointer()
	w := NewChat(chat{}, flowcrt.WithCheckpointer(store))
	_, err := w.Invoke(ctx, "s", nil)
	require.NoError(t, err)
	cp, err := store.Load(ctx, "s")
	require.NoError(t, err)

	cp.Schema = "sha256:0000000000000000"
	cp.Step++ // a save follows the stored step, or the store refuses it
	require.NoError(t, store.Save(ctx, cp))
	_, err = w.Resume(ctx, "s")
	var bad *flowcrt.SessionError
	require.ErrorAs(t, err, &bad)
	assert.ErrorContains(t, err, "sha256:0000000000000000")
	assert.ErrorContains(t, err, chatSchema)

	cp.Schema, cp.Workflow = chatSchema, "Other"
	cp.Step++ // a save follows the stored step, or the store refuses it
	require.NoError(t, store.Save(ctx, cp))
	_, err = w.Invoke(ctx, "s", nil)
	assert.ErrorContains(t, err, `its checkpoint is a run of workflow "Other", not "Chat"`)

	cp.Workflow, cp.Status, cp.Position.State = "Chat", flowcrt.StatusRunning, "nowhere"
	cp.Step++ // a save follows the stored step, or the store refuses it
	require.NoError(t, store.Save(ctx, cp))
	_, err = w.Resume(ctx, "s")
	assert.ErrorContains(t, err, `its checkpoint is at state "nowhere"`)

	_, err = w.Resume(ctx, "unknown")
	assert.ErrorIs(t, err, flowcrt.ErrNoCheckpoint)
	_, err = NewChat(chat{}).Invoke(ctx, "s", nil)
	assert.ErrorContains(t, err, "sessions need a checkpointer")
}
