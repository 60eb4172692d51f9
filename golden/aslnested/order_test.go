package aslnested

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type notifier struct{ inputs []any }

// Notifier receives the StartExecution request of the state machine that
// has no definition beside the order.
func (n *notifier) Notifier(_ context.Context, in any) (any, error) {
	n.inputs = append(n.inputs, in)
	return map[string]any{"ExecutionArn": "arn:notified"}, nil
}

// .sync:2 gives the execution's description with Output as JSON, .sync
// with Input and Output as JSON text, and a fire-and-forget start only the
// execution's ARN and start date.
func TestStartExecutionShapes(t *testing.T) {
	n := &notifier{}
	out, err := NewOrder(n).Run(context.Background(), map[string]any{"items": []any{"a", "b", "c"}})
	require.NoError(t, err)
	o := out.(map[string]any)
	assert.Equal(t, map[string]any{"count": 3.0, "status": "SUCCEEDED",
		"arn": "arn:aws:states:us-east-1:123456789012:execution:pricing:quote-1"}, o["quote"])

	audit := o["audit"].(map[string]any)
	require.IsType(t, "", audit["output"], "under .sync the child's output is JSON text")
	assert.JSONEq(t, `{"count":3}`, audit["output"].(string))
	var in map[string]any
	require.NoError(t, json.Unmarshal([]byte(audit["input"].(string)), &in))
	assert.Equal(t, []any{"a", "b", "c"}, in["items"], "the child ran on the parent's whole input, given as a JSON string")

	rec := o["recorded"].(map[string]any)
	assert.Len(t, rec, 2, "fire-and-forget answers ExecutionArn and StartDate only: %v", rec)
	assert.Regexp(t, `^arn:aws:states:us-east-1:123456789012:execution:pricing:[0-9a-f-]{36}$`, rec["ExecutionArn"])
	assert.IsType(t, 0.0, rec["StartDate"])

	require.Len(t, n.inputs, 1, "an unbound state machine is the handler's")
	assert.Equal(t, map[string]any{"StateMachineArn": "arn:aws:states:us-east-1:123456789012:stateMachine:notifier",
		"Input": map[string]any{"count": 3.0}}, n.inputs[0])
}

// A failing child fails the starting state with States.TaskFailed, whose
// cause is the failed execution's description carrying the child's error
// and cause; the parent's Catch takes it.
func TestFailingChildIsCaught(t *testing.T) {
	out, err := NewOrder(&notifier{}).Run(context.Background(), map[string]any{"items": []any{}})
	require.NoError(t, err)
	failure := out.(map[string]any)["failure"].(map[string]any)
	assert.Equal(t, "States.TaskFailed", failure["Error"])
	var cause map[string]any
	require.NoError(t, json.Unmarshal([]byte(failure["Cause"].(string)), &cause))
	assert.Equal(t, "FAILED", cause["Status"])
	assert.Equal(t, "Pricing.Empty", cause["Error"])
	assert.Equal(t, "the order has no items", cause["Cause"])
	assert.Equal(t, map[string]any{"items": []any{}}, cause["Input"], "under .sync:2 the description's Input is JSON")
}
