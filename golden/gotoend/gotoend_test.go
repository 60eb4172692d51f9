package gotoend

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// visitor records the state that calls it in the trail.
type visitor struct{}

func (visitor) Visit(ctx context.Context, s GotoEndState) (GotoEndUpdate, error) {
	return GotoEndUpdate{}.WithTrail([]string{flowcrt.StateFromContext(ctx)}), nil
}

func TestEnds(t *testing.T) {
	tests := []struct {
		mode string
		want []string
	}{
		{"goto", []string{"route", "fetch", "parse", "store"}}, // state_id: end
		{"flag", []string{"route", "review", "approve"}},       // end: true
		{"other", []string{"route", "log"}},                    // no next
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			wf := NewGotoEnd(visitor{}, flowcrt.WithStateContext())
			out, err := wf.Run(context.Background(), GotoEndState{Mode: tt.mode})
			require.NoError(t, err)
			assert.Equal(t, tt.want, out.Trail)
			assert.Equal(t, tt.mode, out.Mode)
		})
	}
}
