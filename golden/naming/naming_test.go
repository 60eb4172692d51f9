package naming

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// handlers record the handler and the state that calls it.
type handlers struct{}

func (handlers) SummaryBot(ctx context.Context, s NamingState) (NamingUpdate, error) {
	return NamingUpdate{}.WithTrail([]string{"SummaryBot@" + flowcrt.StateFromContext(ctx)}), nil
}

func (handlers) WebSearch(ctx context.Context, s NamingState) (NamingUpdate, error) {
	return NamingUpdate{}.WithTrail([]string{"WebSearch@" + flowcrt.StateFromContext(ctx)}), nil
}

// The run starts at `start:`, not at the first state; one assistant serves
// two states.
func TestNaming(t *testing.T) {
	wf := NewNaming(handlers{}, flowcrt.WithStateContext())
	out, err := wf.Run(context.Background(), NamingState{})
	require.NoError(t, err)
	assert.Equal(t, []string{"WebSearch@fetch-data", "SummaryBot@review-draft", "SummaryBot@summarize-result"}, out.Trail)
}
