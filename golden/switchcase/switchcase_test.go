package switchcase

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// handlers: Evaluate sets status and score; Visit records the state.
type handlers struct {
	status string
	score  float64
}

func (h handlers) Evaluate(ctx context.Context, s SwitchCaseState) (SwitchCaseUpdate, error) {
	return SwitchCaseUpdate{}.WithStatus(h.status).WithScore(h.score), nil
}

func (handlers) Visit(ctx context.Context, s SwitchCaseState) (SwitchCaseUpdate, error) {
	return SwitchCaseUpdate{}.WithTrail([]string{flowcrt.StateFromContext(ctx)}), nil
}

func TestSwitch(t *testing.T) {
	tests := []struct {
		status string
		score  float64
		want   []string
	}{
		{"completed", 95, []string{"grade", "excellent"}}, // first true case wins
		{"completed", 90, []string{"grade", "excellent"}},
		{"completed", 89.9, []string{"grade", "good"}},
		{"completed", 70, []string{"grade", "good"}},
		{"completed", 50, []string{"grade", "average"}},
		{"completed", 49.99, []string{"grade", "poor"}},
		{"completed", -1, []string{"grade", "poor"}},
		{"pending", 95, []string{"wait"}},
		{"failed", 0, []string{"retry_later"}},
		{"Completed", 95, []string{"unknown"}}, // comparison is case-sensitive
		{"", 95, []string{"unknown"}},
	}
	for _, tt := range tests {
		h := handlers{status: tt.status, score: tt.score}
		out, err := NewSwitchCase(h, flowcrt.WithStateContext()).Run(context.Background(), SwitchCaseState{})
		require.NoError(t, err)
		assert.Equal(t, tt.want, out.Trail, "status %q, score %v", tt.status, tt.score)
		assert.Equal(t, tt.score, out.Score)
	}
}
