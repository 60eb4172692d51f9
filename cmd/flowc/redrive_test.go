package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// redriveMocks: Work's third call throws. A run hands the items out in
// order, so item c (index 2) fails; a redrive is a new process, whose mock
// counts from 0 again: had it run items a and b again, c would get the
// third answer and fail again.
const redriveMocks = `{
  "StateMachines": {"batch": {"TestCases": {
    "flaky": {"Load": "Items", "Work": "ThirdFails", "Left": "Done", "Right": "Done", "Report": "Same"},
    "clean": {"Load": "Items", "Work": "Fine", "Left": "Done", "Right": "Done", "Report": "Same"}}}},
  "MockedResponses": {
    "Items": {"0": {"Return": {"items": ["a", "b", "c", "d"]}}},
    "ThirdFails": {"0-1": {"Return": {"ok": true}}, "2": {"Throw": {"Error": "Flaky", "Cause": "c is down"}}, "3-9": {"Return": {"ok": true}}},
    "Fine": {"0-9": {"Return": {"ok": true}}},
    "Done": {"0-9": {"Return": "done"}},
    "Same": {"0": {"Return": {"reported": true}}}}
}`

// flowc run --redrive, end to end on a SQLite file: the run fails at item 2
// of the Map, flowc sessions show says why (as DescribeExecution's error,
// cause and redriveCount), --redrive goes on from there to the output of
// an uninterrupted run, recorded as redriven, and a redrive of the session
// that succeeded is refused (exit 2), as Step Functions'
// ExecutionNotRedrivable.
func TestRunRedrive(t *testing.T) {
	if testing.Short() {
		t.Skip("flowc run builds with the go tool")
	}
	dir := t.TempDir()
	mocks := filepath.Join(dir, "mocks.json")
	require.NoError(t, os.WriteFile(mocks, []byte(redriveMocks), 0o644))
	def := filepath.Join("..", "..", "golden", "redrive", "batch.asl.json")
	session := []string{"run", def, "--mock-config", mocks, "--test-case", "flaky",
		"--checkpoint-db", filepath.Join(dir, "s.db"), "--session", "b1"}

	code, out, stderr := cli(t, "", session...)
	assert.Equal(t, exitFailed, code, stderr)
	assert.Contains(t, out, `"error":"Flaky"`)

	db := filepath.Join(dir, "s.db")
	failed := showSession(t, db, "b1")
	assert.Equal(t, "failed", failed.Status)
	assert.Equal(t, "Each", failed.State, "the Map that failed")
	require.NotNil(t, failed.Failure)
	assert.Equal(t, "Flaky", failed.Failure.Error)
	assert.Equal(t, "c is down", failed.Failure.Cause)
	assert.Zero(t, failed.Redrives)
	code, out, stderr = sessionsCLI(t, db, "show", "b1")
	require.Equal(t, exitOK, code, stderr)
	assert.Regexp(t, `(?m)^ERROR\s+Flaky\nCAUSE\s+c is down$`, out)

	want := runOK(t, def, "--mock-config", mocks, "--test-case", "clean")
	assert.Equal(t, want, runOK(t, append(session[1:], "--redrive")...))
	done := showSession(t, db, "b1")
	assert.Equal(t, "succeeded", done.Status)
	assert.Nil(t, done.Failure)
	assert.Equal(t, 1, done.Redrives)
	code, out, stderr = sessionsCLI(t, db, "history", "b1", "--json")
	require.Equal(t, exitOK, code, stderr)
	var kinds []string
	for _, e := range jsonLines[struct{ Kind, State string }](t, out) {
		if e.State == "" || e.Kind == "redriven" || e.Kind == "state_failed" && e.State == "Each" {
			kinds = append(kinds, e.Kind+" "+e.State)
		}
	}
	assert.Equal(t, []string{"run_started ", "state_failed Each", "run_failed ", "redriven Each", "run_succeeded "}, kinds)

	code, _, stderr = cli(t, "", append(session, "--redrive")...)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "only a failed session can be redriven: its last run is succeeded")
}

type sessionShown struct {
	Status, State string
	Failure       *struct{ Error, Cause string }
	Redrives      int `json:"redrive_count"`
}

func showSession(t *testing.T, db, id string) sessionShown {
	t.Helper()
	code, out, stderr := sessionsCLI(t, db, "show", id, "--json")
	require.Equal(t, exitOK, code, stderr)
	var s sessionShown
	require.NoError(t, json.Unmarshal([]byte(out), &s))
	return s
}
