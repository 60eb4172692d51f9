// Package jsonata evaluates JSONata 2.x expressions (https://docs.jsonata.org)
// with the functions AWS Step Functions adds ($partition, $range, $hash,
// $random with a seed, $uuid, $parse). An expression is compiled once and may
// be evaluated by many goroutines at once.
package jsonata

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"
)

// Expr is a compiled expression. It is immutable and safe for concurrent use.
type Expr struct {
	root *node
}

// Env is what one evaluation may see besides its input: variable bindings
// (without the $), the clock, the random source and the limits.
type Env struct {
	Vars map[string]any
	// Now is the time $now() and $millis() report, read once per evaluation.
	Now func() time.Time
	// Rand returns numbers in [0, 1) for $random(), $shuffle() and $uuid().
	Rand func() float64
	// MaxDepth bounds nested evaluation (recursion); 0 means 10000, deep enough for
	// any real expression and small enough to stop runaway recursion early.
	MaxDepth int
	// Timeout bounds one evaluation's run time; 0 means no limit beyond ctx.
	Timeout time.Duration
}

var noEnv Env

const defaultMaxDepth = 10000

// Compile parses and resolves an expression.
func Compile(src string) (*Expr, error) {
	n, err := parse(src)
	if err != nil {
		return nil, err
	}
	r := &resolver{}
	n, err = r.resolve(n)
	if err != nil {
		return nil, err
	}
	if n.kind == kParent {
		return nil, newError("S0217", n.pos, "%")
	}
	for _, s := range n.parentSeek {
		if s.level > 0 {
			return nil, newError("S0217", n.pos, "%")
		}
	}
	return &Expr{root: n}, nil
}

// Eval evaluates the expression against input. defined is false when the
// result is JSONata's undefined (no value, as opposed to null).
//
// Input and Env.Vars values are JSON: nil, bool, float64 (or any Go number,
// json.Number), string, []any, map[string]any (read in sorted key order) and
// any ordered object with Keys() []string and Get(string) (any, bool). A
// result is JSON of the same kinds: what the expression builds is []any and
// *Object; values taken from the input come back as they were given; a
// function is left out of objects and is null in arrays, as JSON.stringify
// does, and a function result is undefined. Errors are *Error, or ctx's error
// when ctx ends first.
func (x *Expr) Eval(ctx context.Context, input any, env *Env) (value any, defined bool, err error) {
	return x.eval(ctx, normalize(input), env)
}

// evalUndefined evaluates with no input at all, as the suite's cases without data do.
func (x *Expr) evalUndefined(ctx context.Context, env *Env) (any, bool, error) {
	return x.eval(ctx, undefined, env)
}

func (x *Expr) eval(ctx context.Context, input any, env *Env) (value any, defined bool, err error) {
	if env == nil {
		env = &noEnv
	}
	e := &evaluator{ctx: ctx, maxDepth: env.MaxDepth, rand: env.Rand}
	if e.maxDepth <= 0 {
		e.maxDepth = defaultMaxDepth
	}
	if env.Timeout > 0 {
		e.deadline = time.Now().Add(env.Timeout)
	}
	e.nowFn = env.Now
	if e.rand == nil {
		e.rand = rand.Float64
	}
	e.root = &e.rootF
	if len(env.Vars) < len(e.rootNames) {
		e.root.names, e.root.vals = e.rootNames[:0], e.rootVals[:0]
	} else {
		e.root.names = make([]string, 0, len(env.Vars)+1)
		e.root.vals = make([]any, 0, len(env.Vars)+1)
	}
	for k, v := range env.Vars {
		e.root.bind(k, normalize(v))
	}
	e.root.bind("$", input)
	if arr, ok := input.([]any); ok {
		input = &seq{v: []any{arr}, outer: true}
	}
	v, err := e.eval(x.root, input, e.root)
	if err != nil {
		var je *Error
		if errors.As(err, &je) {
			return nil, false, je
		}
		return nil, false, err
	}
	if _, ok := v.(tuples); ok {
		return nil, false, nil
	}
	if _, fn := v.(callable); fn || isUndef(v) {
		return nil, false, nil
	}
	return dropFunctions(toOutput(v)), true, nil
}

// dropFunctions makes a result JSON the way JSON.stringify does: a function
// in an object is left out, in an array it is null. It writes only where
// something changes, so that input data shared between evaluations is never
// written to.
func dropFunctions(v any) any {
	switch x := v.(type) {
	case []any:
		for i, it := range x {
			if nv, changed := exported(it); changed {
				x[i] = nv
			}
		}
	case *Object:
		for _, k := range append([]string(nil), x.keys...) {
			i := x.find(k)
			if _, fn := x.vals[i].(callable); fn {
				x.del(k)
			} else if nv, changed := exported(x.vals[i]); changed {
				x.vals[i] = nv
			}
		}
	}
	return v
}

func exported(v any) (any, bool) {
	switch x := v.(type) {
	case callable:
		return nil, true
	case *seq:
		return dropFunctions(x.v), true
	case []any, *Object:
		dropFunctions(x)
	}
	return v, false
}

// Literal reports the value of an expression that is one literal: a
// string, a number, true, false or null (nil).
func (x *Expr) Literal() (value any, ok bool) {
	switch n := x.root; n.kind {
	case kString:
		return n.op, true
	case kNumber:
		return n.num, true
	case kValue:
		switch n.value.(type) {
		case nil, bool, string, float64:
			return n.value, true
		}
	}
	return nil, false
}

// FieldPath reports an expression that is a variable followed by field
// names only, as `$states.input.a.b` or `$v`: the variable's name (without
// the $) and the fields.
func (x *Expr) FieldPath() (variable string, fields []string, ok bool) {
	n := x.root
	steps := []*node{n}
	if n.kind == kPath {
		if n.keepSingletonArray {
			return "", nil, false
		}
		steps = n.steps
	}
	if len(steps) == 0 || steps[0].kind != kVariable || steps[0].op == "" || hasStages(steps[0]) {
		return "", nil, false
	}
	for _, st := range steps[1:] {
		if st.kind != kName || hasStages(st) {
			return "", nil, false
		}
		fields = append(fields, st.op)
	}
	return steps[0].op, fields, true
}

func hasStages(n *node) bool {
	return len(n.stages) > 0 || len(n.predicate) > 0 || n.group != nil || n.focus != "" || n.index != "" || n.keepArray
}
