package asl

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/flowc-dev/flowc/runtime/impl"
	"github.com/flowc-dev/flowc/runtime/jsonata"
)

// statesQueryEvaluationError is the error of a JSONata expression that
// fails or gives nothing (undefined).
const statesQueryEvaluationError = "States.QueryEvaluationError"

// JSONata is a JSONata expression of a state, checked by flowc when it
// generated the code. A Simple one is a path that generated code follows
// itself: Root is "input", "result", "errorOutput" or "context" of
// $states, or "$name" for a variable, then Fields. Anything else (and a
// simple path that meets an array, over which JSONata maps) goes to the
// JSONata evaluator (package jsonata), which compiles the expression once,
// on first use.
type JSONata struct {
	Src    string
	Simple bool
	Root   string
	Fields []string

	once sync.Once
	expr *jsonata.Expr
	err  error
}

// Eval evaluates the expression with $states and the variables of cx;
// the JSONata context ($) is the state's input.
func (j *JSONata) Eval(cx *aslContext) (any, error) {
	if j.Simple {
		if v, found, done := j.follow(cx); done {
			if !found {
				return nil, j.undefined()
			}
			return v, nil
		}
	}
	return j.evaluate(cx)
}

func (j *JSONata) undefined() error {
	return &impl.Error{Name: statesQueryEvaluationError, Cause: fmt.Sprintf("the JSONata expression %q returned nothing (undefined)", j.Src)}
}

// follow walks a simple path through objects. It gives up (done false)
// on an array, whose JSONata meaning the evaluator knows.
func (j *JSONata) follow(cx *aslContext) (v any, found, done bool) {
	v, found = cx.statesRoot(j.Root)
	for _, f := range j.Fields {
		if !found {
			return nil, false, true
		}
		switch o := v.(type) {
		case *Object:
			v, found = o.Get(f)
		case []any:
			return nil, false, false
		default:
			return nil, false, true
		}
	}
	if _, isArray := v.([]any); isArray && len(j.Fields) > 0 {
		return nil, false, false
	}
	return v, found, true
}

// statesRoot reads $states.<root>, or a variable for "$name".
func (c *aslContext) statesRoot(root string) (any, bool) {
	if name, ok := strings.CutPrefix(root, "$"); ok {
		return c.lookupVar(name)
	}
	switch root {
	case "input":
		return c.input, true
	case "result":
		return c.result, c.hasResult
	case "errorOutput":
		return c.errOut, c.errOut != nil
	case "context":
		return c.value(), true
	}
	return nil, false
}

// states builds the $states variable, an object in the order Step
// Functions documents its fields.
func (c *aslContext) states() *Object {
	s := Obj("input", c.input, "context", c.value())
	if c.hasResult {
		s = s.With("result", c.result)
	}
	if c.errOut != nil {
		s = s.With("errorOutput", c.errOut)
	}
	return s
}

func (j *JSONata) compiled() (*jsonata.Expr, error) {
	j.once.Do(func() { j.expr, j.err = jsonata.Compile(j.Src) })
	return j.expr, j.err
}

// evaluate runs flowc's JSONata evaluator: a compiled expression is
// immutable, so concurrent states (Map iterations) evaluate it at once,
// each with its own variables. Time and randomness come from the run's
// clock and source, so that an engine that replays a run (Temporal) gets
// the same values again.
func (j *JSONata) evaluate(cx *aslContext) (any, error) {
	expr, err := j.compiled()
	if err != nil {
		return nil, j.failed(err)
	}
	vars := map[string]any{}
	for k, v := range cx.vars.all() {
		vars[k] = v
	}
	vars["states"] = cx.states()
	var cfg *impl.Config
	if cx.exec != nil {
		cfg = cx.exec.cfg
	}
	ctx := cx.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	env := &jsonata.Env{Vars: vars, Now: cfg.RunClock().Now, Rand: cfg.Random, Timeout: jsonataTimeout}
	v, defined, err := expr.Eval(ctx, cx.input, env)
	switch {
	case err != nil:
		return nil, j.failed(err)
	case !defined:
		return nil, j.undefined()
	}
	out, err := normalize(v)
	if err != nil {
		return nil, j.failed(err)
	}
	return out, nil
}

// jsonataTimeout bounds one evaluation, so that a runaway expression fails
// its state with States.QueryEvaluationError instead of holding the run.
const jsonataTimeout = 10 * time.Second

func (j *JSONata) failed(err error) error {
	return &impl.Error{Name: statesQueryEvaluationError, Cause: fmt.Sprintf("the JSONata expression %q failed: %v", j.Src, err)}
}
