package asl

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// attemptJSONata runs a JSONata state once: Arguments (from the raw input)
// give the effective input, the body its result, Output (default: the
// result) the output. Assign and Output both read the variables as they
// were when the state began; the new values take effect after it.
func (x *ASLExec) attemptJSONata(ctx context.Context, st *ASLState, cx *aslContext, raw any, body stateBody) (any, error) {
	cx.input, cx.result, cx.hasResult, cx.errOut = raw, nil, false, nil
	in := raw
	if st.JSONataArguments != nil {
		var err error
		if in, err = st.JSONataArguments.Eval(raw, cx); err != nil {
			return nil, err
		}
	}
	result, err := body(ctx, cx, in)
	if err != nil {
		return nil, err
	}
	cx.result, cx.hasResult = result, true
	vals, err := cx.evalAssign(st.Assign, result)
	if err != nil {
		return nil, err
	}
	out := result
	if st.JSONataOutput != nil {
		if out, err = st.JSONataOutput.Eval(result, cx); err != nil {
			return nil, err
		}
	}
	cx.commit(vals)
	return out, nil
}

// catcherOutput is what a matching catcher passes on: in JSONPath the error
// output placed by its ResultPath, in JSONata its Output (default: the
// error output). Its Assign reads the error output ($ in JSONPath,
// $states.errorOutput in JSONata).
func (st *ASLState) catcherOutput(cx *aslContext, c *ASLCatcher, raw any, errOut *Object) (any, error) {
	cx.input, cx.result, cx.hasResult, cx.errOut = raw, nil, false, errOut
	var out any = errOut
	var err error
	switch {
	case !st.JSONata:
		out, err = applyResultPath(c.ResultPath, raw, errOut)
	case c.Output != nil:
		out, err = c.Output.Eval(errOut, cx)
	}
	if err != nil {
		return nil, err
	}
	vals, err := cx.evalAssign(c.Assign, errOut)
	if err != nil {
		return nil, err
	}
	cx.commit(vals)
	return out, nil
}

// Chosen finishes a Choice state once rule (-1: the Default) was picked
// on its effective input in. The matching rule's Assign and, in JSONata,
// Output apply; when the Default is taken, the state's own (as Step
// Functions does). A JSONPath Choice's output is OutputPath of in; a
// JSONata one's is the Output that applies, else in.
func (st *ASLState) Chosen(cx *aslContext, in any, rule int) (any, error) {
	cx.input = in
	assign, output := st.Assign, st.JSONataOutput
	if rule >= 0 {
		assign, output = ruleField(st.RuleAssign, rule), ruleField(st.RuleOutput, rule)
	}
	vals, err := cx.evalAssign(assign, in)
	if err != nil {
		return nil, err
	}
	var out any
	switch {
	case !st.JSONata:
		out, err = st.Output(in, cx)
	case output != nil:
		out, err = output.Eval(in, cx)
	default:
		out = in
	}
	if err != nil {
		return nil, err
	}
	cx.commit(vals)
	cx.exec.succeeded(cx.ctx, out)
	return out, nil
}

func ruleField(ts []*Template, i int) *Template {
	if i < 0 || i >= len(ts) {
		return nil
	}
	return ts[i]
}

// Condition evaluates the JSONata Condition of a rule, which must give a
// boolean.
func (c *Choice) Condition(t *Template) bool {
	if c.err != nil {
		return false
	}
	v, err := t.Eval(c.in, c.cx)
	if err != nil {
		c.err = err
		return false
	}
	b, ok := v.(bool)
	if !ok {
		c.err = &impl.Error{Name: statesQueryEvaluationError, Cause: fmt.Sprintf("a Condition must give a boolean, got %s", typeName(v))}
	}
	return b
}

// exprInt evaluates a JSONata field that must give a whole number of at
// least lo (a timeout, a wait, a concurrency).
func exprInt(t *Template, what string, lo float64, in any, cx *aslContext) (int, error) {
	v, err := t.Eval(in, cx)
	if err != nil {
		return 0, err
	}
	if !isInteger(v) || v.(float64) < lo {
		return 0, &impl.Error{Name: statesQueryEvaluationError, Cause: fmt.Sprintf("%s must be a whole number of at least %g, got %s", what, lo, impl.JSONText(v))}
	}
	return int(v.(float64)), nil
}

func (w *Wait) timestampValue(in any, cx *aslContext) (any, error) {
	if w.TimestampExpr != nil {
		return w.TimestampExpr.Eval(in, cx)
	}
	return w.TimestampPath.Get(in, cx)
}

// items is what a Map state iterates: Items (JSONata), ItemsPath, or the
// effective input.
func (spec *MapSpec) items(in any, cx *aslContext) (any, error) {
	switch {
	case spec.Items != nil:
		return spec.Items.Eval(in, cx)
	case spec.ItemsPath != nil:
		return spec.ItemsPath.Get(in, cx)
	}
	return in, nil
}

// numericString reads a string holding a number ("1") as the number, as
// Step Functions does for MaxConcurrencyPath; anything else stays as it is.
func numericString(v any) any {
	if s, ok := v.(string); ok {
		if n, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err == nil && !math.IsInf(n, 0) && !math.IsNaN(n) {
			return n
		}
	}
	return v
}
