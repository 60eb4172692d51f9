package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRunJSONMode runs CodeMie-style workflows (no `state:` schema) with
// mocks through `flowc run`: the output is the final context store.
func TestRunJSONMode(t *testing.T) {
	if testing.Short() {
		t.Skip("flowc run builds with the go tool")
	}
	dir := filepath.Join("..", "..", "golden", "jsonchain")
	def, mocks := filepath.Join(dir, "isolation.flow.yaml"), filepath.Join(dir, "mocks.json")

	// The context isolation example: the last item's result wins.
	code, stdout, stderr := cli(t, `{"user": "Alice", "mode": "production"}`, "run", def, "--input", "-", "--mock-config", mocks, "--test-case", "results")
	assert.Equal(t, exitOK, code, stderr)
	assert.Equal(t, `{"status":"SUCCEEDED","output":{"chunks":[{"id":1},{"id":2}],"id":2,"mode":"production","result":"processed-2","user":"Alice"}}`+"\n", stdout)
	assert.Contains(t, stderr, `state "merge-results" has no mock; it returns its rendered task`)

	code, stdout, stderr = cli(t, "", "run", def, "--mock-config", mocks, "--test-case", "failing-item", "--skip-waits")
	assert.Equal(t, exitFailed, code, stderr)
	assert.Equal(t, `{"status":"FAILED","error":"ChunkFailed","cause":"chunk 2 is corrupt"}`+"\n", stdout)

	// Any JSON value is an input; one that is not an object leaves the
	// store empty and is what {{task}} renders outside iterations.
	tmp := t.TempDir()
	echo := writeFile(t, tmp, "echo.flow.yaml", `states:
  - id: echo
    assistant_id: echo
    task: 'You said: {{task}}'
    next:
      condition: {expression: "'said' in keys", then: end, otherwise: end}
`)
	code, stdout, stderr = cli(t, "", "run", echo, "--input", writeFile(t, tmp, "in.json", `"hello"`))
	assert.Equal(t, exitOK, code, stderr)
	assert.Equal(t, `{"status":"SUCCEEDED","output":{}}`+"\n", stdout)
	assert.Contains(t, stderr, `state "echo" has no mock; it returns its rendered task`)
}

// TestGraphJSONMode draws a JSON-mode iteration as a subgraph, with the
// conditions on the edges.
func TestGraphJSONMode(t *testing.T) {
	def := filepath.Join("..", "..", "golden", "jsonchain", "multistage.flow.yaml")
	code, stdout, stderr := cli(t, "", "graph", def)
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stdout, `subgraph s0_each["split-work: each item of chunks, at most 2 at a time"]`)
	assert.Contains(t, stdout, `s0 -->|"each item of chunks, at most 2 at a time"| s1`)

	def = filepath.Join("..", "..", "golden", "jsonswitch", "errors.flow.yaml")
	code, stdout, stderr = cli(t, "", "graph", "--format", "dot", def)
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stdout, `s0 -> s1 [label="error_count == 0 and status == 'complete'"];`)
	assert.Contains(t, stdout, `s0 -> s4 [label="default"];`)
}

// TestCheckJSONMode reports the errors of a JSON-mode definition at their
// positions, inside expressions and templates, and exits 1.
func TestCheckJSONMode(t *testing.T) {
	def := writeFile(t, t.TempDir(), "bad.flow.yaml", `states:
  - id: check
    assistant_id: checker
    task: Check {{name}}
    next:
      condition:
        expression: "count > > 1"
        then: done
        otherwise: don
  - id: done
    assistant_id: reporter
`)
	code, stdout, stderr := cli(t, "", "check", def)
	assert.Equal(t, exitFailed, code)
	assert.Empty(t, stdout)
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	require.Len(t, lines, 2, stderr)
	assert.Equal(t, def+":7:30: condition \"count > > 1\" is no Python expression: invalid syntax at \">\"", lines[0])
	assert.Equal(t, def+":9:20: unknown state \"don\" (did you mean `done`?)", lines[1])

	// CodeMie sends a task that is no Jinja2 template as written
	// (dynamic_value_utils.py, _resolve_dynamic_values), so it is a
	// warning at the task, and the definition is accepted.
	def = writeFile(t, t.TempDir(), "template.flow.yaml", `states:
  - id: check
    assistant_id: checker
    resolve_dynamic_values_in_prompt: true
    task: Check {{ item.name }} {{}}
`)
	code, _, stderr = cli(t, "", "check", def)
	assert.Equal(t, exitOK, code)
	assert.Contains(t, stderr, def+":5:11: warning: task is no Jinja2 template")
	assert.Contains(t, stderr, "CodeMie sends it as written")
}

// A CodeMie interrupt_before without an answer stops a session with the
// INTERRUPTED line; --decision continue goes on from its checkpoint.
func TestRunJSONModeSession(t *testing.T) {
	if testing.Short() {
		t.Skip("flowc run builds with the go tool")
	}
	dir := filepath.Join("..", "..", "golden", "codemieloop")
	input := writeFile(t, t.TempDir(), "in.json", `{"topic": "Go"}`)
	session := []string{filepath.Join(dir, "loop.flow.yaml"), "--mock-config", filepath.Join(dir, "mocks.json"), "--test-case", "waiting",
		"--checkpoint-db", filepath.Join(t.TempDir(), "s.db"), "--session", "s1"}
	assert.Equal(t, `{"status":"INTERRUPTED","prompt":"continue with state publish?","options":["continue","cancel"]}`+"\n",
		runOK(t, append(session, "--input", input)...))
	assert.Equal(t, `{"status":"SUCCEEDED","output":{"approved":true,"topic":"Go"}}`+"\n",
		runOK(t, append(session, "--decision", "continue")...))
}
