package reducers

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

type handlers struct{ seen ReducersState }

// Node returns the update of the reducer table in llmfy's State documentation,
// plus one for each other reducer.
func (h *handlers) Node(ctx context.Context, s ReducersState) (ReducersUpdate, error) {
	return ReducersUpdate{}.
		WithMessages([]string{"b"}).
		WithStatus("done").
		WithCounter(2).
		WithLabels(map[string]int{"b": 2, "c": 3}).
		WithTotal(5).
		WithCost(0.25).
		WithHistory(flowcrt.Messages{{Role: "assistant", Content: "hello"}}), nil
}

// Tally sets only total: every other field keeps its value.
func (h *handlers) Tally(ctx context.Context, s ReducersState) (ReducersUpdate, error) {
	h.seen = s
	return ReducersUpdate{}.WithTotal(1), nil
}

// reducersInput is the state the reducer tests start from. Its messages
// have spare capacity: appending must not write into it.
func reducersInput() ReducersState {
	return ReducersState{
		Messages: append(make([]string, 0, 4), "a"),
		Status:   "running",
		Counter:  1,
		Labels:   map[string]int{"a": 1, "b": 1},
		Total:    10,
		Cost:     0.5,
		History:  flowcrt.Messages{{Role: "user", Content: "hi"}},
	}
}

func TestReducers(t *testing.T) {
	in := reducersInput()
	h := &handlers{}
	out, err := NewReducers(h).Run(context.Background(), in)
	require.NoError(t, err)

	assert.Equal(t, []string{"a", "b"}, out.Messages)                   // append
	assert.Equal(t, "done", out.Status)                                 // replace
	assert.Equal(t, 2, out.Counter)                                     // replace
	assert.Equal(t, map[string]int{"a": 1, "b": 2, "c": 3}, out.Labels) // merge: the update's keys win
	assert.Equal(t, 10+5+1, out.Total)                                  // add
	assert.InDelta(t, 0.75, out.Cost, 1e-9)                             // add
	assert.Equal(t, flowcrt.Messages{{Role: "user", Content: "hi"}, {Role: "assistant", Content: "hello"}}, out.History)

	// tally saw node's update applied in full.
	assert.Equal(t, []string{"a", "b"}, h.seen.Messages)
	assert.Equal(t, 15, h.seen.Total)

	// The caller's input is not mutated.
	assert.Equal(t, map[string]int{"a": 1, "b": 1}, in.Labels)
	assert.Equal(t, []string{"a", ""}, in.Messages[:2])
	assert.Len(t, in.History, 1)
}

// A field set to its zero value is set; fields not set keep their value.
func TestZeroIsNotUnset(t *testing.T) {
	h := funcs{node: ReducersUpdate{}.WithCounter(0).WithStatus("")}
	in := ReducersState{Status: "running", Counter: 7, Labels: map[string]int{"a": 1}}
	out, err := NewReducers(h).Run(context.Background(), in)
	require.NoError(t, err)
	assert.Equal(t, ReducersState{Counter: 0, Labels: map[string]int{"a": 1}}, out)
}

// An update decodes from JSON keyed by field names, as mocks write it;
// an unknown key is an error naming the fields.
func TestUpdateFromJSON(t *testing.T) {
	var u ReducersUpdate
	require.NoError(t, json.Unmarshal([]byte(`{"messages": ["b"], "total": 2}`), &u))
	in := ReducersState{Messages: []string{"a"}, Status: "running", Total: 1}
	out, err := NewReducers(funcs{node: u}).Run(context.Background(), in)
	require.NoError(t, err)
	assert.Equal(t, ReducersState{Messages: []string{"a", "b"}, Status: "running", Total: 3}, out)

	err = json.Unmarshal([]byte(`{"totl": 2}`), &u)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `"totl"`)
	assert.Contains(t, err.Error(), "total")
}

// funcs returns a fixed update from node and an empty one from tally.
type funcs struct{ node ReducersUpdate }

func (f funcs) Node(context.Context, ReducersState) (ReducersUpdate, error) { return f.node, nil }

func (f funcs) Tally(context.Context, ReducersState) (ReducersUpdate, error) {
	return ReducersUpdate{}, nil
}
