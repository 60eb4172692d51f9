package console_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/flowc-dev/flowc/codegen/graph"
	"github.com/flowc-dev/flowc/compiler"
	"github.com/flowc-dev/flowc/console"
	"github.com/flowc-dev/flowc/golden/aslmapapproval"
	"github.com/flowc-dev/flowc/golden/redrive"
	flowcrt "github.com/flowc-dev/flowc/runtime"
	"github.com/flowc-dev/flowc/session"
)

// shop runs the handlers of golden/aslmapapproval's release machine:
// items 1 and 3 are risky and stop for approval inside the Map.
type shop struct{}

func (shop) Prepare(context.Context, any) (any, error) {
	return map[string]any{"items": []any{
		map[string]any{"id": 1.0, "risky": true}, map[string]any{"id": 2.0, "risky": false}, map[string]any{"id": 3.0, "risky": true},
	}, "signers": []any{"ann"}}, nil
}
func (shop) Check(_ context.Context, in any) (any, error)  { return in, nil }
func (shop) Ship(_ context.Context, in any) (any, error)   { return in, nil }
func (shop) Notify(_ context.Context, in any) (any, error) { return "notified", nil }
func (shop) Finish(_ context.Context, in any) (any, error) { return in, nil }

// releaseGraph is the release machine's graph, compiled from its
// definition as `flowc console` does.
func releaseGraph(t *testing.T) console.Graph {
	const def = "../golden/aslmapapproval/release.asl.json"
	src, err := os.ReadFile(def)
	require.NoError(t, err)
	p, ds := compiler.Compile(def, src, compiler.Options{})
	require.NotNil(t, p, ds)
	return console.Graph(graph.Draw(p.Graph()))
}

// The console over a real store and workflow: a session waiting at two
// items of a Map shows both; answering one records it (door "console")
// and the run goes on in the background, where the other still waits; a
// second answer to the same item is told it lost.
func TestRunnerAnswersInsideMap(t *testing.T) {
	ctx := context.Background()
	store := session.NewMemoryCheckpointer()
	wf := aslmapapproval.NewRelease(shop{}, flowcrt.WithCheckpointer(store))
	_, err := wf.Invoke(ctx, "r1", map[string]any{})
	var wait *flowcrt.Interrupted
	require.ErrorAs(t, err, &wait)
	require.Len(t, wait.Stops, 2)

	runner := &console.Runner{Store: store, Resume: func(ctx context.Context, id string) error {
		_, err := wf.Resume(ctx, id)
		return err
	}, Done: func(id string, err error) { t.Logf("run of %s: %v", id, err) }}
	c := serve(t, console.New(console.FromStore(store), console.WithActor(runner),
		console.WithGraphs(map[string]console.Graph{"release": releaseGraph(t)})))

	_, body, _ := c.get("/")
	assert.Regexp(t, `<span class="n">1</span> interrupted`, body)
	_, body, _ = c.get("/sessions/r1")
	assert.Contains(t, body, "Review/0/Approve")
	assert.Contains(t, body, "Review/2/Approve")
	assert.Regexp(t, `<g class="node waiting" id="node-s\d+" data-state="Approve"`, body)

	form := url.Values{"csrf": {c.csrf("/sessions/r1")}, "key": {"Review/0/Approve"}, "option": {"yes"}}
	code, _, _ := c.post("/sessions/r1/decide", form)
	require.Equal(t, http.StatusSeeOther, code)
	runner.Wait()
	_, body, _ = c.get("/sessions/r1")
	assert.NotContains(t, body, `id="stop-Review/0/Approve"`)
	assert.Contains(t, body, `id="stop-Review/2/Approve"`, "the other item still waits")
	assert.Contains(t, body, "answer_received")
	assert.Contains(t, body, `&#34;door&#34;: &#34;console&#34;`)

	code, body, _ = c.post("/sessions/r1/decide", form)
	assert.Equal(t, http.StatusConflict, code)
	assert.Contains(t, body, "someone else answered first")
	// The run took the answer and went on, so that the stop no longer
	// waits: session.Answer still says it was answered, which the Runner
	// gives as ErrConflict.
	err = runner.Decide(ctx, "r1", "Review/0/Approve", "no")
	assert.ErrorIs(t, err, console.ErrConflict)
	assert.ErrorIs(t, err, session.ErrAlreadyAnswered)
	assert.ErrorContains(t, err, `stop "Review/0/Approve" was answered (through console)`)
	err = runner.Decide(ctx, "r1", "Review/1/Approve", "no")
	assert.NotErrorIs(t, err, console.ErrConflict, "item 1 never stopped: nothing answered it")

	code, _, _ = c.post("/sessions/r1/stop", url.Values{"csrf": form["csrf"], "error": {"Cancelled"}})
	require.Equal(t, http.StatusSeeOther, code)
	cp, err := store.Load(ctx, "r1")
	require.NoError(t, err)
	assert.Equal(t, session.StatusStopped, cp.Status)
	code, body, _ = c.post("/sessions/r1/decide", url.Values{"csrf": form["csrf"], "key": {"Review/2/Approve"}, "option": {"yes"}})
	assert.Equal(t, http.StatusConflict, code, "a stopped session takes no answer")
	assert.True(t, strings.Contains(body, "stopped"), body)
}

// flaky runs the handlers of golden/redrive's batch machine: Work fails
// the first time it gets item c, and every call is counted. With block
// set, Work waits for it to close when it gets c again.
type flaky struct {
	mu    sync.Mutex
	calls map[string]int
	block <-chan struct{}
}

func (h *flaky) call(key string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.calls == nil {
		h.calls = map[string]int{}
	}
	h.calls[key]++
	return h.calls[key]
}

func (h *flaky) Load(context.Context, any) (any, error) {
	h.call("load")
	return map[string]any{"items": []any{"a", "b", "c", "d"}}, nil
}

func (h *flaky) Work(_ context.Context, in any) (any, error) {
	item := fmt.Sprint(in)
	switch n := h.call("work " + item); {
	case item != "c":
	case n == 1:
		return nil, flowcrt.NewError("Flaky", "c is down")
	case h.block != nil:
		<-h.block
	}
	return map[string]any{"item": item}, nil
}

func (h *flaky) Left(context.Context, any) (any, error)        { h.call("left"); return "left", nil }
func (h *flaky) Right(context.Context, any) (any, error)       { h.call("right"); return "right", nil }
func (h *flaky) Report(_ context.Context, in any) (any, error) { h.call("report"); return in, nil }

// A real failed session (item c of a Map failed once): its page says what
// it failed with and offers a redrive; the redrive is saved, counted,
// before the page answers (as RedriveExecution returns once the redrive
// started), the run goes on in the background through the workflow's
// Resume under WithRedrive, and only the item that failed runs again.
// A second redrive is refused: the session no longer failed.
func TestRunnerRedrives(t *testing.T) {
	ctx := context.Background()
	store := session.NewMemoryCheckpointer()
	h := &flaky{}
	wf := redrive.NewBatch(h, flowcrt.WithCheckpointer(store))
	_, err := wf.Invoke(ctx, "b1", map[string]any{})
	require.ErrorContains(t, err, "c is down")

	var redriving []bool
	runner := &console.Runner{Store: store, Resume: func(ctx context.Context, id string) error {
		redriving = append(redriving, session.Redriving(ctx))
		_, err := wf.Resume(flowcrt.WithDoor(ctx, session.DoorConsole), id)
		return err
	}}
	c := serve(t, console.New(console.FromStore(store), console.WithActor(runner)))
	_, body, _ := c.get("/sessions/b1")
	assert.Regexp(t, `failed with</span> <code class="error-name">Flaky</code> <span class="cause">c is down</span>`, body)
	assert.Contains(t, body, `/sessions/b1/redrive`)

	csrf := c.csrf("/sessions/b1")
	code, _, _ := c.post("/sessions/b1/redrive", url.Values{"csrf": {csrf}})
	require.Equal(t, http.StatusSeeOther, code)
	cp, err := store.Load(ctx, "b1")
	require.NoError(t, err)
	assert.Equal(t, 1, cp.Position.Redrives, "saved before the page answered")
	assert.NotEqual(t, session.StatusFailed, cp.Status)

	runner.Wait()
	cp, err = store.Load(ctx, "b1")
	require.NoError(t, err)
	assert.Equal(t, session.StatusSucceeded, cp.Status)
	assert.Nil(t, cp.Position.Failure)
	assert.Equal(t, []bool{true}, redriving)
	assert.Equal(t, map[string]int{"load": 1, "work a": 1, "work b": 1, "work c": 2, "work d": 1, "left": 1, "right": 1, "report": 1}, h.calls)
	_, body, _ = c.get("/sessions/b1")
	assert.Contains(t, body, "redriven 1×")
	assert.Contains(t, body, `&#34;door&#34;: &#34;console&#34;`)
	assert.NotContains(t, body, `/sessions/b1/redrive`)

	code, body, _ = c.post("/sessions/b1/redrive", url.Values{"csrf": {csrf}})
	assert.Equal(t, http.StatusConflict, code)
	assert.Contains(t, body, "succeeded, not failed")
}

// loadCounter counts the loads of a store's checkpoints.
type loadCounter struct {
	session.Checkpointer
	loads atomic.Int32
}

func (l *loadCounter) Load(ctx context.Context, id string) (*session.Checkpoint, error) {
	l.loads.Add(1)
	return l.Checkpointer.Load(ctx, id)
}

// The page answers a redrive once the run tells the runner that the redrive
// is saved (issue 36: "An answer is saved durably before the page says so,
// and the run goes on at once"): while the item that failed is running again,
// and with the one load that finds the session failed, not a poll of the
// store.
func TestRunnerRedriveAnswersOnceSaved(t *testing.T) {
	defer goleak.VerifyNone(t)
	ctx := context.Background()
	store := session.NewMemoryCheckpointer()
	release := make(chan struct{})
	h := &flaky{block: release}
	wf := redrive.NewBatch(h, flowcrt.WithCheckpointer(store))
	_, err := wf.Invoke(ctx, "b1", map[string]any{})
	require.ErrorContains(t, err, "c is down")

	counted := &loadCounter{Checkpointer: store}
	runner := &console.Runner{Store: counted, Resume: func(ctx context.Context, id string) error {
		_, err := wf.Resume(ctx, id)
		return err
	}}
	require.NoError(t, runner.Redrive(ctx, "b1"))
	assert.Equal(t, int32(1), counted.loads.Load(), "the runner polled the store")
	cp, err := store.Load(ctx, "b1")
	require.NoError(t, err)
	assert.Equal(t, session.StatusRunning, cp.Status)
	assert.Equal(t, 1, cp.Position.Redrives)

	close(release)
	runner.Wait()
	cp, err = store.Load(ctx, "b1")
	require.NoError(t, err)
	assert.Equal(t, session.StatusSucceeded, cp.Status)
}
