package aslresume

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// loader loads, counting its calls.
type loader struct{ loads int }

func (l *loader) Load(context.Context, any) (any, error) {
	l.loads++
	return "loaded", nil
}

// A session waits at an Approval inside a started execution of the
// definition beside the parent; Decide answers it there and the parent
// reads the execution's output.
func TestDecideInsideStartedExecution(t *testing.T) {
	ctx := context.Background()
	store := flowcrt.NewMemoryCheckpointer()
	h := &loader{}
	w := NewDispatch(h, flowcrt.WithCheckpointer(store))

	_, err := w.Invoke(ctx, "d1", map[string]any{"truck": "t-7"})
	var wait *flowcrt.Interrupted
	require.ErrorAs(t, err, &wait)
	assert.Equal(t, "Gate/Open", wait.State)
	cp, err := store.Load(ctx, "d1")
	require.NoError(t, err)
	assert.Equal(t, "Gate", cp.Position.State)
	assert.JSONEq(t, `{"truck": "t-7", "load": "loaded"}`, string(cp.State))
	require.Len(t, cp.Position.Inside, 1)
	assert.Equal(t, "Gate/Open", cp.Position.Inside[0].State)
	assert.JSONEq(t, `{"truck": "t-7"}`, string(cp.Position.Inside[0].Input), "the execution's input")

	out, err := w.Decide(ctx, "d1", "open")
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"truck": "t-7", "load": "loaded", "gate": map[string]any{"status": "SUCCEEDED", "gate": "open"}}, out)
	assert.Equal(t, 1, h.loads)
}
