package console_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/flowc-dev/flowc/console"
	"github.com/flowc-dev/flowc/internal/sessiontest"
	flowcrt "github.com/flowc-dev/flowc/runtime"
	"github.com/flowc-dev/flowc/session"
)

// The console over a real store and workflow: a session waiting at two
// items of a Map shows both; answering one records it (door "console")
// and the run goes on in the background, where the other still waits; a
// second answer to the same item is told it lost.
func TestRunnerAnswersInsideMap(t *testing.T) {
	ctx := context.Background()
	store := session.NewMemoryCheckpointer()
	wf := sessiontest.Release(t, store, "r1")

	runner := &console.Runner{Store: store, Resume: func(ctx context.Context, id string) error {
		_, err := wf.Resume(ctx, id)
		return err
	}, Done: func(id string, err error) { t.Logf("run of %s: %v", id, err) }}
	c := serve(t, console.New(console.FromStore(store), console.WithActor(runner),
		console.WithGraphs(map[string]console.Graph{"release": sessiontest.Graph(t, "../golden/aslmapapproval/release.asl.json")})))

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
	err := runner.Decide(ctx, "r1", "Review/0/Approve", "no")
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

// A real failed session (item c of a Map failed once): its page says what
// it failed with and offers a redrive; the redrive is saved, counted,
// before the page answers (as RedriveExecution returns once the redrive
// started), the run goes on in the background through the workflow's
// Resume under WithRedrive, and only the item that failed runs again.
// A second redrive is refused: the session no longer failed.
func TestRunnerRedrives(t *testing.T) {
	ctx := context.Background()
	store := session.NewMemoryCheckpointer()
	h := &sessiontest.Flaky{}
	wf := sessiontest.Batch(t, store, "b1", h)

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
	assert.Equal(t, map[string]int{"load": 1, "work a": 1, "work b": 1, "work c": 2, "work d": 1, "left": 1, "right": 1, "report": 1}, h.Calls())
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
	wf := sessiontest.Batch(t, store, "b1", &sessiontest.Flaky{Block: release})

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
