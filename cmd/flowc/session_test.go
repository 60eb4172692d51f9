package main

import (
	"database/sql"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	_ "modernc.org/sqlite" // the test writes a foreign SQLite file
)

// chatDef is the state of llmfy's continuation example (its State
// documentation): messages with a reducer, status and counter without.
const chatDef = `workflow: Chat
state:
  messages: {type: "[]string", reducer: append}
  status: string
  counter: int
states:
  - id: receive
    next: {state_id: reply}
  - id: reply
    end: true
`

const chatMocks = `{
  "StateMachines": {"Chat": {"TestCases": {"ack": {"reply": "Ack"}}}},
  "MockedResponses": {"Ack": {"0": {"Return": {"messages": ["ack"]}}}}
}`

// publishDef waits for a person between two states.
const publishDef = `workflow: Publish
state:
  draft: string
  log: {type: "[]string", reducer: append}
states:
  - id: write
    next: {state_id: review}
  - id: review
    type: approval
    prompt: Publish the draft?
    options: [approve, reject]
    next:
      condition: {expression: "decision == 'approve'", then: publish, otherwise: discard}
  - id: publish
  - id: discard
`

const publishMocks = `{
  "StateMachines": {"Publish": {"TestCases": {"t": {"write": "Write", "publish": "Publish", "discard": "Discard"}}}},
  "MockedResponses": {
    "Write": {"0": {"Return": {"draft": "v1"}}},
    "Publish": {"0": {"Return": {"log": ["published"]}}},
    "Discard": {"0": {"Return": {"log": ["discarded"]}}}
  }
}`

// reviewDef is a States Language machine with an Approval and a Checkpoint.
const reviewDef = `{
  "StartAt": "Save",
  "States": {
    "Save": {"Type": "Checkpoint", "Name": "start", "Next": "Review"},
    "Review": {
      "Type": "Approval", "Prompt": "Ship it?", "Options": ["yes", "no"], "ResultPath": "$.review",
      "Choices": [{"Variable": "$.review.approval", "StringEquals": "yes", "Next": "Ship"}],
      "Default": "Stop"
    },
    "Ship": {"Type": "Pass", "Result": "shipped", "ResultPath": "$.result", "End": true},
    "Stop": {"Type": "Fail", "Error": "Stopped"}
  }
}`

func runOK(t *testing.T, args ...string) string {
	t.Helper()
	code, stdout, stderr := cli(t, "", append([]string{"run"}, args...)...)
	require.Equal(t, exitOK, code, "stderr:\n%s", stderr)
	return stdout
}

// That example's three invocations through `flowc run`: the second input's
// messages are appended, its status replaces the old one, and the counter
// it does not give is carried over; without input the finished session
// runs again on its state.
func TestRunSessionContinuation(t *testing.T) {
	if testing.Short() {
		t.Skip("flowc run builds with the go tool")
	}
	dir := t.TempDir()
	def := writeFile(t, dir, "chat.flow.yaml", chatDef)
	mocks := writeFile(t, dir, "mocks.json", chatMocks)
	first := writeFile(t, dir, "first.json", `{"messages": [], "status": "start", "counter": 1}`)
	second := writeFile(t, dir, "second.json", `{"messages": ["new input"], "status": "continuing"}`)
	db := filepath.Join(dir, "sessions.db")
	session := []string{def, "--mock-config", mocks, "--test-case", "ack", "--checkpoint-db", db, "--session", "user-123"}

	assert.Equal(t, `{"status":"SUCCEEDED","output":{"messages":["ack"],"status":"start","counter":1}}`+"\n",
		runOK(t, append(session, "--input", first)...))
	assert.Equal(t, `{"status":"SUCCEEDED","output":{"messages":["ack","new input","ack"],"status":"continuing","counter":1}}`+"\n",
		runOK(t, append(session, "--input", second)...))
	assert.Equal(t, `{"status":"SUCCEEDED","output":{"messages":["ack","new input","ack","ack"],"status":"continuing","counter":1}}`+"\n",
		runOK(t, session...))
}

// An approval without a mock waits: the line says INTERRUPTED with the
// prompt and options, and --decision continues the session.
func TestRunSessionApproval(t *testing.T) {
	if testing.Short() {
		t.Skip("flowc run builds with the go tool")
	}
	dir := t.TempDir()
	def := writeFile(t, dir, "publish.flow.yaml", publishDef)
	mocks := writeFile(t, dir, "mocks.json", publishMocks)
	session := []string{def, "--mock-config", mocks, "--test-case", "t", "--checkpoint-db", filepath.Join(dir, "s.db"), "--session", "doc"}

	assert.Equal(t, `{"status":"INTERRUPTED","prompt":"Publish the draft?","options":["approve","reject"]}`+"\n", runOK(t, session...))
	code, stdout, stderr := cli(t, "", append([]string{"run"}, append(session, "--decision", "maybe")...)...)
	assert.Equal(t, exitUsage, code)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, `approval decision "maybe" is not one of the options "approve", "reject"`)
	assert.Equal(t, `{"status":"SUCCEEDED","output":{"draft":"v1","log":["published"]}}`+"\n",
		runOK(t, append(session, "--decision", "approve")...))
}

// The same through a States Language machine, whose Checkpoint state
// saves as every top-level state does.
func TestRunSessionApprovalASL(t *testing.T) {
	if testing.Short() {
		t.Skip("flowc run builds with the go tool")
	}
	dir := t.TempDir()
	def := writeFile(t, dir, "review.asl.json", reviewDef)
	input := writeFile(t, dir, "input.json", `{"id": 7}`)
	session := []string{def, "--checkpoint-db", filepath.Join(dir, "s.db"), "--session", "r"}

	assert.Equal(t, `{"status":"INTERRUPTED","prompt":"Ship it?","options":["yes","no"]}`+"\n", runOK(t, append(session, "--input", input)...))
	assert.Equal(t, `{"status":"SUCCEEDED","output":{"id":7,"result":"shipped","review":{"approval":"yes"}}}`+"\n",
		runOK(t, append(session, "--decision", "yes")...))
}

// A checkpoint file that is not one fails before anything is built, and
// says what is wrong with it.
func TestRunSessionBadDatabase(t *testing.T) {
	dir := t.TempDir()
	def := writeFile(t, dir, "chat.flow.yaml", chatDef)
	foreign := filepath.Join(dir, "foreign.db")
	db, err := sql.Open("sqlite", foreign)
	require.NoError(t, err)
	_, err = db.Exec(`CREATE TABLE users (name TEXT)`)
	require.NoError(t, err)
	require.NoError(t, db.Close())
	damaged := writeFile(t, dir, "damaged.db", "SQLite format 3\x00"+string(make([]byte, 84))+"not the rest of a database")
	tests := []struct{ file, want string }{
		{writeFile(t, dir, "notes.txt", "these are my notes\n"), "not a SQLite database"},
		{foreign, "a SQLite database, but not a flowc checkpoint store (it has the tables users)"},
		{damaged, "cannot be read as a SQLite database (damaged?)"},
	}
	for _, tt := range tests {
		code, stdout, stderr := cli(t, "", "run", def, "--checkpoint-db", tt.file, "--session", "s")
		assert.Equal(t, exitUsage, code, tt.file)
		assert.Empty(t, stdout)
		assert.Contains(t, stderr, tt.want)
	}
	info, err := os.Stat(tests[0].file)
	require.NoError(t, err)
	assert.EqualValues(t, len("these are my notes\n"), info.Size(), "the file is left as it was")
}

func TestRunSessionUsage(t *testing.T) {
	dir := t.TempDir()
	def := writeFile(t, dir, "chat.flow.yaml", chatDef)
	input := writeFile(t, dir, "in.json", `{}`)
	db := filepath.Join(dir, "s.db")
	for _, args := range [][]string{
		{def, "--session", "s"},
		{def, "--checkpoint-db", db},
		{def, "--decision", "yes"},
		{def, "--checkpoint-db", db, "--session", "s", "--decision", "yes", "--input", input},
	} {
		code, _, stderr := cli(t, "", append([]string{"run"}, args...)...)
		assert.Equal(t, exitUsage, code, "%v", args)
		assert.Contains(t, stderr, "flowc run: ")
	}
}
