package aslmapapproval

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/checkpoint/sqlite"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// A session's history records the input of every state it enters and the
// output of every state that succeeds, inside Maps and Parallels as at the
// top level (issue 36: "state entered (input), state succeeded (output)";
// Step Functions' MapStateEntered/TaskStateEntered events carry the
// state's input, their *Exited events its output): a Task, a Choice, an
// Approval and a Pass in a Map's items, and a Map inside a Parallel branch.
func TestHistoryHasInnerStatesData(t *testing.T) {
	ctx := context.Background()
	store, err := sqlite.Open(filepath.Join(t.TempDir(), "release.db"))
	require.NoError(t, err)
	defer store.Close()
	_, err = NewRelease(approver{newTeam()}, flowcrt.WithCheckpointer(store)).Invoke(ctx, "h1", map[string]any{})
	require.NoError(t, err)

	events, _, err := store.History(ctx, "h1", 0, 0)
	require.NoError(t, err)
	fields := map[string]string{} // by "kind state"
	for _, e := range events {
		fields[string(e.Kind)+" "+e.State] = string(e.Fields)
		if !strings.Contains(e.State, "/") {
			continue
		}
		var f map[string]json.RawMessage
		switch e.Kind {
		case "state_entered":
			require.NoError(t, json.Unmarshal(e.Fields, &f), e.State)
			assert.Contains(t, f, "input", e.State)
		case "state_succeeded":
			require.NoError(t, json.Unmarshal(e.Fields, &f), e.State)
			assert.Contains(t, f, "output", e.State)
		}
	}
	risky := `{"id": 1, "risky": true}`
	approved := `{"id": 1, "risky": true, "decision": {"approval": "yes"}}`
	for key, want := range map[string]string{
		"state_entered Review/0/Check":                 `{"input": ` + risky + `}`,
		"state_succeeded Review/0/Check":               `{"output": ` + risky + `}`,
		"state_entered Review/0/Risky":                 `{"input": ` + risky + `}`,
		"state_succeeded Review/0/Risky":               `{"output": ` + risky + `}`,
		"state_entered Review/0/Approve":               `{"input": ` + risky + `}`,
		"state_succeeded Review/0/Approve":             `{"output": ` + approved + `}`,
		"state_entered Review/0/Ship":                  `{"input": ` + approved + `}`,
		"state_succeeded Review/0/Ship":                `{"output": {"id": 1, "shipped": "yes"}}`,
		"state_entered Review/1/Safe":                  `{"input": {"id": 2, "risky": false}}`,
		"state_succeeded Review/1/Safe":                `{"output": {"id": 2, "risky": false, "decision": "safe"}}`,
		"state_entered Release/0/Sign/1/Countersign":   `{"input": "bob"}`,
		"state_succeeded Release/0/Sign/1/Countersign": `{"output": {"approval": "signed"}}`,
		"state_succeeded Release/0/Sign":               `{"output": [{"approval": "signed"}, {"approval": "signed"}]}`,
		"state_succeeded Release/1/Notify":             `{"output": "notified"}`,
	} {
		require.Contains(t, fields, key)
		assert.JSONEq(t, want, fields[key], key)
	}
	// Both branches of the Parallel start on its input, the Map's output.
	var sign struct{ Input struct{ Signers []string } }
	require.NoError(t, json.Unmarshal([]byte(fields["state_entered Release/0/Sign"]), &sign))
	assert.Equal(t, []string{"ann", "bob"}, sign.Input.Signers)
	assert.JSONEq(t, fields["state_entered Release/0/Sign"], fields["state_entered Release/1/Notify"])
}
