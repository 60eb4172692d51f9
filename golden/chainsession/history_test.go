package chainsession

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrt "github.com/flowc-dev/flowc/runtime"
	"github.com/flowc-dev/flowc/session"
)

// A chain session's history: the run starts on the chain's input, each
// task is entered and succeeds in the order the chain takes its edges
// (draft and critique three times: edge_traversed_at_least stops the loop
// at its second traversal of critique->draft), then publish, and the run
// succeeds with the last task's output. Source: the engine's history
// (runtime/impl/history.go) over the chain's Save after each task.
func TestChainHistory(t *testing.T) {
	ctx := context.Background()
	store := session.NewMemoryCheckpointer()
	_, err := NewRevise(writer{}, flowcrt.WithCheckpointer(store)).Invoke(ctx, "c1", topic)
	require.NoError(t, err)
	events, dropped, err := store.History(ctx, "c1", 0, 0)
	require.NoError(t, err)
	assert.Zero(t, dropped)
	var got []string
	for _, e := range events {
		got = append(got, string(e.Kind)+" "+e.State)
	}
	loop := []string{"state_entered draft", "state_succeeded draft", "state_entered critique", "state_succeeded critique"}
	want := append([]string{"run_started "}, loop...)
	want = append(append(want, loop...), loop...)
	want = append(want, "state_entered publish", "state_succeeded publish", "run_succeeded ")
	assert.Equal(t, want, got)
	assert.JSONEq(t, `{"input": {"output": {"topic": "sessions"}, "vars": {}}}`, string(events[0].Fields), "the run starts on the chain's input")
	assert.Contains(t, string(events[len(events)-1].Fields), `[3 drafts; last note: more than 8 words]`)
}
