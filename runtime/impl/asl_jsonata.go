package impl

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	mrand "math/rand/v2"

	jsonata "github.com/blues/jsonata-go"
)

// StatesQueryEvaluationError is the error of a JSONata expression that
// fails or gives nothing (undefined).
const StatesQueryEvaluationError = "States.QueryEvaluationError"

// JSONata is a JSONata expression of a state, checked by flowc when it
// generated the code. A Simple one is a path that generated code follows
// itself: Root is "input", "result", "errorOutput" or "context" of
// $states, or "$name" for a variable, then Fields. Anything else (and a
// simple path that meets an array, over which JSONata maps) goes to the
// JSONata evaluator, which parses the expression once, on first use.
type JSONata struct {
	Src    string
	Simple bool
	Root   string
	Fields []string

	once sync.Once
	expr *jsonata.Expr
	err  error
	aws  bool // calls a function of awsFunctions
	run  bool // calls a function of runFunctions (asl_jsonata_run.go)
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
	return &Error{Name: StatesQueryEvaluationError, Cause: fmt.Sprintf("the JSONata expression %q returned nothing (undefined)", j.Src)}
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

// states builds the $states variable.
func (c *aslContext) states() map[string]any {
	s := map[string]any{"input": jsonataValue(c.input), "context": jsonataValue(c.value())}
	if c.hasResult {
		s["result"] = jsonataValue(c.result)
	}
	if c.errOut != nil {
		s["errorOutput"] = jsonataValue(c.errOut)
	}
	return s
}

func (j *JSONata) compiled() (*jsonata.Expr, error) {
	j.once.Do(func() {
		j.expr, j.err = jsonata.Compile(j.Src)
		for name := range awsFunctions {
			j.aws = j.aws || strings.Contains(j.Src, "$"+name)
		}
		j.run = callsRunFunctions(j.Src)
	})
	return j.expr, j.err
}

// evaluate runs the JSONata evaluator. The compiled expression is shared
// by concurrent states, so each evaluation binds its variables on a copy
// of it (the shared one has none bound).
func (j *JSONata) evaluate(cx *aslContext) (any, error) {
	base, err := j.compiled()
	if err != nil {
		return nil, j.failed(err)
	}
	e := *base
	vars := map[string]any{}
	for k, v := range cx.vars.all() {
		vars[k] = jsonataValue(v)
	}
	vars["states"] = cx.states()
	if err := e.RegisterVars(vars); err != nil {
		return nil, j.failed(err)
	}
	// On the copy only: the shared expression keeps no registry of its
	// own, so that copies never share one.
	if err := e.RegisterExts(orderedObjectFunctions); err != nil { // asl_jsonata_order.go
		return nil, j.failed(err)
	}
	if j.aws {
		if err := e.RegisterExts(awsFunctions); err != nil {
			return nil, j.failed(err)
		}
	}
	if j.run && cx.exec != nil { // after awsFunctions, whose $random and $uuid these replace
		if err := e.RegisterExts(cx.runFunctions()); err != nil {
			return nil, j.failed(err)
		}
	}
	v, err := evalLocked(&e, jsonataValue(cx.input))
	switch {
	case errors.Is(err, jsonata.ErrUndefined):
		return nil, j.undefined()
	case err != nil:
		return nil, j.failed(err)
	}
	out, err := normalize(v)
	if err != nil {
		return nil, j.failed(err)
	}
	return out, nil
}

// jsonNull is how the evaluator spells JSON null; a nil interface is
// "undefined" to it.
var jsonNull *any

// jsonataValue converts a JSON value into the evaluator's form: plain maps
// and slices, with null as jsonNull.
func jsonataValue(v any) any { return plainAs(v, jsonNull) }

// evalMu serialises evaluations: the evaluator's built-in functions are
// shared values it changes on every call (their name and context), so two
// evaluations at once, even of different expressions, would race.
var evalMu sync.Mutex

// evalLocked evaluates e on input; a panic in the evaluator is an error.
func evalLocked(e *jsonata.Expr, input any) (v any, err error) {
	evalMu.Lock()
	defer evalMu.Unlock()
	defer func() {
		if r := recover(); r != nil {
			v, err = nil, fmt.Errorf("%v", r)
		}
	}()
	return e.Eval(input)
}

func (j *JSONata) failed(err error) error {
	return &Error{Name: StatesQueryEvaluationError, Cause: fmt.Sprintf("the JSONata expression %q failed: %v", j.Src, err)}
}

// awsFunctions are the functions Step Functions adds to JSONata; they
// share the intrinsic functions' code.
var awsFunctions = map[string]jsonata.Extension{
	"partition": {Func: func(a []any, size float64) (any, error) { return evaluatorResult(StatesArrayPartition([]any{a, size})) }},
	"range": {Func: func(start, end, step float64) (any, error) {
		return evaluatorResult(StatesArrayRange([]any{start, end, step}))
	}},
	"hash":   {Func: func(s, algorithm string) (any, error) { return StatesHash([]any{s, algorithm}) }},
	"random": {Func: func() float64 { return mrand.Float64() }},
	"uuid":   {Func: func() (any, error) { return StatesUUID(nil) }},
	"parse":  {Func: func(s string) (any, error) { return evaluatorResult(StatesStringToJson([]any{s})) }},
}

func evaluatorResult(v any, err error) (any, error) { return jsonataValue(v), err }
