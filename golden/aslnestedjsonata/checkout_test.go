package aslnestedjsonata

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type starter struct{ requests []any }

// StartExecution receives the request of the execution whose ARN is known
// at run time only.
func (s *starter) StartExecution(_ context.Context, in any) (any, error) {
	s.requests = append(s.requests, in)
	return map[string]any{"ExecutionArn": "arn:started", "StartDate": 1.0}, nil
}

// Under JSONata the bound child runs on the evaluated Arguments.Input and
// its output is the .sync:2 description's Output; the expression ARN goes
// to the handler with the evaluated Arguments.
func TestJSONataStartExecution(t *testing.T) {
	s := &starter{}
	in := map[string]any{
		"cart":     []any{map[string]any{"price": 2.0}, map[string]any{"price": 3.5}},
		"notifier": "arn:aws:states:us-east-1:123456789012:stateMachine:mailer",
	}
	out, err := NewCheckout(s).Run(context.Background(), in)
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"total": 5.5, "notified": "arn:started"}, out)
	require.Len(t, s.requests, 1)
	assert.Equal(t, map[string]any{
		"StateMachineArn": "arn:aws:states:us-east-1:123456789012:stateMachine:mailer",
		"Input":           map[string]any{"total": 5.5},
	}, s.requests[0])
}
