package checkpointfanout

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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

// batch records its calls, in a file when log is set (to count them across
// processes) and in calls; it blocks forever in the call named block.
type batch struct {
	log   string
	block string
	// rightFails makes branch "right" fail once branch "left" is saved.
	rightFails func() error
	workFails  string // the item whose work fails, once

	mu    sync.Mutex
	calls []string
}

func (h *batch) note(call string) {
	h.mu.Lock()
	h.calls = append(h.calls, call)
	h.mu.Unlock()
	if h.log != "" {
		f, err := os.OpenFile(h.log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			panic(err)
		}
		fmt.Fprintln(f, call)
		f.Close()
	}
	if call == h.block {
		select {} // killed here
	}
}

func (h *batch) Load(context.Context, BatchState) (BatchUpdate, error) {
	h.note("load")
	return BatchUpdate{}, nil
}

func (h *batch) Work(_ context.Context, _ BatchState, item string) (BatchUpdate, error) {
	h.note("work-" + item)
	if item == h.workFails {
		h.workFails = ""
		return BatchUpdate{}, errors.New(item + " is down")
	}
	return BatchUpdate{}.WithDone([]string{item}).WithTotal(len(item)), nil
}

func (h *batch) Split(context.Context, BatchState) (BatchUpdate, error) {
	h.note("split")
	return BatchUpdate{}, nil
}

func (h *batch) Left(context.Context, BatchState) (BatchUpdate, error) {
	h.note("left")
	return BatchUpdate{}.WithNotes(map[string]string{"left": "done"}), nil
}

func (h *batch) Right(context.Context, BatchState) (BatchUpdate, error) {
	h.note("right")
	if h.rightFails != nil {
		fails := h.rightFails
		h.rightFails = nil
		return BatchUpdate{}, fails()
	}
	return BatchUpdate{}.WithNotes(map[string]string{"right": "done"}), nil
}

func (h *batch) Report(context.Context, BatchState) (BatchUpdate, error) {
	h.note("report")
	return BatchUpdate{}, nil
}

var input = BatchState{Items: []string{"a", "bb", "ccc", "dddd"}}

func uninterrupted(t *testing.T) BatchState {
	t.Helper()
	out, err := NewBatch(&batch{}).Run(context.Background(), input)
	require.NoError(t, err)
	return out
}

const (
	crashDB  = "FLOWC_CRASH_DB"
	crashLog = "FLOWC_CRASH_LOG"
)

// TestMain lets the test binary play the process that crashes: with
// FLOWC_CRASH_DB set, it runs a session that blocks on the third item.
func TestMain(m *testing.M) {
	if db := os.Getenv(crashDB); db != "" {
		store, err := sqlite.Open(db)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		w := NewBatch(&batch{log: os.Getenv(crashLog), block: "work-ccc"}, flowcrt.WithCheckpointer(store))
		_, err = w.Invoke(context.Background(), "crash", &input)
		fmt.Fprintln(os.Stderr, "the run was meant to block, but ended:", err)
		os.Exit(4)
	}
	os.Exit(m.Run())
}

// A process killed with SIGKILL inside a map, after two items were saved,
// is resumed from the SQLite file: the saved items are not run again, and
// the run ends in the state of an uninterrupted run.
func TestResumeMapAfterSIGKILL(t *testing.T) {
	dir := t.TempDir()
	db, log := filepath.Join(dir, "batch.db"), filepath.Join(dir, "calls.log")
	child := exec.Command(os.Args[0], "-test.run=^$")
	child.Env = append(os.Environ(), crashDB+"="+db, crashLog+"="+log)
	child.Stderr = os.Stderr
	require.NoError(t, child.Start())
	waitForLine(t, log, "work-ccc")
	require.NoError(t, child.Process.Signal(syscall.SIGKILL))
	var exit *exec.ExitError
	require.True(t, errors.As(child.Wait(), &exit))

	ctx := context.Background()
	store, err := sqlite.Open(db)
	require.NoError(t, err)
	defer store.Close()
	cp, err := store.Load(ctx, "crash")
	require.NoError(t, err)
	require.NotNil(t, cp.Position.FanOut)
	assert.Equal(t, "load", cp.Position.State)
	assert.Len(t, cp.Position.FanOut.Done, 2, "items a and bb were saved")

	out, err := NewBatch(&batch{log: log}, flowcrt.WithCheckpointer(store)).Resume(ctx, "crash")
	require.NoError(t, err)
	assert.Equal(t, uninterrupted(t), out)
	assert.Equal(t, []string{"load", "work-a", "work-bb", "work-ccc", "work-ccc", "work-dddd", "split", "left", "right", "report"},
		sortBranches(readLines(t, log)))
}

// A parallel branch that fails after its sibling was saved: the session is
// saved failed at the fan-out with the sibling's updates, and redriving it
// (Step Functions' RedriveExecution) runs the failed branch again, not the
// saved one.
func TestRedriveParallelBranch(t *testing.T) {
	ctx := context.Background()
	store := flowcrt.NewMemoryCheckpointer()
	h := &batch{rightFails: func() error {
		waitFor(t, func() bool {
			cp, err := store.Load(ctx, "s")
			return err == nil && cp.Position.State == "split" && cp.Position.FanOut != nil && cp.Position.FanOut.Done[0] != nil
		})
		return errors.New("the right branch fails")
	}}
	w := NewBatch(h, flowcrt.WithCheckpointer(store))
	_, err := w.Invoke(ctx, "s", &input)
	require.ErrorContains(t, err, "the right branch fails")
	cp, err := store.Load(ctx, "s")
	require.NoError(t, err)
	assert.Equal(t, flowcrt.StatusFailed, cp.Status)
	assert.Equal(t, "split", cp.Position.State)
	assert.Equal(t, &flowcrt.Failure{Error: "TaskFailed", Cause: `state "right": the right branch fails`}, cp.Position.Failure)
	require.NotNil(t, cp.Position.FanOut)
	assert.Contains(t, cp.Position.FanOut.Done, 0, "the left branch")

	h.calls = nil
	out, err := w.Resume(flowcrt.WithRedrive(ctx), "s")
	require.NoError(t, err)
	assert.Equal(t, uninterrupted(t), out)
	assert.Equal(t, []string{"right", "report"}, h.calls, "split's handler and the left branch ran before and were saved")

	h.calls = nil
	_, err = w.Resume(flowcrt.WithRedrive(ctx), "s")
	assert.ErrorIs(t, err, flowcrt.ErrNotRedrivable, "the session succeeded")
	assert.Empty(t, h.calls)
}

// An item of the map fails once: the session is saved failed in the map
// with the items before it, and redriving runs the failed item and those
// that had not started, then the rest, to the uninterrupted run's state.
func TestRedriveMapItem(t *testing.T) {
	ctx := context.Background()
	store := flowcrt.NewMemoryCheckpointer()
	h := &batch{workFails: "ccc"}
	w := NewBatch(h, flowcrt.WithCheckpointer(store))
	_, err := w.Invoke(ctx, "s", &input)
	require.ErrorContains(t, err, "ccc is down")
	cp, err := store.Load(ctx, "s")
	require.NoError(t, err)
	assert.Equal(t, flowcrt.StatusFailed, cp.Status)
	assert.Equal(t, "load", cp.Position.State)
	require.NotNil(t, cp.Position.FanOut)
	assert.Len(t, cp.Position.FanOut.Done, 2, "items a and bb (max_concurrency 1)")

	out, err := w.Resume(flowcrt.WithRedrive(ctx), "s")
	require.NoError(t, err)
	assert.Equal(t, uninterrupted(t), out)
	assert.Equal(t, []string{"load", "work-a", "work-bb", "work-ccc", "work-ccc", "work-dddd", "split", "left", "right", "report"},
		sortBranches(h.calls))
	cp, err = store.Load(ctx, "s")
	require.NoError(t, err)
	assert.Equal(t, 1, cp.Position.Redrives)
}

// Without a session the fan-outs run as they always have.
func TestRunWithoutSession(t *testing.T) {
	out := uninterrupted(t)
	assert.Equal(t, []string{"a", "bb", "ccc", "dddd"}, out.Done)
	assert.Equal(t, 10, out.Total)
	assert.Equal(t, map[string]string{"left": "done", "right": "done"}, out.Notes)
}

// The parallel branches run in any order; the log lists them sorted.
func sortBranches(calls []string) []string {
	i := slices.Index(calls, "left")
	j := slices.Index(calls, "right")
	if i > j {
		calls[i], calls[j] = calls[j], calls[i]
	}
	return calls
}

func waitFor(t *testing.T, cond func() bool) {
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Error("timed out")
			return
		}
		time.Sleep(time.Millisecond)
	}
}

func waitForLine(t *testing.T, path, line string) {
	t.Helper()
	waitFor(t, func() bool {
		data, _ := os.ReadFile(path)
		return slices.Contains(strings.Split(string(data), "\n"), line)
	})
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return strings.Fields(string(data))
}
