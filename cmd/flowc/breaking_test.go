package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func breaking(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(append([]string{"breaking"}, args...), strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}

// The golden pair of golden/schemachange: the score of a named type
// retyped and a state renamed strand sessions (its review_test.go shows
// the resume refused); the field added in added/ does not.
func TestBreakingGoldenPair(t *testing.T) {
	dir := filepath.Join("..", "..", "golden", "schemachange")
	code, out, errOut := breaking(t, filepath.Join(dir, "review.flow.yaml"), "--against", filepath.Join(dir, "old", "review.flow.yaml"))
	assert.Equal(t, exitFailed, code, errOut)
	assert.Equal(t, filepath.Join(dir, "old", "review.flow.yaml")+`:15:9: state "publish" removed, or renamed to "release": a checkpoint that names it cannot go on`+"\n"+
		filepath.Join(dir, "types.go")+":7:2: state.review.score: was int, now string\n", out)

	code, out, errOut = breaking(t, filepath.Join(dir, "added", "review.flow.yaml"), "--against", filepath.Join(dir, "old", "review.flow.yaml"))
	assert.Equal(t, exitOK, code, errOut)
	assert.Equal(t, filepath.Join(dir, "added", "types.go")+":14:2: state.review.notes[].author: added (string): carried over as its zero value (not breaking)\n", out)
}

func writeDefinitions(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644))
	}
}

func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=flowc", "-c", "user.email=flowc@invalid"}, args...)...)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, string(out))
}

// --against-rev reads the definition and its package's Go files as a git
// revision has them (the default is HEAD); removals point at them there.
// A field removed from a named type, a top-level field retyped and the
// workflow id changed are all named.
func TestBreakingAgainstRevision(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	writeDefinitions(t, dir, map[string]string{
		"go.mod":           "module example.com/ticket\n",
		"ticket.flow.yaml": "workflow: Tickets\nstate:\n  ticket: {type: Ticket}\n  count: int\nstates:\n  - id: load\n    next: {state_id: route}\n  - id: route\n    end: true\n",
		"types.go":         "package ticket\n\ntype Ticket struct {\n\tOwner\n\tTitle string `json:\"title\"`\n}\n\ntype Owner struct {\n\tName string `json:\"owner\"`\n}\n",
	})
	gitIn(t, dir, "init", "-q")
	gitIn(t, dir, "add", ".")
	gitIn(t, dir, "commit", "-q", "-m", "v1")
	writeDefinitions(t, dir, map[string]string{
		"ticket.flow.yaml": "workflow: Queue\nstate:\n  ticket: {type: Ticket}\n  count: string\nstates:\n  - id: load\n    next: {state_id: route}\n  - id: route\n    end: true\n",
		"types.go":         "package ticket\n\ntype Ticket struct {\n\tTitle string `json:\"title\"`\n}\n",
	})
	def := filepath.Join(dir, "ticket.flow.yaml")
	code, out, errOut := breaking(t, def)
	assert.Equal(t, exitFailed, code, errOut)
	assert.Equal(t, def+`:1:1: workflow id "Queue" was "Tickets": checkpoints name the workflow, and sessions in flight are refused`+"\n"+
		def+":4:3: state.count: was int, now string\n"+
		"HEAD:"+filepath.ToSlash(filepath.Join(dir, "types.go"))+":9:2: state.ticket.owner: removed (was string)\n", out)

	code, _, errOut = breaking(t, def, "--against-rev", "no-such-rev")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, "git show no-such-rev:./ticket.flow.yaml")
}

// JSON-mode, States Language and chain definitions have JSON states: only
// the states a checkpoint may name, and the workflow id, are compared.
func TestBreakingJSONStates(t *testing.T) {
	dir := t.TempDir()
	for _, sub := range []string{"old", "new"} {
		require.NoError(t, os.Mkdir(filepath.Join(dir, sub), 0o755))
	}
	writeDefinitions(t, dir, map[string]string{ // the id of a machine is its file's stem
		"old/m.asl.json": `{"StartAt": "A", "States": {"A": {"Type": "Pass", "Next": "B"}, "B": {"Type": "Pass", "End": true}}}`,
		"new/m.asl.json": `{"StartAt": "A", "States": {"A": {"Type": "Pass", "End": true}}}`,
		"old/c.chain.yaml": "tasks:\n  - id: a\n    handler: a\n    transition: {branches: [{operator: default, goto: b}]}\n" +
			"  - id: b\n    handler: b\n    transition: {branches: [{operator: default, goto: end}]}\n",
		"new/c.chain.yaml": "tasks:\n  - id: a\n    handler: a\n    transition: {branches: [{operator: default, goto: end}]}\n",
		"old.flow.yaml": "workflow: w\nstates:\n  - id: first\n    assistant_id: a\n    task: t\n    next: {state_id: second}\n" +
			"  - id: second\n    assistant_id: a\n    task: t\n    next: {state_id: end}\n",
		"new.flow.yaml": "workflow: w\nstates:\n  - id: first\n    assistant_id: a\n    task: t\n    next: {state_id: third}\n" +
			"  - id: third\n    assistant_id: a\n    task: t\n    next: {state_id: end}\n",
	})
	code, out, _ := breaking(t, filepath.Join(dir, "new", "m.asl.json"), "--against", filepath.Join(dir, "old", "m.asl.json"))
	assert.Equal(t, exitFailed, code)
	assert.Equal(t, filepath.Join(dir, "old", "m.asl.json")+`:1:65: state "B" removed: a checkpoint that names it cannot go on`+"\n", out)

	code, out, _ = breaking(t, filepath.Join(dir, "new", "c.chain.yaml"), "--against", filepath.Join(dir, "old", "c.chain.yaml"))
	assert.Equal(t, exitFailed, code)
	assert.Equal(t, filepath.Join(dir, "old", "c.chain.yaml")+`:5:9: state "b" removed: a checkpoint that names it cannot go on`+"\n", out)

	code, out, _ = breaking(t, filepath.Join(dir, "new.flow.yaml"), "--against", filepath.Join(dir, "old.flow.yaml"))
	assert.Equal(t, exitFailed, code)
	assert.Equal(t, filepath.Join(dir, "old.flow.yaml")+`:7:9: state "second" removed, or renamed to "third": a checkpoint that names it cannot go on`+"\n", out)

	code, out, _ = breaking(t, filepath.Join(dir, "new.flow.yaml"), "--against", filepath.Join(dir, "new.flow.yaml"))
	assert.Equal(t, exitOK, code)
	assert.Empty(t, out)
}

// flowc breaking reads a definition as flowc check does. A States Language
// file is JSON (AWS's specification: "a State Machine is represented by a
// JSON object"), and a trailing comma, which YAML allows and AWS refuses,
// is an error to both; breaking used to read it as YAML and accept it.
func TestBreakingReadsAsCheckDoes(t *testing.T) {
	dir := t.TempDir()
	writeDefinitions(t, dir, map[string]string{
		"m.asl.json": "{\"StartAt\": \"A\",\n \"States\": {\"A\": {\"Type\": \"Pass\", \"End\": true},}}\n",
	})
	def := filepath.Join(dir, "m.asl.json")
	var checkOut bytes.Buffer
	require.Equal(t, exitFailed, run([]string{"check", def}, strings.NewReader(""), io.Discard, &checkOut))
	require.Contains(t, checkOut.String(), def+":2:")

	code, out, errOut := breaking(t, def, "--against", def)
	assert.Equal(t, exitUsage, code)
	assert.Empty(t, out)
	assert.Equal(t, "flowc breaking: "+checkOut.String(), errOut)
}

func TestBreakingUsage(t *testing.T) {
	code, _, errOut := breaking(t)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, "usage: flowc breaking NEW")
	code, _, _ = breaking(t, "a.flow.yaml", "--against", "b.flow.yaml", "--against-rev", "HEAD")
	assert.Equal(t, exitUsage, code)
	code, _, errOut = breaking(t, filepath.Join(t.TempDir(), "missing.flow.yaml"), "--against", "x")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, "missing.flow.yaml")
}
