package runtime

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const pricingArn = "arn:aws:states:us-east-1:123456789012:stateMachine:pricing"

func failingChild(context.Context, *ASLExec, any) (any, error) {
	return nil, &Error{Name: "Pricing.Empty", Cause: "no items"}
}

// A fire-and-forget start answers with the execution's ARN even when the
// child fails, as Step Functions does; a .sync start fails.
func TestStartExecutionFailingChild(t *testing.T) {
	x := &ASLExec{}
	req := Obj("StateMachineArn", pricingArn, "Name", "n1", "Input", `{"items":[]}`)
	out, err := x.StartExecution(pricingArn, "", failingChild)(context.Background(), nil, req)
	require.NoError(t, err)
	arn, _ := out.(*Object).Get("ExecutionArn")
	assert.Equal(t, "arn:aws:states:us-east-1:123456789012:execution:pricing:n1", arn)

	_, err = x.StartExecution(pricingArn, "sync", failingChild)(context.Background(), nil, req)
	assert.Equal(t, StatesTaskFailed, ErrorName(err))
	assert.Contains(t, err.Error(), `"Error":"Pricing.Empty"`)
	assert.Contains(t, err.Error(), `"Input":"{\"items\":[]}"`, "under .sync the description's Input is JSON text")
}

// A request whose Input string is not JSON is the input's fault.
func TestStartExecutionBadInput(t *testing.T) {
	x := &ASLExec{}
	_, err := x.StartExecution(pricingArn, "sync:2", failingChild)(context.Background(), nil, Obj("Input", "{nope"))
	assert.Equal(t, StatesRuntime, ErrorName(err))
}
