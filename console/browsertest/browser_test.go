package browsertest

import (
	"context"
	"encoding/json"
	"flag"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/console"
	"github.com/flowc-dev/flowc/console/internal/fake"
	"github.com/flowc-dev/flowc/internal/sessiontest"
	flowcrt "github.com/flowc-dev/flowc/runtime"
	"github.com/flowc-dev/flowc/session"
)

var screenshot = flag.String("screenshot", "", "write a screenshot of a session's page to this PNG `file` (docs/console.png)")

// browser starts a fresh headless Chromium for the test.
func browser(t *testing.T) context.Context {
	path, err := exec.LookPath("chromium")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("chromium is not on PATH: apt-get install -y chromium")
		}
		t.Skip("chromium is not on PATH")
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 1000),
	}
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	ctx, cancelTab := chromedp.NewContext(actx)
	t.Cleanup(cancelTab)
	ctx, cancelTime := context.WithTimeout(ctx, 2*time.Minute)
	t.Cleanup(cancelTime)
	return ctx
}

// watchDialogs counts the dialogs (alert, confirm, prompt) the page opens,
// dismissing each.
func watchDialogs(ctx context.Context) *atomic.Int32 {
	var n atomic.Int32
	dialogs := chromedp.Events(ctx, page.JavascriptDialogOpening)
	go func() {
		for _, err := range dialogs {
			if err != nil {
				return
			}
			n.Add(1)
			_, _ = chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: false})
		}
	}()
	return &n
}

// releaseConsole serves the console over a memory store in which session
// r1 of the release machine waits at two items of its Map, answering in
// this process.
func releaseConsole(t *testing.T) (*httptest.Server, *console.Runner, *session.MemoryCheckpointer) {
	store := session.NewMemoryCheckpointer()
	wf := sessiontest.Release(t, store, "r1")
	runner := &console.Runner{Store: store, Resume: func(ctx context.Context, id string) error {
		_, err := wf.Resume(ctx, id)
		return err
	}}
	t.Cleanup(runner.Wait)
	h := console.New(console.FromStore(store), console.WithActor(runner),
		console.WithGraphs(map[string]console.Graph{"release": sessiontest.Graph(t, "../../golden/aslmapapproval/release.asl.json")}))
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv, runner, store
}

func text(ctx context.Context, t *testing.T, sel string) string {
	s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
	require.NoError(t, err)
	return strings.Join(strings.Fields(s), " ") // as a person reads it, whatever the layout's line breaks
}

// A person opens the list, sees the counts, opens the session that waits
// inside the Map, answers one item and sees the run go on: the item's
// stop is gone, the other still waits, the history has the answer.
func TestAnswerInsideMap(t *testing.T) {
	srv, runner, _ := releaseConsole(t)
	ctx := browser(t)
	dialogs := watchDialogs(ctx)
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/")))
	assert.Contains(t, text(ctx, t, ".chips"), "1 interrupted")
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`a[href="/sessions/r1"]`)), chromedp.WaitVisible(chromedp.CSS(".stop"))))
	stops := text(ctx, t, ".side")
	assert.Contains(t, stops, "Review/0/Approve")
	assert.Contains(t, stops, "Review/2/Approve")
	assert.Contains(t, text(ctx, t, ".graph"), "Approve")

	if *screenshot != "" {
		png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot()) // what a person sees first
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(*screenshot, png, 0o644))
	}

	require.NoError(t, chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`div[id="stop-Review/0/Approve"] button[value="yes"]`)),
		chromedp.WaitVisible(chromedp.CSS(".alert.ok"))))
	assert.Contains(t, text(ctx, t, ".alert.ok"), `Answered Review/0/Approve with "yes"`)
	runner.Wait()
	require.NoError(t, chromedp.Do(ctx, chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(".stop"))))
	stops = text(ctx, t, ".side")
	assert.NotContains(t, stops, "Review/0/Approve")
	assert.Contains(t, stops, "Review/2/Approve", "the other item still waits")
	assert.Contains(t, text(ctx, t, "#history"), "answer_received")
	assert.Zero(t, dialogs.Load())
}

// Two people on the same stop: the second one's click is refused with a
// clear message and 409.
func TestTwoAnswersOneWins(t *testing.T) {
	srv, runner, store := releaseConsole(t)
	ctx := browser(t)
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/sessions/r1"), chromedp.WaitVisible(chromedp.CSS(".stop"))))
	// someone else answers first, while this page is open
	require.NoError(t, session.Answer(context.Background(), store, "r1", "Review/2/Approve", session.AnswerInput{Decision: "no"}))
	resp, err := chromedp.RunResponse(ctx, chromedp.Click(chromedp.CSS(`div[id="stop-Review/2/Approve"] button[value="yes"]`)))
	require.NoError(t, err)
	assert.Equal(t, int64(http.StatusConflict), resp.Status)
	assert.Contains(t, text(ctx, t, ".alert.error"), "someone else answered first")
	runner.Wait()
}

// A person redrives a real failed session (item c of a Map failed once):
// the list counts it failed, its page says what it failed with, and the
// redrive button runs it on in this process through the workflow's
// Resume; reloaded, the page shows it succeeded, redriven once, with the
// redrive in its history and no redrive button, and only the item that
// failed ran again (Step Functions' RedriveExecution).
func TestRedriveFailedSession(t *testing.T) {
	store := session.NewMemoryCheckpointer()
	h := &sessiontest.Flaky{}
	wf := sessiontest.Batch(t, store, "b1", h)
	runner := &console.Runner{Store: store, Resume: func(ctx context.Context, id string) error {
		_, err := wf.Resume(flowcrt.WithDoor(ctx, session.DoorConsole), id)
		return err
	}}
	t.Cleanup(runner.Wait)
	srv := httptest.NewServer(console.New(console.FromStore(store), console.WithActor(runner),
		console.WithGraphs(map[string]console.Graph{"batch": sessiontest.Graph(t, "../../golden/redrive/batch.asl.json")})))
	t.Cleanup(srv.Close)

	ctx := browser(t)
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/")))
	assert.Contains(t, text(ctx, t, ".chips"), "1 failed")
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`a[href="/sessions/b1"]`)), chromedp.WaitVisible(chromedp.CSS(".failure"))))
	assert.Equal(t, "failed with Flaky c is down", text(ctx, t, ".failure"))
	assert.Equal(t, "failed", text(ctx, t, ".badge"))

	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`form[action$="/redrive"] button`)),
		chromedp.WaitVisible(chromedp.CSS(".alert.ok"))))
	assert.Contains(t, text(ctx, t, ".alert.ok"), "Redrove")
	runner.Wait()
	require.NoError(t, chromedp.Do(ctx, chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#history"))))
	assert.Equal(t, "succeeded", text(ctx, t, ".badge"))
	assert.Contains(t, text(ctx, t, ".meta"), "redriven 1×")
	assert.Contains(t, text(ctx, t, "#history"), "redriven")
	gone, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('form[action$="/redrive"], .failure').length`))
	require.NoError(t, err)
	assert.Zero(t, gone, "no failure and no redrive button on a session that succeeded")
	assert.Equal(t, map[string]int{"load": 1, "work a": 1, "work b": 1, "work c": 2, "work d": 1, "left": 1, "right": 1, "report": 1}, h.Calls())
}

// hostile is every way a session's values could try to run script.
const hostile = `<script>window.__pwned=1</script>"><img src=x onerror="window.__pwned=1;alert(1)">`

// hostileConsole serves the fake store: a hostile session, a task token,
// and a failed session.
func hostileConsole(t *testing.T, opts ...console.Option) (*httptest.Server, *fake.Store) {
	s := fake.New()
	now := time.Now()
	s.Put(console.Session{ID: "evil", Workflow: hostile, Status: "interrupted", State: hostile, Updated: now, Error: hostile, Cause: hostile,
		Data: mustJSON(map[string]string{"x": hostile, "link": "javascript:window.__pwned=1"}),
		Stops: []console.Stop{{Key: hostile, State: hostile, Kind: "approval", Prompt: hostile + " javascript:alert(1)",
			Options: []string{hostile, "javascript:window.__pwned=1"}}}},
		console.Event{Time: now, Kind: "state_failed", State: hostile, Fields: mustJSON(map[string]string{"error": hostile, "cause": "javascript:alert(1)"})})
	s.Put(console.Session{ID: "tok", Workflow: "order", Status: "waiting", State: "Pay", Updated: now.Add(-time.Minute),
		Stops: []console.Stop{{Key: "Pay", State: "Pay", Kind: "task_token", TokenHash: "0123456789abcdef"}}})
	s.Put(console.Session{ID: "bad", Workflow: "order", Status: "failed", State: "Charge", Updated: now.Add(-2 * time.Minute)})
	s.Put(console.Session{ID: "run", Workflow: "order", Status: "running", State: "Charge", Updated: now.Add(-3 * time.Minute)})
	srv := httptest.NewServer(console.New(s, append([]console.Option{console.WithActor(s)}, opts...)...))
	t.Cleanup(srv.Close)
	return srv, s
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// A session whose state, prompt, options and errors hold script runs none
// of it in a real browser: no dialog opens, window.__pwned stays unset,
// no javascript: link exists, and the text shows literally.
func TestHostileSessionRunsNoScript(t *testing.T) {
	srv, _ := hostileConsole(t)
	ctx := browser(t)
	dialogs := watchDialogs(ctx)
	for _, path := range []string{"/", "/sessions/evil"} {
		require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(srv.URL+path), chromedp.WaitReady(chromedp.CSS("body")),
			chromedp.Sleep(300*time.Millisecond))) // time for an onerror to fire
		pwned, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.__pwned !== undefined`))
		require.NoError(t, err)
		links, err := chromedp.Run(ctx, chromedp.Evaluate[int](`[...document.querySelectorAll('[href],[src],[action]')].filter(e => /^\s*javascript:/i.test(e.getAttribute('href')||e.getAttribute('src')||e.getAttribute('action'))).length`))
		require.NoError(t, err)
		assert.False(t, pwned, path)
		assert.Zero(t, links, path)
		assert.Contains(t, text(ctx, t, "main"), "<script>window.__pwned=1</script>", path)
	}
	assert.Contains(t, text(ctx, t, ".prompt"), `"><img src=x onerror="window.__pwned=1;alert(1)"> javascript:alert(1)`)
	assert.Zero(t, dialogs.Load())
}

// A person answers a task token with a success, stops a running session
// and redrives a failed one; each page says what happened.
func TestTokenStopRedrive(t *testing.T) {
	srv, s := hostileConsole(t)
	ctx := browser(t)
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/sessions/tok"),
		chromedp.SetValue(chromedp.CSS(`textarea[name="output"]`), `{"paid": true}`),
		chromedp.Click(chromedp.CSS(`form[action$="/task-success"] button`)),
		chromedp.WaitVisible(chromedp.CSS(".alert.ok"))))
	assert.Contains(t, text(ctx, t, ".alert.ok"), "Sent a success for Pay")

	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/sessions/run"),
		chromedp.SendKeys(chromedp.CSS(`form[action$="/stop"] input[name="cause"]`), "by hand"),
		chromedp.Click(chromedp.CSS(`form[action$="/stop"] button`)),
		chromedp.WaitVisible(chromedp.CSS(".alert.ok"))))
	assert.Contains(t, text(ctx, t, ".badge"), "stopped")

	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/sessions/bad"),
		chromedp.Click(chromedp.CSS(`form[action$="/redrive"] button`)),
		chromedp.WaitVisible(chromedp.CSS(".alert.ok"))))
	assert.Contains(t, text(ctx, t, ".alert.ok"), "Redrove")
	assert.Equal(t, []string{`tok output Pay {"paid": true}`, "run stop  by hand", "bad redrive"}, s.Answers)
}

// A console with a token answers 401 to every page in a browser without
// it; the token link lets the browser in and drops the token from the
// address.
func TestTokenNeeded(t *testing.T) {
	srv, _ := hostileConsole(t, console.WithToken("s3cret"))
	ctx := browser(t)
	for _, path := range []string{"/", "/sessions/evil", "/sessions/tok", "/console.css"} {
		resp, err := chromedp.RunResponse(ctx, chromedp.Navigate(srv.URL+path))
		require.NoError(t, err)
		assert.Equal(t, int64(http.StatusUnauthorized), resp.Status, path)
	}
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/sessions/tok?token=s3cret"), chromedp.WaitVisible(chromedp.CSS(".stop"))))
	loc, err := chromedp.Run(ctx, chromedp.Location())
	require.NoError(t, err)
	assert.Equal(t, srv.URL+"/sessions/tok", loc)
	assert.False(t, strings.Contains(loc, "s3cret"))
}
