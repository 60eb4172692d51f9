// Package sessiontest sets up sessions for the tests of the console, of
// `flowc console` and of built programs' --console: a checkpoint that
// waits for a person, and real sessions of two golden machines, one
// waiting for people inside a Map and one failed inside a Map, with the
// graphs the console draws of them. Package sqlitetest saves checkpoints
// in a SQLite file; it is apart so that the browser tests' module does not
// need SQLite.
package sessiontest

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/flowc-dev/flowc/codegen/graph"
	"github.com/flowc-dev/flowc/compiler"
	"github.com/flowc-dev/flowc/console"
	"github.com/flowc-dev/flowc/golden/aslmapapproval"
	"github.com/flowc-dev/flowc/golden/redrive"
	flowcrt "github.com/flowc-dev/flowc/runtime"
	"github.com/flowc-dev/flowc/session"
)

// Waiting is the checkpoint of session id of workflow that waits at state
// Approve for a person to answer "Ship it?" with yes or no.
func Waiting(id, workflow string) *session.Checkpoint {
	return &session.Checkpoint{Session: id, Workflow: workflow, Schema: "json", Step: 1,
		Status: session.StatusInterrupted, Position: session.Position{State: "Approve"}, State: []byte(`{}`),
		Pending: &session.Pending{State: "Approve", Prompt: "Ship it?", Options: []string{"yes", "no"}}, Time: time.Now()}
}

// Graph is the graph the console draws of the definition at path,
// compiled as `flowc console` compiles it.
func Graph(tb testing.TB, path string) console.Graph {
	tb.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	p, ds := compiler.Compile(path, src, compiler.Options{})
	if p == nil {
		tb.Fatal(ds)
	}
	return console.Graph(graph.Draw(p.Graph()))
}

// Shop runs the handlers of golden/aslmapapproval's release machine:
// items 1 and 3 are risky and stop for approval inside the Map.
type Shop struct{}

func (Shop) Prepare(context.Context, any) (any, error) {
	return map[string]any{"items": []any{
		map[string]any{"id": 1.0, "risky": true}, map[string]any{"id": 2.0, "risky": false}, map[string]any{"id": 3.0, "risky": true},
	}, "signers": []any{"ann"}}, nil
}
func (Shop) Check(_ context.Context, in any) (any, error)  { return in, nil }
func (Shop) Ship(_ context.Context, in any) (any, error)   { return in, nil }
func (Shop) Notify(_ context.Context, in any) (any, error) { return "notified", nil }
func (Shop) Finish(_ context.Context, in any) (any, error) { return in, nil }

// Release runs the release machine over store as session id until it
// waits at items 1 and 3 of its Map ("Review/0/Approve",
// "Review/2/Approve"), and returns the workflow.
func Release(tb testing.TB, store session.Checkpointer, id string) *aslmapapproval.Release {
	tb.Helper()
	wf := aslmapapproval.NewRelease(Shop{}, flowcrt.WithCheckpointer(store))
	_, err := wf.Invoke(context.Background(), id, map[string]any{})
	if wait, ok := errors.AsType[*flowcrt.Interrupted](err); !ok || len(wait.Stops) != 2 {
		tb.Fatalf("session %s should wait at two items: %v", id, err)
	}
	return wf
}

// Flaky runs the handlers of golden/redrive's batch machine: Work fails
// the first time it gets item c, and every call is counted. With Block
// set, Work waits for it to close when it gets c again.
type Flaky struct {
	Block <-chan struct{}
	mu    sync.Mutex
	calls map[string]int
}

// Calls counts the calls of each handler, and of Work for each item
// ("work c").
func (h *Flaky) Calls() map[string]int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return maps.Clone(h.calls)
}

func (h *Flaky) call(key string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.calls == nil {
		h.calls = map[string]int{}
	}
	h.calls[key]++
	return h.calls[key]
}

func (h *Flaky) Load(context.Context, any) (any, error) {
	h.call("load")
	return map[string]any{"items": []any{"a", "b", "c", "d"}}, nil
}

func (h *Flaky) Work(_ context.Context, in any) (any, error) {
	item := fmt.Sprint(in)
	switch n := h.call("work " + item); {
	case item != "c":
	case n == 1:
		return nil, flowcrt.NewError("Flaky", "c is down")
	case h.Block != nil:
		<-h.Block
	}
	return map[string]any{"item": item}, nil
}

func (h *Flaky) Left(context.Context, any) (any, error)        { h.call("left"); return "left", nil }
func (h *Flaky) Right(context.Context, any) (any, error)       { h.call("right"); return "right", nil }
func (h *Flaky) Report(_ context.Context, in any) (any, error) { h.call("report"); return in, nil }

// Batch runs the batch machine over store, with h's handlers, as session
// id until it fails at item c of its Map, and returns the workflow.
func Batch(tb testing.TB, store session.Checkpointer, id string, h *Flaky) *redrive.Batch {
	tb.Helper()
	wf := redrive.NewBatch(h, flowcrt.WithCheckpointer(store))
	if _, err := wf.Invoke(context.Background(), id, map[string]any{}); err == nil || !strings.Contains(err.Error(), "c is down") {
		tb.Fatalf("session %s should fail at item c: %v", id, err)
	}
	return wf
}
