package checkpointfanout

import (
	"context"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrt "github.com/flowc-dev/flowc/runtime"
	"github.com/flowc-dev/flowc/session"
)

// The states inside a typed iteration (iter_key) and state_ids fan-out
// record, like those outside, their input on state_entered: the item's or
// branch's own copy of the state as the state starts. Their output on
// state_succeeded is the update they returned, what they produced (the
// join applies it). Source: issue 36 (state entered with its input, state
// succeeded with its output); the handlers above (Work, Left, Right).
func TestHistoryInsideFanOuts(t *testing.T) {
	ctx := context.Background()
	store := session.NewMemoryCheckpointer()
	_, err := NewBatch(&batch{}, flowcrt.WithCheckpointer(store)).Invoke(ctx, "h1", &BatchState{Items: []string{"a", "bb"}})
	require.NoError(t, err)
	events, _, err := store.History(ctx, "h1", 0, 0)
	require.NoError(t, err)
	fields := map[string]string{}
	for _, e := range events {
		fields[string(e.Kind)+" "+e.State] = string(e.Fields)
	}
	state := func(done string, total int, notes string) string {
		return `{"input": {"items": ["a", "bb"], "done": ` + done + `, "total": ` + strconv.Itoa(total) + `, "notes": ` + notes + `}}`
	}
	// Each item starts from the state before the fan-out.
	assert.JSONEq(t, state("null", 0, "null"), fields["state_entered load/0/work"])
	assert.JSONEq(t, state("null", 0, "null"), fields["state_entered load/1/work"])
	assert.JSONEq(t, `{"output": {"done": ["a"], "total": 1}}`, fields["state_succeeded load/0/work"])
	assert.JSONEq(t, `{"output": {"done": ["bb"], "total": 2}}`, fields["state_succeeded load/1/work"])
	// The branches start from the state the iteration's join left.
	assert.JSONEq(t, state(`["a", "bb"]`, 3, "null"), fields["state_entered split/0/left"])
	assert.JSONEq(t, state(`["a", "bb"]`, 3, "null"), fields["state_entered split/1/right"])
	assert.JSONEq(t, `{"output": {"notes": {"left": "done"}}}`, fields["state_succeeded split/0/left"])
	assert.JSONEq(t, `{"output": {"notes": {"right": "done"}}}`, fields["state_succeeded split/1/right"])
}
