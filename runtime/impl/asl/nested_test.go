package asl

import (
	"context"
	"testing"

	"github.com/flowc-dev/flowc/runtime/impl"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const pricingArn = "arn:aws:states:us-east-1:123456789012:stateMachine:pricing"

func failingChild(context.Context, *ASLExec, any) (any, error) {
	return nil, &impl.Error{Name: "Pricing.Empty", Cause: "no items"}
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
	assert.Equal(t, statesTaskFailed, impl.ErrorName(err))
	assert.Contains(t, err.Error(), `"Error":"Pricing.Empty"`)
	assert.Contains(t, err.Error(), `"Input":"{\"items\":[]}"`, "under .sync the description's Input is JSON text")
}

// A request whose Input string is not JSON is the input's fault.
func TestStartExecutionBadInput(t *testing.T) {
	x := &ASLExec{}
	_, err := x.StartExecution(pricingArn, "sync:2", failingChild)(context.Background(), nil, Obj("Input", "{nope"))
	assert.Equal(t, impl.StatesRuntime, impl.ErrorName(err))
}

// An Include's run-time parameters are variables of the template's own
// scope: the template reads them and the parent's variables, and what it
// assigns stays in it.
func TestIncludeWithScope(t *testing.T) {
	x, in, err := NewASLExec(&impl.Config{}, "m", nil, map[string]any{"who": "ana"})
	require.NoError(t, err)
	x.vars.vals["outer"] = "o"
	params := TObject(TField("who", TPath(path("$.who", Field("who")))))
	checks := []ParamCheck{{Name: "who", Type: "string", Enum: []string{`"ana"`, `"bo"`}}}
	template := func(ctx context.Context, x *ASLExec, in any) (any, error) {
		cx := x.Enter(ctx, "T")
		who, _ := cx.lookupVar("who")
		outer, _ := cx.lookupVar("outer")
		_, err := x.Do(ctx, &ASLState{Name: "T", Assign: TObject(TField("inner", TValue(1.0)))}, cx, in,
			func(context.Context, *aslContext, any) (any, error) { return nil, nil })
		return Obj("who", who, "outer", outer), err
	}
	ctx := context.Background()
	out, err := x.IncludeWith(params, checks, template)(ctx, x.Enter(ctx, "I"), in)
	require.NoError(t, err)
	assert.Equal(t, `{"who":"ana","outer":"o"}`, impl.JSONText(out))
	_, leaked := x.vars.get("inner")
	assert.False(t, leaked, "the template's variables stay in its scope")
	_, leaked = x.vars.get("who")
	assert.False(t, leaked, "so do its parameters")

	_, err = x.IncludeWith(params, checks, template)(ctx, x.Enter(ctx, "I"), Obj("who", "cy"))
	assert.Equal(t, impl.StatesRuntime, impl.ErrorName(err))
	assert.Contains(t, err.Error(), `"cy", not one of its Enum`)
	_, err = x.IncludeWith(params, checks, template)(ctx, x.Enter(ctx, "I"), Obj("who", 3.0))
	assert.Contains(t, err.Error(), `not of its Type "string"`)
}
