package temporal_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/flowc-dev/flowc/codegen/program"
	"github.com/flowc-dev/flowc/compiler"
)

// TestBuildProgram holds testdata/programs/aslcallback to the main package
// `flowc build --target temporal` writes for golden/aslcallback with the
// handlers of testdata/orderhandlers, committed so that its generated code
// is reviewed as the workflows' is; here it imports the case's package,
// where flowc build imports a copy. It lies in testdata because it links
// flowc's built programs' packages (SQLite, OpenTelemetry), which this
// module does not require; TestBuildOnServer builds and runs it.
func TestBuildProgram(t *testing.T) {
	def := definition(t, filepath.Join("golden", "aslcallback"))
	src, err := os.ReadFile(def)
	if err != nil {
		t.Fatal(err)
	}
	c, diags := compiler.Compile(def, src, compiler.Options{Generated: filepath.Join(filepath.Dir(def), compiler.OutputName(def))})
	if c == nil {
		t.Fatalf("%s does not compile: %v", def, diags)
	}
	user := &program.UserHandlers{Import: "example.com/orderhandlers", Type: "Orders",
		Methods: map[string]bool{"Reserve": true, "SendMessageWaitForTaskToken": true, "Ship": true}}
	files, missing, err := program.BuildTemporalMain(c, "github.com/flowc-dev/flowc/temporal/golden/aslcallback", user)
	if err != nil || len(missing) > 0 {
		t.Fatalf("%v, missing %v", err, missing)
	}
	for _, f := range files {
		compare(t, filepath.Join("testdata", "programs", "aslcallback", f.Name), f.Content)
	}
}

// TestBuildOnServer builds ../golden/aslcallback/order.asl.json, whose
// approval hands out a task token (Step Functions' "Wait for a Callback
// with Task Token"), with `flowc build --target temporal` and the handlers
// of testdata/orderhandlers, and an Approval state's definition with none,
// and works their sessions on a dev server (issue 22 item 3: a token and a
// decision answered from a built program, on Temporal): each run prints
// the line and exits with the code of the native program `flowc build`
// writes of the same definition and handlers, whose sessions live in a
// checkpoint file.
func TestBuildOnServer(t *testing.T) {
	if testing.Short() {
		t.Skip("builds flowc and four programs, on a dev server")
	}
	address := devServer(t)
	flowc := buildFlowc(t)
	dir := t.TempDir()
	temporalDir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	// programs builds def both ways, with the flowc build flags args.
	programs := func(def, name string, args ...string) programPair {
		p := programPair{native: filepath.Join(dir, name), onServer: filepath.Join(dir, name+"-temporal"), address: address, db: filepath.Join(dir, "sessions.db")}
		for _, flags := range [][]string{{"-o", p.native}, {"-o", p.onServer, "--target", "temporal"}} {
			flags = append(append([]string{"build", def}, flags...), args...)
			cmd := exec.Command(flowc, flags...)
			cmd.Env = append(os.Environ(), "FLOWC_TEMPORAL_DIR="+temporalDir)
			if msg, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("flowc %v: %v\n%s", flags, err, msg)
			}
		}
		return p
	}
	order := programs("../golden/aslcallback/order.asl.json", "order", "--handlers", "./testdata/orderhandlers")

	if _, msg, code := runProgram(t, order.onServer); code != 2 || !strings.Contains(msg, "give its --temporal-address") {
		t.Fatalf("without a server: exit %d, %s; want exit 2 asking for --temporal-address", code, msg)
	}
	input := filepath.Join(dir, "order.json")
	if err := os.WriteFile(input, []byte(`{"order":"o-17"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	same := order.same
	// tokens holds the token each program's session waits for, by native.
	tokens := map[bool]string{}
	start := func(t *testing.T, session string) {
		t.Helper()
		line, nativeLine, code := same(t, session, func(bool) []string { return []string{"--input", input} })
		for native, line := range map[bool]string{false: line, true: nativeLine} {
			var waiting struct {
				Status string `json:"status"`
				Token  string `json:"task_token"`
			}
			if err := json.Unmarshal([]byte(line), &waiting); err != nil || waiting.Status != "WAITING" || waiting.Token == "" || code != 0 {
				t.Fatalf("started: exit %d, %s: want WAITING with a task token", code, line)
			}
			tokens[native] = waiting.Token
		}
	}

	t.Run("a task token answered in a later run, and refused once used", func(t *testing.T) {
		start(t, "order")
		answer := func(native bool) []string {
			return []string{"--task-success", tokens[native], "--task-output", `{"approver":"ann"}`}
		}
		if line, _, code := same(t, "order", answer); code != 0 || !strings.Contains(line, `"approval":{"approvedBy":"ann"}`) || !strings.Contains(line, `"shipped":{"tracking":"t-r-o-17"}`) {
			t.Fatalf("answered: exit %d, %s", code, line)
		}
		if _, _, code := same(t, "order", answer); code != 2 {
			t.Fatalf("a used token: exit %d, want 2", code)
		}
		if _, msg, _ := runProgram(t, order.onServer, append(answer(false), "--temporal-address", address, "--session", "order")...); !strings.Contains(msg, "used already") {
			t.Fatalf("a used token: %s; want it refused as used", msg)
		}
	})

	t.Run("a task token failed, caught by the state's Catch", func(t *testing.T) {
		start(t, "order-2")
		fail := func(native bool) []string {
			return []string{"--task-failure", tokens[native], "--task-error", "Rejected", "--task-cause", "out of stock"}
		}
		if line, _, code := same(t, "order-2", fail); code != 0 || !strings.Contains(line, `"status":"cancelled"`) {
			t.Fatalf("failed: exit %d, %s; want the Catch's Cancel", code, line)
		}
	})

	t.Run("an approval decided in a later run, no handlers", func(t *testing.T) {
		def := filepath.Join(dir, "ask.asl.json")
		if err := os.WriteFile(def, []byte(askDefinition), 0o644); err != nil {
			t.Fatal(err)
		}
		ask := programs(def, "ask")
		if line, _, code := ask.same(t, "ask", func(bool) []string { return []string{"--input", input} }); code != 0 || !strings.Contains(line, `"status":"INTERRUPTED"`) {
			t.Fatalf("started: exit %d, %s; want INTERRUPTED", code, line)
		}
		if _, _, code := ask.same(t, "ask", func(bool) []string { return []string{"--decision", "maybe"} }); code != 2 {
			t.Fatalf("an option not offered: exit %d, want 2", code)
		}
		if line, _, code := ask.same(t, "ask", func(bool) []string { return []string{"--decision", "yes"} }); code != 0 || !strings.Contains(line, `"review":{"approval":"yes"},"status":"shipped"`) {
			t.Fatalf("decided: exit %d, %s", code, line)
		}
	})
}

// askDefinition waits for a person's approval between two Pass states: a
// definition whose program needs no handlers.
const askDefinition = `{"StartAt": "Ask", "States": {
  "Ask": {"Type": "Approval", "Prompt": "Ship it?", "Options": ["yes", "no"], "ResultPath": "$.review", "Next": "Done"},
  "Done": {"Type": "Pass", "Result": "shipped", "ResultPath": "$.status", "End": true}}}`

// programPair is a definition built both ways: natively, with its sessions
// in the SQLite file db, and for Temporal, with its sessions on the server
// at address.
type programPair struct{ native, onServer, address, db string }

// same runs both programs, and wants the same line and exit code; a task
// token's answer gives each program its own token (args' native says
// which), since the tokens differ (crypto/rand).
func (p programPair) same(t *testing.T, session string, args func(native bool) []string) (line, nativeLine string, code int) {
	t.Helper()
	want, _, wantCode := runProgram(t, p.native, append(args(true), "--checkpoint-db", p.db, "--session", session)...)
	got, msg, code := runProgram(t, p.onServer, append(args(false), "--temporal-address", p.address, "--session", session)...)
	if tokenless(got) != tokenless(want) || code != wantCode {
		t.Fatalf("%v:\nnative (exit %d): %s\ntemporal (exit %d): %s%s", args(false), wantCode, want, code, got, msg)
	}
	return got, want, code
}

// runProgram runs a built program: its standard output, its standard
// error and its exit code.
func runProgram(t *testing.T, bin string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if exit, ok := err.(*exec.ExitError); ok {
		return stdout.String(), stderr.String(), exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return stdout.String(), stderr.String(), 0
}

var taskToken = regexp.MustCompile(`"task_token":"[^"]*"`)

// tokenless is a result line without the task token in it.
func tokenless(line string) string { return taskToken.ReplaceAllString(line, `"task_token":"…"`) }
