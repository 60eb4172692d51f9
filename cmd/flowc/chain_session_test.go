package main

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

const stepsChain = `id: steps
tasks:
  - id: a
    handler: step_a
    transition: {branches: [{operator: default, goto: b, compose: {with_var: got_a}}]}
  - id: b
    handler: step_b
    transition: {branches: [{operator: default, goto: c}]}
  - id: c
    handler: noop
    prompt_template: "{{ .a }} then {{ .b }}"
`

// Test case "b-up" has no mock for task a: were a run again, it would
// return its input ({}) and say so on stderr.
const stepsMocks = `{"StateMachines": {"steps": {"TestCases": {
  "b-down": {"a": "A", "b": "Down"},
  "b-up": {"b": "B"}}}},
 "MockedResponses": {
  "A": {"0": {"Return": {"Output": "from a"}}},
  "Down": {"0": {"Throw": {"Error": "Service.Down", "Cause": "b is down"}}},
  "B": {"0": {"Return": {"Output": "from b"}}}}}`

// A task chain runs as a session through flowc run (issue 22): a task that
// fails saves nothing, so the session resumed with other mocks goes on at
// that task with the state the task before it left, which does not run
// again; a decision is refused, since nothing in a chain waits for one.
func TestRunChainSession(t *testing.T) {
	if testing.Short() {
		t.Skip("flowc run builds with the go tool")
	}
	dir := t.TempDir()
	def := writeFile(t, dir, "steps.chain.yaml", stepsChain)
	mocks := writeFile(t, dir, "mocks.json", stepsMocks)
	session := []string{"run", def, "--mock-config", mocks, "--checkpoint-db", filepath.Join(dir, "s.db"), "--session", "s"}

	code, stdout, stderr := cli(t, "", append(session, "--test-case", "b-down")...)
	assert.Equal(t, exitFailed, code, stderr)
	assert.Equal(t, `{"status":"FAILED","error":"Service.Down","cause":"b is down"}`+"\n", stdout)

	code, stdout, stderr = cli(t, "", append(session, "--test-case", "b-up")...)
	assert.Equal(t, exitOK, code, stderr)
	assert.Equal(t, `{"status":"SUCCEEDED","output":{"output":"from a then from b","vars":{"got_a":"from a"}}}`+"\n", stdout)
	assert.NotContains(t, stderr, `task "a" has no mock`, "task a finished before the failure: it does not run again")

	code, _, stderr = cli(t, "", append(session, "--test-case", "b-up", "--decision", "yes")...)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, `workflow "steps" has no approval or interrupt: nothing waits for a decision`)
}
