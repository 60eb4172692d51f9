package main

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mapApprovalDef stops for approvals inside a Map (as Agent State
// Language's Approval does), for the risky items only.
const mapApprovalDef = `{
  "StartAt": "Review",
  "States": {
    "Review": {
      "Type": "Map", "ItemsPath": "$.items", "ResultPath": "$.reviewed",
      "ItemProcessor": {"StartAt": "Risky", "States": {
        "Risky": {"Type": "Choice", "Choices": [{"Variable": "$.risky", "BooleanEquals": true, "Next": "Approve"}], "Default": "Safe"},
        "Approve": {"Type": "Approval", "Prompt": "Ship <b>it</b>?", "Options": ["yes", "no"], "End": true},
        "Safe": {"Type": "Pass", "End": true}
      }},
      "End": true
    }
  }
}`

func sessionsCLI(t *testing.T, db string, args ...string) (int, string, string) {
	t.Helper()
	return cli(t, "", append([]string{"sessions", "--checkpoint-db", db}, args...)...)
}

func jsonLines[T any](t *testing.T, out string) []T {
	t.Helper()
	var all []T
	for line := range strings.Lines(out) {
		var v T
		require.NoError(t, json.Unmarshal([]byte(line), &v), line)
		all = append(all, v)
	}
	return all
}

// A session that waits inside a Map, listed, shown with its stops by key,
// followed through its history with the answer's door, stopped, and then
// refusing the answer it waited for, all through flowc on the SQLite file
// a real run wrote.
func TestSessionsCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("flowc run and flowc sessions build with the go tool")
	}
	dir := t.TempDir()
	def := writeFile(t, dir, "release.asl.json", mapApprovalDef)
	input := writeFile(t, dir, "in.json", `{"items": [{"risky": true}, {"risky": false}, {"risky": true}]}`)
	db := filepath.Join(dir, "s.db")
	session := []string{def, "--checkpoint-db", db, "--session", "rel-1"}
	runOK(t, append(session, "--input", input)...)
	runOK(t, append(session, "--decision", "yes", "--at", "Review/0/Approve")...)

	code, out, stderr := sessionsCLI(t, db, "list", "--json")
	require.Equal(t, exitOK, code, stderr)
	list := jsonLines[map[string]any](t, out)
	require.Len(t, list, 1)
	assert.Equal(t, "rel-1", list[0]["id"])
	assert.Equal(t, "release", list[0]["workflow"])
	assert.Equal(t, "interrupted", list[0]["status"])
	assert.Regexp(t, `^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$`, list[0]["updated"], "RFC 3339")

	code, out, stderr = sessionsCLI(t, db, "show", "rel-1", "--json")
	require.Equal(t, exitOK, code, stderr)
	var shown struct {
		ID, Workflow, Status, State string
		Stops                       []struct {
			Key, State, Kind, Prompt string
			Options                  []string
		}
	}
	require.NoError(t, json.Unmarshal([]byte(out), &shown))
	assert.Equal(t, "interrupted", shown.Status)
	assert.Equal(t, "Review", shown.State)
	require.Len(t, shown.Stops, 1, "the item answered goes on; the other still waits")
	assert.Equal(t, "Review/2/Approve", shown.Stops[0].Key)
	assert.Equal(t, "approval", shown.Stops[0].Kind)
	assert.Equal(t, "Ship <b>it</b>?", shown.Stops[0].Prompt)
	assert.Equal(t, []string{"yes", "no"}, shown.Stops[0].Options)

	code, out, stderr = sessionsCLI(t, db, "history", "rel-1", "--json")
	require.Equal(t, exitOK, code, stderr)
	var kinds []string
	var answer map[string]any
	for _, e := range jsonLines[struct {
		Seq         int
		Kind, State string
		Fields      map[string]any
	}](t, out) {
		if e.State == "" || !strings.Contains(e.State, "/") || e.Kind != "state_entered" {
			kinds = append(kinds, e.Kind+" "+e.State)
		}
		if e.Kind == "answer_received" {
			answer = e.Fields
		}
	}
	assert.Equal(t, []string{
		"run_started ", "state_entered Review",
		"state_succeeded Review/0/Risky", "state_succeeded Review/1/Risky", "state_succeeded Review/1/Safe", "state_succeeded Review/2/Risky",
		"stopped_for_approval Review/0/Approve", "stopped_for_approval Review/2/Approve",
		"answer_received Review/0/Approve", "state_entered Review",
		// Item 2 goes back to its stop, not through Risky again, and waits
		// there still: it is not recorded as a new stop.
		"state_succeeded Review/0/Approve",
	}, sortedInner(kinds))
	assert.Equal(t, map[string]any{"decision": "yes", "door": "cli"}, answer)

	code, out, stderr = sessionsCLI(t, db, "stop", "rel-1", "--error", "Abandoned", "--cause", "nobody reviews it")
	require.Equal(t, exitOK, code, stderr)
	assert.Equal(t, "session rel-1 stopped\n", out)
	code, _, stderr = cli(t, "", append([]string{"run"}, append(session, "--decision", "yes", "--at", "Review/2/Approve")...)...)
	assert.NotEqual(t, exitOK, code)
	assert.Contains(t, stderr, "the session was stopped")

	code, out, _ = sessionsCLI(t, db, "list", "--status", "stopped")
	require.Equal(t, exitOK, code)
	assert.Regexp(t, `^ID\s+WORKFLOW\s+STATUS\s+STATE\s+STOPS\s+UPDATED\nrel-1\s+release\s+stopped\s+Review\s+0\s+\S+Z\n$`, out)

	code, _, stderr = sessionsCLI(t, db, "show", "nope")
	assert.Equal(t, exitFailed, code)
	assert.Contains(t, stderr, `session "nope": no checkpoint`)
	code, _, stderr = sessionsCLI(t, db, "list", "--status", "done")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, `no status "done"`)
	code, _, stderr = cli(t, "", "sessions", "list")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "--checkpoint-db FILE")
}

// sortedInner keeps the events outside fan-outs in order and sorts each run
// of events inside them, whose items run concurrently.
func sortedInner(kinds []string) []string {
	out := append([]string(nil), kinds...)
	for i := 0; i < len(out); {
		j := i
		for j < len(out) && strings.HasPrefix(out[j], "state_succeeded ") {
			j++
		}
		if j > i {
			sortStrings(out[i:j])
			i = j
		} else {
			i++
		}
	}
	return out
}

func sortStrings(s []string) { slices.Sort(s) }
