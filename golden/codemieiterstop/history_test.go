package codemieiterstop

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/golden/jsontest"
	flowcrt "github.com/flowc-dev/flowc/runtime"
	"github.com/flowc-dev/flowc/session"
)

// The history of a CodeMie session whose iteration stops at
// interrupt_before in two items and whose state_ids fan-out then stops in
// one branch: states inside them are named by their stop keys
// ("plan/2/deploy"), each stop is recorded once with its prompt and
// options even though answering the other item runs the iteration again,
// and each answer says which door it came through. Source: the engine's
// history (runtime/impl/history.go); issue 36 (events for stops, answers
// and doors).
func TestHistoryInsideIteration(t *testing.T) {
	ctx := context.Background()
	store := session.NewMemoryCheckpointer()
	w := NewRelease(NewReleaseMockHandlers(jsontest.Mocks(t, "release", "waits")), flowcrt.WithCheckpointer(store))
	_, err := w.Invoke(ctx, "r7", input)
	require.True(t, flowcrt.IsInterrupted(err))
	_, err = w.DecideAt(flowcrt.WithDoor(ctx, session.DoorConsole), "r7", "plan/2/deploy", "continue")
	require.True(t, flowcrt.IsInterrupted(err))
	_, err = w.DecideAt(flowcrt.WithDoor(ctx, session.DoorCLI), "r7", "plan/0/deploy", "continue")
	require.True(t, flowcrt.IsInterrupted(err))
	_, err = w.Decide(ctx, "r7", "continue")
	require.NoError(t, err)

	events, _, err := store.History(ctx, "r7", 0, 0)
	require.NoError(t, err)
	var got []string
	fields := map[string]string{}
	for _, e := range events {
		got = append(got, string(e.Kind)+" "+e.State)
		fields[string(e.Kind)+" "+e.State] = string(e.Fields) // the last visit's
	}
	assert.Equal(t, []string{
		"run_started ", "state_entered plan",
		"state_entered plan/0/assess", "state_succeeded plan/0/assess", "state_entered plan/0/deploy",
		"state_entered plan/1/assess", "state_succeeded plan/1/assess", "state_entered plan/1/note", "state_succeeded plan/1/note",
		"state_entered plan/2/assess", "state_succeeded plan/2/assess", "state_entered plan/2/deploy",
		"stopped_for_approval plan/0/deploy", "stopped_for_approval plan/2/deploy",
		// Item 2 is answered; item 0, which still waits, is neither entered
		// nor stopped again.
		"answer_received plan/2/deploy", "state_entered plan", "state_entered plan/2/deploy", "state_succeeded plan/2/deploy",
		"answer_received plan/0/deploy", "state_entered plan", "state_entered plan/0/deploy", "state_succeeded plan/0/deploy",
		"state_succeeded plan", "state_entered signoff",
		"state_entered signoff/0/security", "state_entered signoff/1/legal", "state_succeeded signoff/1/legal",
		"stopped_for_approval signoff/0/security",
		"answer_received signoff/0/security", "state_entered signoff", "state_entered signoff/0/security", "state_succeeded signoff/0/security",
		"state_succeeded signoff", "state_entered summary", "state_succeeded summary", "run_succeeded ",
	}, got)
	assert.JSONEq(t, `{"key": "plan/0/deploy", "prompt": "continue with state deploy?", "options": ["continue", "cancel"]}`, fields["stopped_for_approval plan/0/deploy"])
	assert.JSONEq(t, `{"decision": "continue", "door": "console"}`, fields["answer_received plan/2/deploy"])
	assert.JSONEq(t, `{"decision": "continue", "door": "cli"}`, fields["answer_received plan/0/deploy"])
	assert.JSONEq(t, `{"decision": "continue", "door": "go"}`, fields["answer_received signoff/0/security"])

	assertInnerData(t, fields)

	// A late answer to an item the run took an answer for and went on.
	_, err = w.DecideAt(ctx, "r7", "plan/0/deploy", "cancel")
	assert.ErrorIs(t, err, session.ErrAlreadyAnswered)
	assert.ErrorContains(t, err, `stop "plan/0/deploy" was answered (through cli) and its run went on`)
}

// assertInnerData checks that the states inside the iteration and the
// fan-out record, as the states outside them do, the state they start
// from on state_entered and the state they leave on state_succeeded: each
// item's or branch's own context store, with its item's keys and what its
// states wrote. Source: issue 36 (state entered with its input, state
// succeeded with its output); the mocks' answers (mocks.json, "waits").
func assertInnerData(t *testing.T, fields map[string]string) {
	t.Helper()
	store := func(event, field string) map[string]any {
		var f map[string]struct {
			Context map[string]any
			Input   any
		}
		require.NoError(t, json.Unmarshal([]byte(fields[event]), &f), event)
		require.Contains(t, f, field, event)
		return f[field].Context
	}
	in := store("state_entered plan/1/assess", "input")
	assert.Equal(t, "docs", in["name"], "item 1's keys are in its store")
	assert.NotContains(t, in, "risk", "assess has not run yet")
	assert.Equal(t, "low", store("state_succeeded plan/1/assess", "output")["risk"])
	assert.Equal(t, "low", store("state_entered plan/1/note", "input")["risk"], "note starts where assess left")
	// Entered again once answered, from the item's saved state.
	in = store("state_entered plan/2/deploy", "input")
	assert.Equal(t, "api", in["name"])
	assert.Equal(t, "high", in["risk"])
	assert.Equal(t, "high", store("state_succeeded plan/0/deploy", "output")["risk"])
	legal := store("state_succeeded signoff/1/legal", "output")
	assert.Equal(t, "ok", legal["legal"])
	assert.NotContains(t, legal, "security", "each branch has its own store")
	security := store("state_succeeded signoff/0/security", "output")
	assert.Equal(t, "ok", security["security"])
	assert.NotContains(t, security, "legal", "each branch has its own store")
	assert.NotContains(t, store("state_entered signoff/0/security", "input"), "security")
}

// Resuming a session that waits, with no answer, asks again and records
// nothing: the stops are the ones the history has.
func TestResumeRecordsNoNewStop(t *testing.T) {
	ctx := context.Background()
	store := session.NewMemoryCheckpointer()
	w := NewRelease(NewReleaseMockHandlers(jsontest.Mocks(t, "release", "waits")), flowcrt.WithCheckpointer(store))
	_, err := w.Invoke(ctx, "r7", input)
	require.True(t, flowcrt.IsInterrupted(err))
	before, _, err := store.History(ctx, "r7", 0, 0)
	require.NoError(t, err)
	_, err = w.Resume(ctx, "r7")
	require.True(t, flowcrt.IsInterrupted(err))
	after, _, err := store.History(ctx, "r7", int64(len(before)), 0)
	require.NoError(t, err)
	var kinds []string
	for _, e := range after {
		kinds = append(kinds, string(e.Kind)+" "+e.State)
	}
	assert.Equal(t, []string{"state_entered plan"}, kinds, "the iteration's state is visited again; its waiting items are not")
}
