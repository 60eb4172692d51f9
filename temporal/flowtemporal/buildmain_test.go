package flowtemporal

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"go.temporal.io/sdk/worker"
)

// refusing is a Program that fails the test when a run gets as far as
// binding the handlers or running: the flags were to be refused first.
func refusing(t *testing.T) Program {
	return Program{
		Workflow: "W",
		Register: func() (Register, error) { t.Error("handlers bound"); return nil, nil },
		Input:    func(data []byte) (any, error) { return string(data), nil },
		Result:   func(func(any) error) (any, error) { t.Error("ran"); return nil, nil },
	}
}

// TestBuildMainRefusesFlags: a program of `flowc build --target temporal`
// refuses what makes no sense on a server with exit 2 and the message of a
// native built program (flowcimpl.SessionFlags.Check) where the meaning is
// the same, before it binds a handler or dials the server.
func TestBuildMainRefusesFlags(t *testing.T) {
	const addr = "--temporal-address=127.0.0.1:1"
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "give its --temporal-address host:port"},
		{[]string{"--session", "s"}, "give its --temporal-address host:port"},
		{[]string{addr, "in.json"}, `unexpected argument "in.json"; the input comes with --input`},
		{[]string{addr, "--checkpoint-db", "s.db", "--session", "s"}, "--checkpoint-db does not apply: on Temporal the server keeps the sessions"},
		{[]string{addr, "--decision", "yes"}, "--decision answers the approval a session waits for: it needs --session"},
		{[]string{addr, "--task-success", "tok"}, "a task token is answered in its session: give --session"},
		{[]string{addr, "--session", "s", "--at", "Map/1/Ok"}, "--at names the stop a --decision answers"},
		{[]string{addr, "--session", "s", "--decision", "yes", "--input", "in.json"}, "--decision continues the session as it is"},
		{[]string{addr, "--session", "s", "--task-success", "tok", "--input", "in.json"}, "a task token's answer continues the session as it is"},
		{[]string{addr, "--session", "s", "--task-success", "tok", "--task-output", "{"}, "--task-output is not JSON"},
		{[]string{addr, "--session", "s", "--task-success", "a", "--task-failure", "b"}, "send one of --task-success, --task-failure and --task-heartbeat"},
		{[]string{addr, "--input", "/nonexistent/in.json"}, "no such file"},
		{[]string{addr, "--no-such-flag"}, "flag provided but not defined: -no-such-flag"},
	} {
		var stdout, stderr bytes.Buffer
		code := BuildMain(append([]string{"/bin/order"}, c.args...), strings.NewReader(""), &stdout, &stderr, refusing(t))
		if code != 2 || stdout.Len() > 0 || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("order %v: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.args, code, stdout.String(), stderr.String(), c.want)
		}
	}
}

// TestBuildMainInput: the input is checked before anything runs (a bad one
// is exit 2, as natively), {} by default, and a session given none goes on
// as it is; the result comes out as flowc run's line.
func TestBuildMainInput(t *testing.T) {
	run := func(stdin string, p Program, args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		args = append([]string{"/bin/order", "--temporal-address", "127.0.0.1:1"}, args...)
		code := BuildMain(args, strings.NewReader(stdin), &stdout, &stderr, p)
		return code, stdout.String(), stderr.String()
	}
	var got []any
	p := Program{
		Workflow: "W",
		Register: func() (Register, error) { return func(worker.Registry) {}, nil },
		Input: func(data []byte) (any, error) {
			if string(data) == "bad" {
				return nil, errors.New("invalid input: bad")
			}
			got = append(got, string(data))
			return string(data), nil
		},
		Result: func(func(any) error) (any, error) { return map[string]any{"ok": true}, nil },
	}
	if code, out, _ := run("", p); code != 0 || out != `{"status":"SUCCEEDED","output":{"ok":true}}`+"\n" {
		t.Errorf("a run: exit %d, %q", code, out)
	}
	if code, _, _ := run(`{"a":1}`, p, "--input", "-", "--session", "s"); code != 0 {
		t.Errorf("a session started on standard input: exit %d", code)
	}
	if code, _, _ := run("", p, "--session", "s"); code != 0 {
		t.Errorf("a session gone on: exit %d", code)
	}
	if want := []any{"{}", `{"a":1}`}; len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("inputs decoded %q, want %q (none for a session going on)", got, want)
	}
	if code, out, errOut := run("bad", p, "--input", "-"); code != 2 || out != "" || !strings.Contains(errOut, "order: invalid input: bad") {
		t.Errorf("bad input: exit %d, %q, %q", code, out, errOut)
	}
	p.Register = func() (Register, error) { return nil, errors.New("OPENAI_TIMEOUT is not a duration") }
	if code, _, errOut := run("", p); code != 2 || !strings.Contains(errOut, "order: OPENAI_TIMEOUT is not a duration") {
		t.Errorf("a bad environment: exit %d, %q", code, errOut)
	}
}
