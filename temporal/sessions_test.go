package temporal_test

import (
	"bufio"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/flowc-dev/flowc/session"
)

// TestSessionsOnServer follows sessions of a dev server through `flowc
// sessions --temporal-address` as issue 36 asks: a session waiting inside a
// Map and one waiting for a task token are listed with their statuses,
// shown with their stops by key, followed through the history mapped from
// the workflow's own (the token by its hash only), and stopped, after
// which the stopped one takes no decision (as Step Functions'
// StopExecution: "no further events"), and lists as stopped.
func TestSessionsOnServer(t *testing.T) {
	if testing.Short() {
		t.Skip("builds flowc and its programs, on a dev server")
	}
	address := devServer(t)
	flowc := buildFlowc(t)
	run := func(session string, args ...string) (string, int) {
		out, code := runFlowc(t, flowc, append(args, "--engine", "temporal", "--temporal-address", address, "--session", session)...)
		return string(out), code
	}
	sessions := func(t *testing.T, args ...string) string {
		t.Helper()
		out, code := runFlowc(t, flowc, append([]string{"sessions", "--temporal-address", address}, args...)...)
		if code != 0 {
			t.Fatalf("flowc sessions %v: exit %d", args, code)
		}
		return string(out)
	}

	bundle := "../golden/aslmapapproval/bundle.asl.json" // a Map of MaxConcurrency 1, an approval per item
	run("bundle", "run", bundle)
	run("bundle", "run", bundle, "--decision", "accept", "--at", "Vet/Each/0/Vet/Accept")
	input := filepath.Join(t.TempDir(), "order.json")
	if err := os.WriteFile(input, []byte(`{"order":"o-17"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	line, _ := run("order", "run", "../golden/aslcallback/order.asl.json", "--input", input)
	var waiting struct {
		Token string `json:"task_token"`
	}
	if err := json.Unmarshal([]byte(line), &waiting); err != nil || waiting.Token == "" {
		t.Fatalf("the callback session printed %q, want it waiting with a task token", line)
	}

	t.Run("list", func(t *testing.T) {
		got := map[string]session.Summary{}
		for _, s := range jsonLines[session.Summary](t, sessions(t, "list", "--json")) {
			got[s.ID] = s
		}
		if s := got["bundle"]; s.Status != session.StatusInterrupted || s.Workflow != "Bundle" || s.Stops != 1 || s.Updated.IsZero() {
			t.Errorf("bundle listed as %+v, want interrupted at one stop", s)
		}
		if s := got["order"]; s.Status != session.StatusWaiting || s.State != "AskApproval" || s.Stops != 1 {
			t.Errorf("order listed as %+v, want waiting at AskApproval", s)
		}
		if only := jsonLines[session.Summary](t, sessions(t, "list", "--status", "waiting", "--json")); len(only) != 1 || only[0].ID != "order" {
			t.Errorf("--status waiting listed %+v, want order alone", only)
		}
		if only := jsonLines[session.Summary](t, sessions(t, "list", "--workflow", "bundle", "--json")); len(only) != 1 || only[0].ID != "bundle" {
			t.Errorf("--workflow bundle listed %+v, want the Bundle session alone", only)
		}
	})

	t.Run("show", func(t *testing.T) {
		var shown struct {
			Status session.Status
			Stops  []session.StopInfo
		}
		mustUnmarshal(t, sessions(t, "show", "bundle", "--json"), &shown)
		want := []session.StopInfo{{Key: "Vet/Each/1/Vet/Accept", State: "Vet/Accept", Kind: session.KindApproval, Prompt: "Accept the part?", Options: []string{"accept", "reject"}}}
		if shown.Status != session.StatusInterrupted || !slices.EqualFunc(shown.Stops, want, sameStop) {
			t.Errorf("bundle shown as %+v, want interrupted at item 1's approval, by its key", shown)
		}
		shown.Stops = nil // the JSON leaves out what a token's stop has not
		mustUnmarshal(t, sessions(t, "show", "order", "--json"), &shown)
		want = []session.StopInfo{{Key: "AskApproval", State: "AskApproval", Kind: session.KindTaskToken, TokenHash: session.TokenHash(waiting.Token)}}
		if shown.Status != session.StatusWaiting || !slices.EqualFunc(shown.Stops, want, sameStop) {
			t.Errorf("order shown as %+v, want waiting for its token, by hash", shown)
		}
	})

	t.Run("history", func(t *testing.T) {
		events := jsonLines[session.Event](t, sessions(t, "history", "bundle", "--json"))
		var kinds []string
		for i, e := range events {
			if e.Seq != int64(i+1) || e.Time.IsZero() {
				t.Errorf("event %d: seq %d at %v, want 1-based and timed", i, e.Seq, e.Time)
			}
			kinds = append(kinds, string(e.Kind)+" "+e.State)
		}
		want := []string{"run_started ",
			"state_entered List", "state_succeeded List", // a Pass: its side effect (quiet.go)
			"state_entered Vet/Inspect", "state_succeeded Vet/Inspect",
			"state_entered Vet/Each/0/Vet/Accept", "stopped_for_approval Vet/Each/0/Vet/Accept",
			"answer_received Vet/Each/0/Vet/Accept",
			"state_entered Vet/Inspect", "state_succeeded Vet/Inspect",
			"state_entered Vet/Each/1/Vet/Accept", "stopped_for_approval Vet/Each/1/Vet/Accept"}
		if !slices.Equal(kinds, want) {
			t.Errorf("history:\n%s\nwant:\n%s", strings.Join(kinds, "\n"), strings.Join(want, "\n"))
		}
		if i := slices.IndexFunc(events, func(e session.Event) bool { return e.Kind == session.KindAnswerReceived }); i < 0 ||
			!strings.Contains(string(events[i].Fields), `"decision":"accept"`) || !strings.Contains(string(events[i].Fields), `"door":"cli"`) {
			t.Errorf("the answer is not recorded with its decision and door: %+v", events)
		}
		out := sessions(t, "history", "order", "--json")
		if strings.Contains(out, waiting.Token) || !strings.Contains(out, `"kind":"task_token_issued","state":"AskApproval","fields":{"key":"AskApproval","token_hash":"`+session.TokenHash(waiting.Token)) {
			t.Errorf("the callback's history shows its token, or not its hash:\n%s", out)
		}
	})

	// flowc console --temporal-address serves the same sessions, with the
	// graph of the definition it is given, by the workflow's type.
	t.Run("console", func(t *testing.T) {
		cmd := exec.Command(flowc, "console", "--temporal-address", address, "--addr", "127.0.0.1:0", bundle)
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer func() {
			_ = cmd.Process.Signal(os.Interrupt)
			if err := cmd.Wait(); err != nil {
				t.Errorf("flowc console, interrupted: %v", err)
			}
		}()
		line, err := bufio.NewReader(stdout).ReadString('\n')
		_, url, ok := strings.Cut(strings.TrimSpace(line), ": ")
		if err != nil || !ok || !strings.HasPrefix(url, "http://127.0.0.1:") {
			t.Fatalf("flowc console printed %q (%v), want its URL", line, err)
		}
		code, body := get(t, url+"sessions/bundle")
		if code != http.StatusOK || !strings.Contains(body, `<g class="node`) || !strings.Contains(body, `value="Vet/Each/1/Vet/Accept"`) || !strings.Contains(body, `value="accept"`) {
			t.Errorf("the bundle's page: %d, want its graph and its stop with a button per option\n%s", code, body)
		}
		if code, body := get(t, url+"sessions/order"); code != http.StatusOK || !strings.Contains(body, "/task-success") || strings.Contains(body, waiting.Token) {
			t.Errorf("the order's page: %d, want a form for its token's success, not the token\n%s", code, body)
		}
	})

	t.Run("stop", func(t *testing.T) {
		sessions(t, "stop", "bundle", "--error", "Ops.Cancelled", "--cause", "no longer needed")
		var shown struct {
			Status session.Status
			Stops  []session.StopInfo
		}
		mustUnmarshal(t, sessions(t, "show", "bundle", "--json"), &shown)
		if shown.Status != session.StatusStopped || len(shown.Stops) != 0 {
			t.Errorf("stopped, bundle shows as %+v", shown)
		}
		events := jsonLines[session.Event](t, sessions(t, "history", "bundle", "--json"))
		if last := events[len(events)-1]; last.Kind != session.KindSessionStopped || string(last.Fields) != `{"cause":"no longer needed","error":"Ops.Cancelled"}` {
			t.Errorf("the last event is %+v, want session_stopped with the error and cause", last)
		}
		decide := exec.Command(flowc, "run", bundle, "--engine", "temporal", "--temporal-address", address, "--session", "bundle", "--decision", "accept", "--at", "Vet/Each/1/Vet/Accept")
		msg, err := decide.CombinedOutput()
		if exit, ok := err.(*exec.ExitError); !ok || exit.ExitCode() != 2 || !strings.Contains(string(msg), "stopped") {
			t.Errorf("a decision for the stopped session: %v\n%s\nwant it refused, exit 2", err, msg)
		}
		again := exec.Command(flowc, "sessions", "--temporal-address", address, "stop", "bundle")
		if msg, err := again.CombinedOutput(); err == nil {
			t.Errorf("stopping it again succeeded: %s", msg)
		}
		if only := jsonLines[session.Summary](t, sessions(t, "list", "--status", "stopped", "--json")); len(only) != 1 || only[0].ID != "bundle" {
			t.Errorf("--status stopped listed %+v, want bundle alone", only)
		}
	})
}

func sameStop(a, b session.StopInfo) bool {
	return a.Key == b.Key && a.State == b.State && a.Kind == b.Kind && a.Prompt == b.Prompt &&
		slices.Equal(a.Options, b.Options) && a.TokenHash == b.TokenHash
}

func jsonLines[T any](t *testing.T, out string) []T {
	t.Helper()
	var all []T
	for line := range strings.Lines(out) {
		var v T
		mustUnmarshal(t, line, &v)
		all = append(all, v)
	}
	return all
}

func mustUnmarshal(t *testing.T, data string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(data), v); err != nil {
		t.Fatalf("%v: %s", err, data)
	}
}
