package jsonmode

import (
	"cmp"
	"encoding/json"
	"maps"
	"math"
	"slices"
	"strconv"
	"sync"

	"github.com/flowc-dev/flowc/runtime/pyexpr"
)

// outputVars are what the conditions of a JSON-mode transition read: the output
// of the state that just ran. Generated code tests each condition with
// Holds, which evaluates it as CodeMie does, in Python (see
// pyexpr.Condition): the output's keys are its variables.
type outputVars struct {
	output any
}

// Vars returns the variables of the output.
func (o JSONOutput) Vars() outputVars { return outputVars{output: o.Value} }

// Holds reports whether condition, a Python expression the generator
// checked, holds over the output. A condition whose evaluation fails does
// not hold, as in CodeMie, where the run then takes `otherwise` or the
// switch's default.
func (v outputVars) Holds(condition string) bool {
	e, ok := parsedCondition(condition)
	return ok && pyexpr.Condition(e, v.output)
}

// conditions caches parsed conditions by source: a workflow has few, and
// each is tested on every pass through its state.
var conditions sync.Map

func parsedCondition(src string) (*pyexpr.Expr, bool) {
	if e, ok := conditions.Load(src); ok {
		return e.(*pyexpr.Expr), true
	}
	e, err := pyexpr.ParseCondition(src)
	if err != nil {
		return nil, false
	}
	conditions.Store(src, e)
	return e, true
}

// pyNumber is a JSON or Python number: an integer, or a float.
type pyNumber struct {
	i       int64
	f       float64
	isFloat bool
}

func (n pyNumber) float() float64 {
	if n.isFloat {
		return n.f
	}
	return float64(n.i)
}

func (n pyNumber) value() any {
	if n.isFloat {
		return n.f
	}
	return n.i
}

// pyNumberOf reads a number: Go numbers from conditions' literals, JSON
// numbers from outputs, and booleans, which Python counts as 0 and 1.
func pyNumberOf(x any) (pyNumber, bool) {
	switch x := x.(type) {
	case int:
		return pyNumber{i: int64(x)}, true
	case int64:
		return pyNumber{i: x}, true
	case float64:
		return pyNumber{f: x, isFloat: true}, true
	case bool:
		if x {
			return pyNumber{i: 1}, true
		}
		return pyNumber{}, true
	case json.Number:
		if i, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return pyNumber{i: i}, true
		}
		f, err := x.Float64()
		// Only a literal out of range fails here, and it is still a number.
		if err != nil && !math.IsInf(f, 0) {
			return pyNumber{}, false
		}
		return pyNumber{f: f, isFloat: true}, true
	}
	return pyNumber{}, false
}

// pyEqual is Python's == over JSON values.
func pyEqual(a, b any) bool {
	if x, ok := pyNumberOf(a); ok {
		y, ok := pyNumberOf(b)
		return ok && pyCompareNumbers(x, y) == 0
	}
	switch a := a.(type) {
	case nil:
		return b == nil
	case string:
		s, ok := b.(string)
		return ok && a == s
	case []any:
		bs, ok := b.([]any)
		return ok && slices.EqualFunc(a, bs, pyEqual)
	case map[string]any:
		bm, ok := b.(map[string]any)
		return ok && maps.EqualFunc(a, bm, pyEqual)
	}
	return false
}

func pyCompareNumbers(x, y pyNumber) int {
	if !x.isFloat && !y.isFloat {
		return cmp.Compare(x.i, y.i)
	}
	return cmp.Compare(x.float(), y.float())
}
