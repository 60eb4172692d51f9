package asl

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// StartExecution is the body of a Task that starts a nested Step Functions
// execution of a compiled-in definition. Its effective input is the
// StartExecution request: the child runs on its Input (a JSON object or a
// JSON string; {} when absent). wait is "sync:2" (the result is the
// execution's description with Output as JSON), "sync" (Output as a JSON
// string) or "" (fire-and-forget: {ExecutionArn, StartDate}). A
// fire-and-forget child still runs to completion before the state ends,
// so that nothing outlives the run; its failure, as in Step Functions,
// does not fail the parent.
func (x *ASLExec) StartExecution(arn, wait string, sub machineFunc) stateBody {
	return func(ctx context.Context, cx *aslContext, in any) (any, error) {
		input, name, err := executionRequest(in)
		if err != nil {
			return nil, err
		}
		if name == "" { // a fresh one, as Step Functions gives
			name = randomUUID(x.cfg.Random)
		}
		exec := executionArn(arn, name)
		// The run's clock: an engine that replays the run reads the same times.
		start := float64(x.cfg.RunClock().Now().UnixMilli()) // JSON numbers are float64 here
		out, err := sub(enterChild(ctx, x, cx, x.scope(ctx)), x, input)
		if err != nil && (ctx.Err() != nil || !isNamed(err)) {
			return nil, err // a cancelled run or a broken mock stops the parent too
		}
		if wait == "" {
			return Obj("ExecutionArn", exec, "StartDate", start), nil
		}
		d := Obj("ExecutionArn", exec, "StateMachineArn", arn, "Name", name, "StartDate", start,
			"StopDate", float64(x.cfg.RunClock().Now().UnixMilli()), "Input", executionJSON(wait, input))
		if err != nil {
			var named *impl.Error
			errors.As(err, &named)
			d.set("Status", "FAILED")
			d.set("Error", named.Name)
			d.set("Cause", named.Cause)
			return nil, &impl.Error{Name: statesTaskFailed, Cause: impl.JSONText(d)}
		}
		d.set("Status", "SUCCEEDED")
		d.set("Output", executionJSON(wait, out))
		return d, nil
	}
}

func isNamed(err error) bool {
	var named *impl.Error
	return errors.As(err, &named)
}

// executionRequest reads Input and Name from a StartExecution request.
func executionRequest(in any) (input any, name string, err error) {
	req, _ := in.(*Object)
	if req == nil {
		return nil, "", runtimeErrorf("startExecution: the parameters must be an object, got %s", impl.JSONText(in))
	}
	input = Obj()
	if v, ok := req.Get("Input"); ok {
		input = v
		if s, ok := v.(string); ok {
			if input, err = decodeJSON([]byte(s)); err != nil {
				return nil, "", runtimeErrorf("startExecution: Input is not JSON: %v", err)
			}
		}
	}
	if v, ok := req.Get("Name"); ok {
		name, _ = v.(string)
	}
	return input, name, nil
}

// executionArn is the ARN of an execution named name of the state machine
// arn.
func executionArn(arn, name string) string {
	return strings.Replace(arn, ":stateMachine:", ":execution:", 1) + ":" + name
}

// executionJSON is a value of an execution's description: JSON under
// .sync:2, its text under .sync.
func executionJSON(wait string, v any) any {
	if wait == "sync:2" {
		return v
	}
	return impl.JSONText(v)
}

// IncludeWith is the body of an Include state whose compiled-in template
// takes parameters at run time: params, evaluated on the state's effective
// input and checked against the template's declarations, become the
// variables of a scope of the template's own (inside the one the state
// runs in), which the template reads as `$name`. A value the declarations
// do not allow is States.Runtime.
func (x *ASLExec) IncludeWith(params *Template, checks []ParamCheck, sub machineFunc) stateBody {
	return func(ctx context.Context, cx *aslContext, in any) (any, error) {
		v, err := params.Eval(in, cx)
		if err != nil {
			return nil, err
		}
		o, _ := v.(*Object)
		for _, c := range checks {
			if err := c.check(o); err != nil {
				return nil, err
			}
		}
		outer := x.scope(ctx)
		scope := newScope(outer)
		if o != nil {
			scope.assign(o)
		}
		return sub(enterChild(context.WithValue(ctx, scopeKey{}, scope), x, cx, outer), x, in)
	}
}

// ParamCheck is what a template declares of a parameter an Include gives
// at run time: its JSON Schema Type ("" for any) and its Enum as JSON
// texts (none for any value).
type ParamCheck struct {
	Name string
	Type string
	Enum []string
}

func (c *ParamCheck) check(params *Object) error {
	v, _ := params.Get(c.Name)
	if v == nil {
		return nil // null: as if not given
	}
	t := typeName(v)
	if c.Type != "" && t != c.Type && (c.Type != "integer" || !isInteger(v)) {
		return runtimeErrorf("template parameter %q is %s (%s), not of its Type %q", c.Name, impl.JSONText(v), t, c.Type)
	}
	if len(c.Enum) > 0 && !slices.Contains(c.Enum, impl.JSONText(v)) {
		return runtimeErrorf("template parameter %q is %s, not one of its Enum %s", c.Name, impl.JSONText(v), strings.Join(c.Enum, ", "))
	}
	return nil
}
