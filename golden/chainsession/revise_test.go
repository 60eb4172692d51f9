package chainsession

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/checkpoint/sqlite"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// writer drafts and critiques. Its answers depend only on what a call
// carries (the rendered prompt, the input, the composed drafts), so that a
// run resumed in another process answers as an uninterrupted one. With log
// set, every call appends its task's id to that file, so that a test can
// count the calls across processes.
type writer struct {
	log   string
	block int // the draft, counted from 1, whose call never returns (in the crashing child); 0: none
}

func (h writer) note(task string, block bool) {
	if h.log == "" {
		return
	}
	f, err := os.OpenFile(h.log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		panic(err)
	}
	defer f.Close()
	if _, err := f.WriteString(task + "\n"); err != nil {
		panic(err)
	}
	if block {
		select {} // killed here
	}
}

func (h writer) Draft(_ context.Context, call flowcrt.ChainCall) (flowcrt.ChainResult, error) {
	drafts, _ := call.History("drafts")
	n := len(drafts) + 1
	h.note("draft", n == h.block)
	return flowcrt.ChainResult{Output: fmt.Sprintf("draft %d: %s", n, call.Prompt)}, nil
}

func (h writer) Critique(_ context.Context, call flowcrt.ChainCall) (flowcrt.ChainResult, error) {
	h.note("critique", false)
	return flowcrt.ChainResult{Output: fmt.Sprintf("more than %d words", len(strings.Fields(call.Input.(string)))), Eval: "revise"}, nil
}

var topic = map[string]any{"topic": "sessions"}

func openStore(t *testing.T, path string) *sqlite.Store {
	t.Helper()
	store, err := sqlite.Open(path)
	require.NoError(t, err)
	t.Cleanup(func() { store.Close() })
	return store
}

func resultLine(t *testing.T, s flowcrt.ChainState, err error) string {
	t.Helper()
	require.NoError(t, err)
	return string(flowcrt.ResultLine(s, err))
}

// A session's run ends as Run does, with a checkpoint after each of its
// seven tasks; resuming the finished session returns its final state and
// runs nothing. The critique loop stops at its second traversal of
// critique->draft (edge_traversed_at_least), after three drafts.
func TestSessionRunsAsRun(t *testing.T) {
	stores := map[string]flowcrt.Checkpointer{
		"memory": flowcrt.NewMemoryCheckpointer(),
		"sqlite": openStore(t, filepath.Join(t.TempDir(), "revise.db")),
	}
	ctx := context.Background()
	want, err := NewRevise(writer{}).Run(ctx, topic)
	require.NoError(t, err)
	assert.Equal(t, `{"status":"SUCCEEDED","output":{"output":"draft 3: sessions (notes: more than 8 words) `+
		`[3 drafts; last note: more than 8 words]","vars":{"drafts":[`+
		`{"content":"draft 1: sessions (notes: <no value>)","role":"assistant"},`+
		`{"content":"draft 2: sessions (notes: more than 6 words)","role":"assistant"},`+
		`{"content":"draft 3: sessions (notes: more than 8 words)","role":"assistant"}],`+
		`"notes":"more than 8 words"}}}`, resultLine(t, want, nil))
	for name, store := range stores {
		t.Run(name, func(t *testing.T) {
			w := NewRevise(writer{}, flowcrt.WithCheckpointer(store))
			got, err := w.Invoke(ctx, "s1", topic)
			assert.Equal(t, resultLine(t, want, nil), resultLine(t, got, err))
			assert.Equal(t, want.Results, got.Results)
			assert.Equal(t, want.Edges, got.Edges)

			cp, err := store.Load(ctx, "s1")
			require.NoError(t, err)
			assert.Equal(t, flowcrt.StatusFinished, cp.Status)
			assert.Equal(t, "revise", cp.Workflow)
			assert.Equal(t, 7, cp.Step, "draft, critique three times, then publish")

			log := filepath.Join(t.TempDir(), "calls.log")
			again, err := NewRevise(writer{log: log}, flowcrt.WithCheckpointer(store)).Resume(ctx, "s1")
			assert.Equal(t, resultLine(t, want, nil), resultLine(t, again, err))
			assert.NoFileExists(t, log, "a finished session runs no task")
		})
	}
}

// A finished session given new input runs the chain again on it: the
// composed drafts are the session's memory and grow, while the edge counts
// start again, so the loop again stops after three drafts.
func TestSessionNextRun(t *testing.T) {
	ctx := context.Background()
	w := NewRevise(writer{}, flowcrt.WithCheckpointer(flowcrt.NewMemoryCheckpointer()))
	_, err := w.Invoke(ctx, "s", topic)
	require.NoError(t, err)
	second, err := w.Invoke(ctx, "s", map[string]any{"topic": "checkpoints"})
	require.NoError(t, err)
	assert.Equal(t, "draft 6: checkpoints (notes: more than 8 words) [6 drafts; last note: more than 8 words]", second.Output)
	assert.Equal(t, map[string]int{"draft->critique": 3, "critique->draft": 2, "critique->publish": 1}, second.Edges)
	assert.Equal(t, map[string]any{"topic": "checkpoints"}, second.Input)
}

// Sessions refuse what they cannot run: no checkpointer, nothing to
// resume, a checkpoint at a task the chain does not have, one of another
// workflow, and input that is not JSON.
func TestSessionRefusals(t *testing.T) {
	ctx := context.Background()
	_, err := NewRevise(writer{}).Invoke(ctx, "s", topic)
	assert.ErrorContains(t, err, "sessions need a checkpointer")

	store := flowcrt.NewMemoryCheckpointer()
	w := NewRevise(writer{}, flowcrt.WithCheckpointer(store))
	_, err = w.Resume(ctx, "s")
	assert.ErrorIs(t, err, flowcrt.ErrNoCheckpoint)
	_, err = w.Invoke(ctx, "s", make(chan int))
	assert.ErrorContains(t, err, "chain input")

	_, err = w.Invoke(ctx, "s", topic)
	require.NoError(t, err)
	cp, err := store.Load(ctx, "s")
	require.NoError(t, err)
	cp.Status, cp.Position.State = flowcrt.StatusRunning, "review"
	cp.Step++ // a save follows the stored step, or the store refuses it
	require.NoError(t, store.Save(ctx, cp))
	_, err = w.Resume(ctx, "s")
	var bad *flowcrt.SessionError
	require.ErrorAs(t, err, &bad)
	assert.ErrorContains(t, err, `its checkpoint is at state "review", which workflow "revise" cannot resume at`)

	cp.Workflow = "other"
	cp.Step++ // a save follows the stored step, or the store refuses it
	require.NoError(t, store.Save(ctx, cp))
	_, err = w.Resume(ctx, "s")
	assert.ErrorContains(t, err, `its checkpoint is a run of workflow "other", not "revise"`)
}

const (
	crashDB  = "FLOWC_CHAIN_CRASH_DB"
	crashLog = "FLOWC_CHAIN_CRASH_LOG"
)

// TestMain lets the test binary play the process that crashes: with
// FLOWC_CHAIN_CRASH_DB set, it runs a session that blocks in the second
// draft until it is killed.
func TestMain(m *testing.M) {
	if db := os.Getenv(crashDB); db != "" {
		store, err := sqlite.Open(db)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		w := NewRevise(writer{log: os.Getenv(crashLog), block: 2}, flowcrt.WithCheckpointer(store))
		_, err = w.Invoke(context.Background(), "crash", topic)
		fmt.Fprintln(os.Stderr, "the run was meant to block, but ended:", err)
		os.Exit(4)
	}
	os.Exit(m.Run())
}

// A process killed with SIGKILL in the middle of the chain (in its second
// draft) is resumed from the SQLite file by another: its result line is the
// uninterrupted run's, the tasks that had finished are not run again, and
// the loop still stops after three drafts, as the edge count it saved says.
func TestResumeAfterSIGKILL(t *testing.T) {
	dir := t.TempDir()
	db, log := filepath.Join(dir, "revise.db"), filepath.Join(dir, "calls.log")
	child := exec.Command(os.Args[0], "-test.run=^$")
	child.Env = append(os.Environ(), crashDB+"="+db, crashLog+"="+log)
	child.Stderr = os.Stderr
	require.NoError(t, child.Start())
	waitForLines(t, log, 3)
	require.NoError(t, child.Process.Signal(syscall.SIGKILL))
	err := child.Wait()
	var exit *exec.ExitError
	require.True(t, errors.As(err, &exit), "the child must die of the signal: %v", err)
	assert.Equal(t, syscall.SIGKILL, exit.Sys().(syscall.WaitStatus).Signal())

	ctx := context.Background()
	store := openStore(t, db)
	cp, err := store.Load(ctx, "crash")
	require.NoError(t, err)
	assert.Equal(t, flowcrt.StatusRunning, cp.Status)
	assert.Equal(t, "draft", cp.Position.State, "the last checkpoint is the one after the first critique")
	assert.Equal(t, 2, cp.Step)

	resumed, err := NewRevise(writer{log: log}, flowcrt.WithCheckpointer(store)).Resume(ctx, "crash")
	want, werr := NewRevise(writer{}).Run(ctx, topic)
	assert.Equal(t, resultLine(t, want, werr), resultLine(t, resumed, err))
	assert.Equal(t, want.Results, resumed.Results)
	assert.Equal(t, want.Edges, resumed.Edges)
	assert.Equal(t, []string{
		"draft", "critique", "draft", // the killed process: its second draft never returned
		"draft", "critique", "draft", "critique", // the resumed one (publish is a built-in: no handler)
	}, readLines(t, log), "the first draft and critique finished before the kill and ran once; the second draft, "+
		"interrupted, ran again")
}

// waitForLines waits until the file has n lines.
func waitForLines(t *testing.T, path string, n int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		data, _ := os.ReadFile(path)
		if len(strings.Fields(string(data))) >= n {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("the child never wrote %d lines to %s", n, path)
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return strings.Fields(string(data))
}
