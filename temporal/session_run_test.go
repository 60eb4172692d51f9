package temporal_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	enums "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
)

// TestRunSessionsOnServer runs sessions with `flowc run --engine temporal
// --temporal-address --session` on a dev server (issue 22: stop and resume
// on both engines, from flowc run): each run of flowc starts the session or
// answers what it waits for, and prints the line a native session
// (--checkpoint-db) prints at the same step.
func TestRunSessionsOnServer(t *testing.T) {
	if testing.Short() {
		t.Skip("builds flowc and a program per run, on a dev server")
	}
	address := devServer(t)
	flowc := buildFlowc(t)
	onServer := func(session string, args ...string) []string {
		return append(args, "--engine", "temporal", "--temporal-address", address, "--session", session)
	}
	db := filepath.Join(t.TempDir(), "sessions.db")
	native := func(session string, args ...string) []string {
		return append(args, "--checkpoint-db", db, "--session", session)
	}
	same := func(t *testing.T, session string, args ...string) string {
		t.Helper()
		want, wantCode := runFlowc(t, flowc, native(session, args...)...)
		got, code := runFlowc(t, flowc, onServer(session, args...)...)
		if string(got) != string(want) || code != wantCode {
			t.Fatalf("flowc %s:\nnative (exit %d): %s\ntemporal (exit %d): %s", strings.Join(args, " "), wantCode, want, code, got)
		}
		return string(got)
	}

	t.Run("approvals inside a Map, each answered by its key", func(t *testing.T) {
		def := "../golden/aslmapapproval/bundle.asl.json"
		same(t, "bundle", "run", def)
		for _, i := range []string{"0", "1"} {
			if line := same(t, "bundle", "run", def, "--decision", "accept", "--at", "Vet/Each/"+i+"/Vet/Accept"); !strings.Contains(line, "INTERRUPTED") {
				t.Fatalf("after answering item %s: %s, want the others still waiting", i, line)
			}
		}
		if line := same(t, "bundle", "run", def, "--decision", "reject", "--at", "Vet/Each/2/Vet/Accept"); !strings.Contains(line, `"vetted":[{"approval":"accept"},{"approval":"accept"},{"approval":"reject"}]`) {
			t.Fatalf("final line %s", line)
		}
	})

	t.Run("new input given to a session that waits, merged as natively", func(t *testing.T) {
		def := "../golden/approval/publish.flow.yaml"
		input := filepath.Join(t.TempDir(), "draft.json")
		if err := os.WriteFile(input, []byte(`{"draft":"v2"}`), 0o644); err != nil {
			t.Fatal(err)
		}
		same(t, "publish", "run", def)
		if line := same(t, "publish", "run", def, "--input", input); !strings.Contains(line, "INTERRUPTED") {
			t.Fatalf("given new input: %s, want the approval to ask again", line)
		}
		if line := same(t, "publish", "run", def, "--decision", "approve"); !strings.Contains(line, `"draft":"v2"`) {
			t.Fatalf("final line %s: want the new input merged", line)
		}
	})

	t.Run("a task token answered in a later run, and refused once used", func(t *testing.T) {
		def := "../golden/aslcallback/order.asl.json"
		input := filepath.Join(t.TempDir(), "order.json")
		if err := os.WriteFile(input, []byte(`{"order":"o-17"}`), 0o644); err != nil {
			t.Fatal(err)
		}
		// The tokens differ (crypto/rand), so each engine answers its own.
		var waiting struct {
			Status string `json:"status"`
			Token  string `json:"task_token"`
		}
		tokenOf := func(args []string) string {
			line, code := runFlowc(t, flowc, args...)
			if err := json.Unmarshal(line, &waiting); err != nil || waiting.Status != "WAITING" || code != 0 {
				t.Fatalf("flowc %v: exit %d, %s: want WAITING with a task token", args, code, line)
			}
			return waiting.Token
		}
		start := []string{"run", def, "--input", input}
		answerWith := func(token string) []string {
			return []string{"run", def, "--task-success", token, "--task-output", `{"approver":"ann"}`}
		}
		nativeToken, serverToken := tokenOf(native("order", start...)), tokenOf(onServer("order", start...))
		want, _ := runFlowc(t, flowc, native("order", answerWith(nativeToken)...)...)
		got, code := runFlowc(t, flowc, onServer("order", answerWith(serverToken)...)...)
		if string(got) != string(want) || code != 0 || !strings.Contains(string(got), `"approvedBy":"ann"`) {
			t.Fatalf("answered: native %s, temporal (exit %d) %s", want, code, got)
		}
		used := exec.Command(flowc, onServer("order", answerWith(serverToken)...)...)
		msg, err := used.CombinedOutput()
		if exit, ok := err.(*exec.ExitError); !ok || exit.ExitCode() != 2 || !strings.Contains(string(msg), "used already") {
			t.Fatalf("a used token: %v\n%s\nwant exit 2, refused as used", err, msg)
		}
	})

	t.Run("killed during a Wait, the session resumes with the time left", func(t *testing.T) {
		def := "../golden/aslwait/release.asl.json"
		input := filepath.Join(t.TempDir(), "release.json")
		if err := os.WriteFile(input, []byte(`{"cool":6}`), 0o644); err != nil {
			t.Fatal(err)
		}
		first := exec.Command(flowc, onServer("release", "run", def, "--input", input)...)
		first.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // the program it runs dies with it
		// Killed, flowc cannot remove its temporary module: let the test's
		// own directory hold it.
		first.Env = append(os.Environ(), "TMPDIR="+t.TempDir())
		if err := first.Start(); err != nil {
			t.Fatal(err)
		}
		c, err := client.Dial(client.Options{HostPort: address})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		for timers(ctx, t, c, "release") == 0 {
			time.Sleep(100 * time.Millisecond)
		}
		_ = syscall.Kill(-first.Process.Pid, syscall.SIGKILL)
		_ = first.Wait()

		line, code := runFlowc(t, flowc, onServer("release", "run", def)...)
		if code != 0 || !strings.Contains(string(line), `"status":"SUCCEEDED"`) {
			t.Fatalf("resumed: exit %d, %s", code, line)
		}
		if n := timers(ctx, t, c, "release"); n != 1 {
			t.Errorf("%d timers started: the resumed session waited again instead of for the time left", n)
		}
	})
}

// timers counts the timers workflow id has started so far.
func timers(ctx context.Context, t *testing.T, c client.Client, id string) int {
	it := c.GetWorkflowHistory(ctx, id, "", false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	n := 0
	for it.HasNext() {
		e, err := it.Next()
		if err != nil {
			if ctx.Err() != nil {
				t.Fatal(err)
			}
			return 0 // not started yet
		}
		if e.GetEventType() == enums.EVENT_TYPE_TIMER_STARTED {
			n++
		}
	}
	return n
}
