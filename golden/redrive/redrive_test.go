package redrive

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/checkpoint/sqlite"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// Redrive, as Step Functions' RedriveExecution (Step Functions developer
// guide, "Redriving executions"): a failed session goes on from the state
// that failed, with the input it failed on; the states that succeeded
// before it are not run again, and in a Map or Parallel state only the
// iterations and branches that failed or did not finish are. The
// handlers here fail once where they are told to, ignore cancellation
// (so a sibling that was running when another failed still finishes and
// is kept) and count their calls, across the runs of a session.

// calls counts the handler calls by key and fails the first call of each
// key in failOnce with an error named errName.
type calls struct {
	mu       sync.Mutex
	n        map[string]int
	failOnce map[string]bool
	errName  string
}

func newCalls(errName string, failOnce ...string) *calls {
	c := &calls{n: map[string]int{}, failOnce: map[string]bool{}, errName: errName}
	for _, k := range failOnce {
		c.failOnce[k] = true
	}
	return c
}

func (c *calls) call(key string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n[key]++
	if c.failOnce[key] {
		delete(c.failOnce, key)
		return flowcrt.NewError(c.errName, key+" is down")
	}
	return nil
}

func (c *calls) counts() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := map[string]int{}
	for k, v := range c.n {
		out[k] = v
	}
	return out
}

// batch are the States Language machine's handlers.
type batch struct{ *calls }

func (h batch) Load(_ context.Context, in any) (any, error) {
	return map[string]any{"items": []any{"a", "b", "c", "d"}}, h.call("load")
}

func (h batch) Work(_ context.Context, in any) (any, error) {
	item := fmt.Sprint(in)
	return map[string]any{"item": item, "ok": true}, h.call("work " + item)
}

func (h batch) Left(context.Context, any) (any, error)  { return "left done", h.call("left") }
func (h batch) Right(context.Context, any) (any, error) { return "right done", h.call("right") }
func (h batch) Report(_ context.Context, in any) (any, error) {
	return in, h.call("report")
}

// failed loads the session's checkpoint and checks that it failed at
// state with the error the handlers throw.
func failed(t *testing.T, store flowcrt.Checkpointer, id, state, errName, cause string, redrives int) *flowcrt.Checkpoint {
	t.Helper()
	cp, err := store.Load(context.Background(), id)
	require.NoError(t, err)
	assert.Equal(t, flowcrt.StatusFailed, cp.Status)
	assert.Equal(t, state, cp.Position.State, "the state that failed")
	assert.Equal(t, &flowcrt.Failure{Error: errName, Cause: cause}, cp.Position.Failure)
	assert.Equal(t, redrives, cp.Position.Redrives)
	return cp
}

// Item 2 of 4 of a Map fails once: the session fails at the Map with the
// other items kept; redriven, it runs item 2 alone and fails again in a
// Parallel branch, with the other branch kept; redriven again, it runs
// that branch alone and ends with the output of an uninterrupted run.
// Each run is a new workflow on the SQLite file, as a new process is.
func TestRedriveMapAndParallel(t *testing.T) {
	ctx := context.Background()
	want, err := NewBatch(batch{newCalls("Flaky")}).Run(ctx, map[string]any{})
	require.NoError(t, err)

	store, err := sqlite.Open(filepath.Join(t.TempDir(), "s.db"))
	require.NoError(t, err)
	defer store.Close()
	h := batch{newCalls("Flaky", "work c", "right")}
	run := func() *Batch { return NewBatch(h, flowcrt.WithCheckpointer(store)) }

	_, err = run().Invoke(ctx, "b1", map[string]any{})
	require.ErrorContains(t, err, "c is down")
	cp := failed(t, store, "b1", "Each", "Flaky", "work c is down", 0)
	require.NotNil(t, cp.Position.FanOut)
	assert.NotContains(t, cp.Position.FanOut.Done, 2, "the item that failed")

	_, err = run().Resume(flowcrt.WithRedrive(ctx), "b1")
	require.ErrorContains(t, err, "right is down")
	cp = failed(t, store, "b1", "Both", "Flaky", "right is down", 1)
	require.NotNil(t, cp.Position.FanOut)
	assert.Contains(t, cp.Position.FanOut.Done, 0, "the left branch, which finished")

	out, err := run().Resume(flowcrt.WithRedrive(ctx), "b1")
	require.NoError(t, err)
	assert.Equal(t, want, out)
	assert.Equal(t, map[string]int{"load": 1, "work a": 1, "work b": 1, "work c": 2, "work d": 1, "left": 1, "right": 2, "report": 1},
		h.counts(), "only what failed ran again")
	cp, err = store.Load(ctx, "b1")
	require.NoError(t, err)
	assert.Equal(t, flowcrt.StatusFinished, cp.Status)
	assert.Nil(t, cp.Position.Failure)
	assert.Equal(t, 2, cp.Position.Redrives, "redriveCount")
}

// A redrive of a session whose last run did not fail is refused before
// anything runs (Step Functions' ExecutionNotRedrivable).
func TestRedriveRefusesASessionThatDidNotFail(t *testing.T) {
	ctx := context.Background()
	store := flowcrt.NewMemoryCheckpointer()
	h := batch{newCalls("Flaky")}
	w := NewBatch(h, flowcrt.WithCheckpointer(store))
	_, err := w.Resume(flowcrt.WithRedrive(ctx), "none")
	require.ErrorIs(t, err, flowcrt.ErrNotRedrivable)
	assert.ErrorContains(t, err, "it has no checkpoint")

	_, err = w.Invoke(ctx, "ok", map[string]any{})
	require.NoError(t, err)
	before := h.counts()
	_, err = w.Invoke(flowcrt.WithRedrive(ctx), "ok", nil)
	var refused *flowcrt.SessionError
	require.ErrorAs(t, err, &refused)
	assert.ErrorIs(t, err, flowcrt.ErrNotRedrivable)
	assert.ErrorContains(t, err, "its last run is succeeded")
	assert.Equal(t, before, h.counts(), "nothing ran")
}

// release are the CodeMie workflow's handlers; the item of an iteration
// is the call's input. The generated mock summarizes the history.
type release struct {
	ReleaseMock
	*calls
}

func (h release) Planner(_ context.Context, c flowcrt.JSONCall) (string, error) {
	switch c.State {
	case "plan":
		return `{"changes": ["db", "docs", "api", "ui"]}`, h.call("plan")
	case "signoff":
		return "sign-offs asked", h.call("signoff")
	}
	return "released", h.call(c.State)
}

func (h release) Checker(_ context.Context, c flowcrt.JSONCall) (string, error) {
	item := fmt.Sprint(c.Input)
	return "checked " + item, h.call("check " + item)
}

func (h release) Auditor(_ context.Context, c flowcrt.JSONCall) (string, error) {
	return c.State + " ok", h.call(c.State)
}

// In a CodeMie workflow, the check of item 2 of 4 of an iteration fails
// once, then one branch of a state_ids fan-out, each with an error that
// CodeMie's retry policy does not retry (RuntimeError): each redrive runs
// only what failed, and the session ends with the context store of an
// uninterrupted run.
func TestRedriveCodeMie(t *testing.T) {
	ctx := context.Background()
	want, err := NewRelease(release{calls: newCalls("RuntimeError")}).Run(ctx, map[string]any{"release": "R7"})
	require.NoError(t, err)

	store := flowcrt.NewMemoryCheckpointer()
	h := release{calls: newCalls("RuntimeError", "check api", "legal")}
	w := NewRelease(h, flowcrt.WithCheckpointer(store))
	_, err = w.Invoke(ctx, "r1", map[string]any{"release": "R7"})
	require.ErrorContains(t, err, "check api is down")
	failed(t, store, "r1", "plan", "RuntimeError", "check api is down", 0)

	_, err = w.Resume(flowcrt.WithRedrive(ctx), "r1")
	require.ErrorContains(t, err, "legal is down")
	failed(t, store, "r1", "signoff", "RuntimeError", "legal is down", 1)

	out, err := w.Resume(flowcrt.WithRedrive(ctx), "r1")
	require.NoError(t, err)
	assert.Equal(t, want, out)
	assert.Equal(t, map[string]int{"plan": 1, "check db": 1, "check docs": 1, "check api": 2, "check ui": 1,
		"signoff": 1, "security": 1, "legal": 2, "summary": 1}, h.counts(), "only what failed ran again")
}
