package main

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// callbackDef hands its task token to a queue and waits for it (the Step
// Functions callback pattern); a Rejected failure is caught.
const callbackDef = `{
  "StartAt": "Ask",
  "States": {
    "Ask": {
      "Type": "Task",
      "Resource": "arn:aws:states:::sqs:sendMessage.waitForTaskToken",
      "Parameters": {"QueueUrl": "q", "MessageBody": {"TaskToken.$": "$$.Task.Token"}},
      "ResultPath": "$.answer",
      "HeartbeatSeconds": 600,
      "Catch": [{"ErrorEquals": ["Rejected"], "ResultPath": "$.error", "Next": "Cancelled"}],
      "Next": "Done"
    },
    "Done": {"Type": "Succeed"},
    "Cancelled": {"Type": "Pass", "Result": "cancelled", "ResultPath": "$.status", "End": true}
  }
}`

// waitingToken reads the token of a WAITING result line.
func waitingToken(t *testing.T, line string) string {
	t.Helper()
	var w struct{ Status, State, Task_token string }
	require.NoError(t, json.Unmarshal([]byte(line), &w), line)
	require.Equal(t, "WAITING", w.Status, line)
	assert.Equal(t, "Ask", w.State)
	return w.Task_token
}

// A waiting run prints its token; --task-heartbeat keeps the wait,
// --task-success ends it with the output, and the token is then refused;
// --task-failure goes through Catch.
func TestRunTaskTokenFlags(t *testing.T) {
	if testing.Short() {
		t.Skip("flowc run builds with the go tool")
	}
	dir := t.TempDir()
	def := writeFile(t, dir, "ask.asl.json", callbackDef)
	in := writeFile(t, dir, "in.json", `{"order": 7}`)
	session := []string{def, "--checkpoint-db", filepath.Join(dir, "s.db"), "--session", "o-7"}

	token := waitingToken(t, runOK(t, append(session, "--input", in)...))
	assert.Equal(t, token, waitingToken(t, runOK(t, append(session, "--task-heartbeat", token)...)), "the same token waits on")
	assert.JSONEq(t, `{"status":"SUCCEEDED","output":{"order":7,"answer":{"approver":"ana"}}}`,
		runOK(t, append(session, "--task-success", token, "--task-output", `{"approver":"ana"}`)...))

	code, _, stderr := cli(t, "", append([]string{"run"}, append(session, "--task-success", token)...)...)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "task token was used already")

	failing := []string{def, "--checkpoint-db", filepath.Join(dir, "s.db"), "--session", "o-8"}
	token = waitingToken(t, runOK(t, append(failing, "--input", in)...))
	assert.JSONEq(t, `{"status":"SUCCEEDED","output":{"order":7,"error":{"Error":"Rejected","Cause":"no stock"},"status":"cancelled"}}`,
		runOK(t, append(failing, "--task-failure", token, "--task-error", "Rejected", "--task-cause", "no stock")...))

	code, _, stderr = cli(t, "", append([]string{"run"}, append(session, "--task-success", "nonsense")...)...)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "task token is not valid")
}

// Combinations that make no sense are refused before anything runs.
func TestRunTaskTokenFlagMisuse(t *testing.T) {
	dir := t.TempDir()
	def := writeFile(t, dir, "ask.asl.json", callbackDef)
	db := filepath.Join(dir, "s.db")
	for args, want := range map[string][]string{
		"a task token is answered in its session":       {def, "--task-success", "t"},
		"send one of --task-success":                    {def, "--checkpoint-db", db, "--session", "s", "--task-success", "t", "--task-failure", "t"},
		"--task-output goes with --task-success":        {def, "--checkpoint-db", db, "--session", "s", "--task-output", "{}"},
		"--task-output is not JSON":                     {def, "--checkpoint-db", db, "--session", "s", "--task-success", "t", "--task-output", "{"},
		"--task-error and --task-cause go with":         {def, "--checkpoint-db", db, "--session", "s", "--task-cause", "c"},
		"answer a task token or an approval, not both":  {def, "--checkpoint-db", db, "--session", "s", "--task-success", "t", "--decision", "yes"},
		"continues the session as it is; give new --in": {def, "--checkpoint-db", db, "--session", "s", "--task-heartbeat", "t", "--input", def},
	} {
		code, _, stderr := cli(t, "", append([]string{"run"}, want...)...)
		assert.Equal(t, exitUsage, code, args)
		assert.Contains(t, stderr, args)
	}
}
