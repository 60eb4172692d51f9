package impl

import (
	"cmp"
	"encoding/json"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Vars are what the conditions of a JSON-mode transition read: the keys of
// the output of the state that just ran. Generated code evaluates each
// condition through the methods of Vars, which follow Python's semantics
// over JSON values. A missing variable, or an operation Python would
// reject (ordering a string against a number, lower() of a list, a
// division by zero), fails the evaluation, and a condition whose
// evaluation failed does not hold. The methods go on after a failure with
// a nil value, whose result Holds ignores.
type Vars struct {
	vars   map[string]any
	failed bool
}

// Vars returns the variables of the output: an object's keys; other
// outputs have none.
func (o JSONOutput) Vars() Vars {
	m, _ := o.Value.(map[string]any)
	return Vars{vars: m}
}

// fail marks the evaluation failed and returns the value to go on with.
func (v *Vars) fail() any {
	v.failed = true
	return nil
}

// Holds reports whether a condition holds: it is true and its evaluation
// did not fail. It clears the failure for the next condition, since the
// cases of a switch share one Vars.
func (v *Vars) Holds(ok bool) bool {
	held := ok && !v.failed
	v.failed = false
	return held
}

// Var returns the variable name. The strings "true" and "false", in any
// case, are booleans. A missing variable fails the evaluation.
func (v *Vars) Var(name string) any {
	x, ok := v.vars[name]
	if !ok {
		return v.fail()
	}
	if s, ok := x.(string); ok {
		switch {
		case strings.EqualFold(s, "true"):
			return true
		case strings.EqualFold(s, "false"):
			return false
		}
	}
	return x
}

// Keys returns the names of the variables (`keys`), sorted.
func (v *Vars) Keys() any {
	keys := slices.Sorted(maps.Keys(v.vars))
	out := make([]any, len(keys))
	for i, k := range keys {
		out[i] = k
	}
	return out
}

// Truthy is Python's truth of x: false for None, False, zero, and empty
// strings, lists and objects.
func (v *Vars) Truthy(x any) bool {
	switch x := x.(type) {
	case nil:
		return false
	case bool:
		return x
	case string:
		return x != ""
	case []any:
		return len(x) > 0
	case map[string]any:
		return len(x) > 0
	}
	n, ok := pyNumberOf(x)
	return !ok || n.float() != 0
}

// IsTrue reports whether x is True; conditions must be booleans, so any
// other value does not hold.
func (v *Vars) IsTrue(x any) bool { return x == true }

// Eq is Python's a == b: numbers (booleans among them) by value, lists and
// objects member by member; values of different types are not equal.
func (v *Vars) Eq(a, b any) bool { return pyEqual(a, b) }

// Ne is Python's a != b.
func (v *Vars) Ne(a, b any) bool { return !pyEqual(a, b) }

// Lt is Python's a < b.
func (v *Vars) Lt(a, b any) bool {
	c, ok := v.order(a, b)
	return ok && c < 0
}

// Le is Python's a <= b.
func (v *Vars) Le(a, b any) bool {
	c, ok := v.order(a, b)
	return ok && c <= 0
}

// Gt is Python's a > b.
func (v *Vars) Gt(a, b any) bool {
	c, ok := v.order(a, b)
	return ok && c > 0
}

// Ge is Python's a >= b.
func (v *Vars) Ge(a, b any) bool {
	c, ok := v.order(a, b)
	return ok && c >= 0
}

// order compares what Python orders: numbers, strings, and lists of them
// element by element. Anything else fails the evaluation.
func (v *Vars) order(a, b any) (int, bool) {
	c, ok := pyCompare(a, b)
	if !ok {
		v.fail()
	}
	return c, ok
}

// In is Python's needle in haystack: a substring of a string, an element
// of a list, a key of an object.
func (v *Vars) In(needle, haystack any) bool {
	switch h := haystack.(type) {
	case string:
		s, ok := needle.(string)
		if !ok {
			v.fail()
		}
		return ok && strings.Contains(h, s)
	case []any:
		return slices.ContainsFunc(h, func(e any) bool { return pyEqual(needle, e) })
	case map[string]any:
		switch n := needle.(type) {
		case string:
			_, ok := h[n]
			return ok
		case []any, map[string]any:
			v.fail() // unhashable
		}
		return false // other values are never keys of a JSON object
	}
	v.fail()
	return false
}

// StartsWith is Python's a.startswith(b) of strings.
func (v *Vars) StartsWith(a, b any) bool {
	s, p, ok := v.strings(a, b)
	return ok && strings.HasPrefix(s, p)
}

// EndsWith is Python's a.endswith(b) of strings.
func (v *Vars) EndsWith(a, b any) bool {
	s, p, ok := v.strings(a, b)
	return ok && strings.HasSuffix(s, p)
}

func (v *Vars) strings(a, b any) (string, string, bool) {
	s, ok1 := a.(string)
	t, ok2 := b.(string)
	if !ok1 || !ok2 {
		v.fail()
	}
	return s, t, ok1 && ok2
}

// Lower is Python's a.lower() of a string.
func (v *Vars) Lower(a any) any {
	if s, ok := a.(string); ok {
		return strings.ToLower(s)
	}
	return v.fail()
}

// Upper is Python's a.upper() of a string.
func (v *Vars) Upper(a any) any {
	if s, ok := a.(string); ok {
		return strings.ToUpper(s)
	}
	return v.fail()
}

// Len is Python's len(a) of a string (in characters), list or object.
func (v *Vars) Len(a any) any {
	switch a := a.(type) {
	case string:
		return int64(utf8.RuneCountInString(a))
	case []any:
		return int64(len(a))
	case map[string]any:
		return int64(len(a))
	}
	return v.fail()
}

// Add is Python's a + b of numbers, strings or lists.
func (v *Vars) Add(a, b any) any {
	switch a := a.(type) {
	case string:
		if b, ok := b.(string); ok {
			return a + b
		}
	case []any:
		if b, ok := b.([]any); ok {
			return AppendSlice(a, b)
		}
	}
	return v.arith(a, b, func(x, y int64) (int64, bool) {
		s := x + y
		return s, (s > x) == (y > 0)
	}, func(x, y float64) float64 { return x + y })
}

// Sub is Python's a - b of numbers.
func (v *Vars) Sub(a, b any) any {
	return v.arith(a, b, func(x, y int64) (int64, bool) {
		d := x - y
		return d, (d < x) == (y > 0)
	}, func(x, y float64) float64 { return x - y })
}

// Mul is Python's a * b of numbers.
func (v *Vars) Mul(a, b any) any {
	return v.arith(a, b, func(x, y int64) (int64, bool) {
		if x == 0 || y == 0 {
			return 0, true
		}
		p := x * y
		return p, p/y == x && !(x == -1 && y == math.MinInt64) && !(y == -1 && x == math.MinInt64)
	}, func(x, y float64) float64 { return x * y })
}

// Div is Python's a / b of numbers, which always gives a float.
func (v *Vars) Div(a, b any) any {
	x, ok1 := pyNumberOf(a)
	y, ok2 := pyNumberOf(b)
	if !ok1 || !ok2 || y.float() == 0 {
		return v.fail()
	}
	return x.float() / y.float()
}

// Mod is Python's a % b of numbers: the result has the sign of b.
func (v *Vars) Mod(a, b any) any {
	x, ok1 := pyNumberOf(a)
	y, ok2 := pyNumberOf(b)
	switch {
	case !ok1 || !ok2 || y.float() == 0:
		return v.fail()
	case !x.isFloat && !y.isFloat:
		return Mod(x.i, y.i)
	}
	m := math.Mod(x.float(), y.float())
	if m != 0 && (m < 0) != (y.float() < 0) {
		m += y.float()
	}
	return m
}

// Neg is Python's -a of a number.
func (v *Vars) Neg(a any) any {
	return v.arith(int64(0), a, func(_, y int64) (int64, bool) { return -y, y != math.MinInt64 },
		func(_, y float64) float64 { return -y })
}

// Pos is Python's +a of a number.
func (v *Vars) Pos(a any) any {
	if n, ok := pyNumberOf(a); ok {
		return n.value()
	}
	return v.fail()
}

// arith applies an operation to two numbers: on integers with onInt,
// which reports whether the result fits an int64 (Python's integers do
// not overflow, so one that does not fit is computed as a float), and
// with onFloat when either is a float.
func (v *Vars) arith(a, b any, onInt func(x, y int64) (int64, bool), onFloat func(x, y float64) float64) any {
	x, ok1 := pyNumberOf(a)
	y, ok2 := pyNumberOf(b)
	if !ok1 || !ok2 {
		return v.fail()
	}
	if !x.isFloat && !y.isFloat {
		if r, fits := onInt(x.i, y.i); fits {
			return r
		}
	}
	return onFloat(x.float(), y.float())
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

// pyCompare is Python's ordering of numbers, strings and lists; false when
// Python would raise a TypeError.
func pyCompare(a, b any) (int, bool) {
	if x, ok := pyNumberOf(a); ok {
		y, ok := pyNumberOf(b)
		return pyCompareNumbers(x, y), ok
	}
	switch a := a.(type) {
	case string:
		s, ok := b.(string)
		return strings.Compare(a, s), ok
	case []any:
		if bs, ok := b.([]any); ok {
			return pyCompareLists(a, bs)
		}
	}
	return 0, false
}

// pyCompareLists orders two lists by their first elements that differ, else
// by length.
func pyCompareLists(a, b []any) (int, bool) {
	for i := 0; i < len(a) && i < len(b); i++ {
		if !pyEqual(a[i], b[i]) {
			return pyCompare(a[i], b[i])
		}
	}
	return len(a) - len(b), true
}

func pyCompareNumbers(x, y pyNumber) int {
	if !x.isFloat && !y.isFloat {
		return cmp.Compare(x.i, y.i)
	}
	return cmp.Compare(x.float(), y.float())
}
