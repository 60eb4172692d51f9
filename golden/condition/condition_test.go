package condition

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// visitor records the state that calls it in the trail.
type visitor struct{}

func (visitor) Visit(ctx context.Context, s ConditionState) (ConditionUpdate, error) {
	return ConditionUpdate{}.WithTrail([]string{flowcrt.StateFromContext(ctx)}), nil
}

func TestCondition(t *testing.T) {
	tests := []struct {
		name string
		in   ConditionState
		want []string
	}{
		{"error in message, case-insensitive", ConditionState{Message: "Disk ERROR"}, []string{"inspect", "alert"}},
		{"error but status starts with ok", ConditionState{Message: "error", Status: "ok: retried"}, []string{"inspect", "triage", "skip"}},
		{"no error, large count", ConditionState{Message: "fine", Count: 11}, []string{"inspect", "triage", "process"}},
		{"count at the bound", ConditionState{Count: 10}, []string{"inspect", "triage", "skip"}},
		{"active with a count", ConditionState{Status: "active", Count: 1}, []string{"inspect", "triage", "process"}},
		{"active without a count", ConditionState{Status: "active"}, []string{"inspect", "triage", "skip"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := NewCondition(visitor{}, flowcrt.WithStateContext()).Run(context.Background(), tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.want, out.Trail)
		})
	}
}

// The condition sees the state after the handler's update.
func TestConditionSeesUpdate(t *testing.T) {
	h := updater{}
	out, err := NewCondition(h, flowcrt.WithStateContext()).Run(context.Background(), ConditionState{})
	require.NoError(t, err)
	assert.Equal(t, []string{"inspect", "alert"}, out.Trail)
}

type updater struct{}

func (updater) Visit(ctx context.Context, s ConditionState) (ConditionUpdate, error) {
	id := flowcrt.StateFromContext(ctx)
	u := ConditionUpdate{}.WithTrail([]string{id})
	if id == "inspect" {
		u = u.WithMessage("an Error occurred")
	}
	return u, nil
}
