package temporal_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"github.com/flowc-dev/flowc/console"
	"github.com/flowc-dev/flowc/temporal/flowconsole"
	"github.com/flowc-dev/flowc/temporal/golden/aslcallback"
	"github.com/flowc-dev/flowc/temporal/golden/review"
)

// hostile is user data that would run script if a page did not escape it
// (issue 36: "sessions whose state holds <script> ... run no script").
const hostile = `<script>alert(1)</script>`

// TestConsoleOnServer drives the console over a dev server as a person
// does, through HTTP, with a worker of the workflows running beside it:
// the list shows the waiting sessions, a session's page its stop and the
// CSRF token its forms carry; a POST answers the approval and the run
// goes on and finishes; of two answers sent at once to one stop one wins
// and the other is told so (409), as are answers after it; Stop ends a
// session stopped (as Step Functions' StopExecution); Redrive is refused
// with what to use instead; and hostile input shows escaped.
func TestConsoleOnServer(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a dev server")
	}
	c, err := client.Dial(client.Options{HostPort: devServer(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	w := worker.New(c, "console", worker.Options{})
	review.RegisterReview(w, &boundHandlers{})
	aslcallback.RegisterOrder(w, orderQueue{})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	ctx := context.Background()
	start := func(id, name string, in any) client.WorkflowRun {
		run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: "console"}, name, in)
		if err != nil {
			t.Fatal(err)
		}
		return run
	}
	publish := start("publish", review.ReviewWorkflowName, review.ReviewState{Pages: []string{hostile}})
	start("abandon", review.ReviewWorkflowName, review.ReviewState{Pages: []string{"a"}})
	order := start("order", aslcallback.OrderWorkflowName, json.RawMessage(`{"order":"`+hostile+`"}`))

	s := flowconsole.New(c)
	srv := httptest.NewServer(console.New(s, console.WithActor(s)))
	defer srv.Close()
	waitFor(t, "three sessions waiting", func() bool {
		p, err := s.Sessions(ctx, console.Query{})
		return err == nil && p.Counts["interrupted"] == 2 && p.Counts["waiting"] == 1
	})
	_, body := get(t, srv.URL+"/sessions/abandon")
	csrf := csrfOf(t, body) // the console's, for every form: an ended session's page has none

	t.Run("list", func(t *testing.T) {
		code, body := get(t, srv.URL+"/?status=interrupted")
		if code != http.StatusOK || !strings.Contains(body, `href="/sessions/publish"`) || strings.Contains(body, `href="/sessions/order"`) {
			t.Errorf("the interrupted sessions: %d\n%s", code, body)
		}
	})

	t.Run("answer", func(t *testing.T) {
		code, body := get(t, srv.URL+"/sessions/publish")
		if code != http.StatusOK || !strings.Contains(body, "Publish the checked pages?") || !strings.Contains(body, `value="publish"`) || csrfOf(t, body) != csrf {
			t.Fatalf("the session's page does not show its approval: %d\n%s", code, body)
		}
		// Two people answer at once, one each way: one wins.
		options, codes := []string{"publish", "drop"}, make([]int, 2)
		var wg sync.WaitGroup
		for i, option := range options {
			wg.Go(func() {
				codes[i], _ = post(t, srv.URL+"/sessions/publish/decide", csrf, "key", "approve", "option", option)
			})
		}
		wg.Wait()
		won := slices.Index(codes, http.StatusSeeOther)
		if won < 0 || codes[1-won] != http.StatusConflict {
			t.Fatalf("two decisions at once: %v, want one taken (303), one refused (409)", codes)
		}
		var out review.ReviewState
		ended := map[string]string{"publish": "published", "drop": "dropped"}
		if err := publish.Get(ctx, &out); err != nil || out.Status != ended[options[won]] {
			t.Errorf("the run ended with %+v, %v; want the decision %q that won", out, err, options[won])
		}
		code, body = post(t, srv.URL+"/sessions/publish/decide", csrf, "key", "approve", "option", "drop")
		if code != http.StatusConflict || !strings.Contains(body, "someone else answered first") {
			t.Errorf("a decision after it: %d, want 409 Conflict, someone else answered first\n%s", code, body)
		}
	})

	t.Run("at once", func(t *testing.T) {
		codes := make([]int, 2)
		var wg sync.WaitGroup
		for i := range codes {
			wg.Go(func() {
				codes[i], _ = post(t, srv.URL+"/sessions/order/task-success", csrf, "key", "AskApproval", "output", `{"approver":"`+hostile+`"}`)
			})
		}
		wg.Wait()
		if slices.Sort(codes); !slices.Equal(codes, []int{http.StatusSeeOther, http.StatusConflict}) {
			t.Errorf("two answers at once to one task token: %v, want one taken (303), one refused (409)", codes)
		}
		var out map[string]any
		if err := order.Get(ctx, &out); err != nil || out["shipped"] != true {
			t.Errorf("the order ended with %v, %v; want it shipped", out, err)
		}
	})

	t.Run("stop", func(t *testing.T) {
		if code, body := post(t, srv.URL+"/sessions/abandon/stop", csrf, "error", "Ops.Cancelled", "cause", hostile); code != http.StatusSeeOther {
			t.Fatalf("stop: %d\n%s", code, body)
		}
		got, err := s.Session(ctx, "abandon")
		if err != nil || got.Status != "stopped" || len(got.Stops) != 0 {
			t.Fatalf("stopped, the session is %+v (%v)", got, err)
		}
		_, body := get(t, srv.URL+"/sessions/abandon")
		if strings.Contains(body, `/decide"`) {
			t.Errorf("the stopped session's page still offers its approval:\n%s", body)
		}
		code, body := post(t, srv.URL+"/sessions/abandon/decide", csrf, "key", "approve", "option", "publish")
		if code != http.StatusConflict {
			t.Errorf("a decision for the stopped session: %d, want 409\n%s", code, body)
		}
	})

	t.Run("redrive", func(t *testing.T) {
		code, body := post(t, srv.URL+"/sessions/publish/redrive", csrf)
		if code != http.StatusUnprocessableEntity || !strings.Contains(body, "temporal workflow reset") {
			t.Errorf("redrive: %d, want 422 saying what to use instead\n%s", code, body)
		}
	})

	t.Run("hostile", func(t *testing.T) {
		// In the input, the task's output and the stop's cause: shown as
		// JSON, whose encoder escapes < as \u003c, inside escaped HTML.
		for _, page := range []string{"/sessions/publish", "/sessions/order", "/sessions/abandon"} {
			_, body := get(t, srv.URL+page)
			if strings.Contains(body, "<script>") || !strings.Contains(body, `\u003cscript\u003ealert(1)`) {
				t.Errorf("%s does not show the hostile input escaped:\n%s", page, body)
			}
		}
	})
}

// waitFor polls cond for up to a minute.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); !cond(); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited a minute for %s", what)
		}
	}
}

func get(t *testing.T, u string) (int, string) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	return readBody(t, resp)
}

// post sends a form as the session's page does, and does not follow the
// redirect that answers a change.
func post(t *testing.T, u, csrf string, kv ...string) (int, string) {
	form := url.Values{"csrf": {csrf}}
	for i := 0; i+1 < len(kv); i += 2 {
		form.Set(kv[i], kv[i+1])
	}
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noRedirect.PostForm(u, form)
	if err != nil {
		t.Error(err)
		return 0, ""
	}
	return readBody(t, resp)
}

func readBody(t *testing.T, resp *http.Response) (int, string) {
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Error(err)
	}
	return resp.StatusCode, string(body)
}

var csrfField = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

// csrfOf is the CSRF token the forms of a page carry.
func csrfOf(t *testing.T, page string) string {
	t.Helper()
	m := csrfField.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("the page has no form with a CSRF token:\n%s", page)
	}
	return m[1]
}
