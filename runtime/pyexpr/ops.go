package pyexpr

import (
	"math"
	"math/bits"
	"strings"
	"unicode/utf8"
)

var errZeroDivision = &pyError{"ZeroDivisionError", "division by zero"}

func errOverflow() error {
	return &pyError{"OverflowError", "integer beyond flowc's 64 bits (Python's integers have no limit)"}
}

// arith is Python's a op b for + - * / // % **.
func arith(op string, a, b any) (any, error) {
	xi, xf, xIsF, xNum := number(a)
	yi, yf, yIsF, yNum := number(b)
	if xNum && yNum {
		if xIsF || yIsF || op == "/" {
			return floatArith(op, xf, yf)
		}
		return intArith(op, xi, yi)
	}
	switch op {
	case "+":
		return concat(a, b)
	case "*":
		if yNum && !yIsF {
			return repeat(a, yi)
		}
		if xNum && !xIsF {
			return repeat(b, xi)
		}
	case "%":
		if _, ok := a.(string); ok {
			return nil, typeErr("flowc does not format strings with %%")
		}
	}
	return nil, typeErr("unsupported operand type(s) for %s: '%s' and '%s'", op, typeName(a), typeName(b))
}

func intArith(op string, x, y int64) (any, error) {
	switch op {
	case "+":
		s := x + y
		if (s > x) != (y > 0) {
			return nil, errOverflow()
		}
		return s, nil
	case "-":
		d := x - y
		if (d < x) != (y > 0) {
			return nil, errOverflow()
		}
		return d, nil
	case "*":
		hi, lo := bits.Mul64(uint64(abs64(x)), uint64(abs64(y)))
		if hi != 0 || lo > math.MaxInt64 || x == math.MinInt64 || y == math.MinInt64 {
			return nil, errOverflow()
		}
		return x * y, nil
	case "//", "%":
		if y == 0 {
			return nil, &pyError{"ZeroDivisionError", "integer division or modulo by zero"}
		}
		q, r := x/y, x%y
		if r != 0 && (r < 0) != (y < 0) {
			q, r = q-1, r+y
		}
		if op == "//" {
			return q, nil
		}
		return r, nil
	}
	// **
	if y < 0 {
		if x == 0 {
			return nil, &pyError{"ZeroDivisionError", "0.0 cannot be raised to a negative power"}
		}
		return math.Pow(float64(x), float64(y)), nil
	}
	result := int64(1)
	for i := int64(0); i < y; i++ {
		r, err := intArith("*", result, x)
		if err != nil {
			return nil, err
		}
		result = r.(int64)
		if result == 0 || result == 1 {
			break
		}
	}
	if result == 1 && x == -1 && y%2 == 1 {
		result = -1
	}
	return result, nil
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

func floatArith(op string, x, y float64) (any, error) {
	switch op {
	case "+":
		return x + y, nil
	case "-":
		return x - y, nil
	case "*":
		return x * y, nil
	case "/":
		if y == 0 {
			return nil, errZeroDivision
		}
		return x / y, nil
	case "//":
		if y == 0 {
			return nil, &pyError{"ZeroDivisionError", "float floor division by zero"}
		}
		return math.Floor(x / y), nil
	case "%":
		if y == 0 {
			return nil, &pyError{"ZeroDivisionError", "float modulo"}
		}
		m := math.Mod(x, y)
		if m != 0 && (m < 0) != (y < 0) {
			m += y
		}
		return m, nil
	}
	if x == 0 && y < 0 {
		return nil, &pyError{"ZeroDivisionError", "0.0 cannot be raised to a negative power"}
	}
	if x < 0 && y != math.Trunc(y) {
		return nil, valueErr("flowc has no complex numbers (a negative number to a fractional power)")
	}
	return math.Pow(x, y), nil
}

func negate(x any) (any, error) {
	i, f, isFloat, ok := number(x)
	switch {
	case !ok:
		return nil, typeErr("bad operand type for unary -: '%s'", typeName(x))
	case isFloat:
		return -f, nil
	case i == math.MinInt64:
		return nil, errOverflow()
	}
	return -i, nil
}

func concat(a, b any) (any, error) {
	switch x := a.(type) {
	case string:
		if y, ok := b.(string); ok {
			return x + y, nil
		}
		return nil, typeErr(`can only concatenate str (not "%s") to str`, typeName(b))
	case []any:
		if y, ok := b.([]any); ok {
			return append(append([]any{}, x...), y...), nil
		}
		return nil, typeErr(`can only concatenate list (not "%s") to list`, typeName(b))
	case tuple:
		if y, ok := b.(tuple); ok {
			return append(append(tuple{}, x...), y...), nil
		}
		return nil, typeErr(`can only concatenate tuple (not "%s") to tuple`, typeName(b))
	}
	return nil, typeErr("unsupported operand type(s) for +: '%s' and '%s'", typeName(a), typeName(b))
}

const maxRepeat = 1 << 20

func repeat(seq any, n int64) (any, error) {
	n = max(n, 0)
	switch s := seq.(type) {
	case string:
		if int64(len(s))*n > maxRepeat {
			return nil, &pyError{"MemoryError", "repeated string too long"}
		}
		return strings.Repeat(s, int(n)), nil
	case []any:
		return repeatItems(s, n)
	case tuple:
		items, err := repeatItems(s, n)
		return tuple(items.([]any)), err
	}
	return nil, typeErr("can't multiply sequence by non-int of type '%s'", typeName(seq))
}

func repeatItems(s []any, n int64) (any, error) {
	if int64(len(s))*n > maxRepeat {
		return nil, &pyError{"MemoryError", "repeated list too long"}
	}
	out := []any{}
	for range n {
		out = append(out, s...)
	}
	return out, nil
}

// index is Python's obj[key].
func index(obj, key any) (any, error) {
	switch o := obj.(type) {
	case *dict:
		v, ok, err := o.get(key)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, &pyError{"KeyError", Repr(key)}
		}
		return v, nil
	case string:
		runes := []rune(o)
		items := make([]any, len(runes))
		for i, r := range runes {
			items[i] = string(r)
		}
		v, err := seqIndex(items, key, "string")
		if l, ok := v.([]any); ok {
			var b strings.Builder
			for _, x := range l {
				b.WriteString(x.(string))
			}
			return b.String(), err
		}
		return v, err
	case []any:
		return seqIndex(o, key, "list")
	case tuple:
		v, err := seqIndex(o, key, "tuple")
		if l, ok := v.([]any); ok {
			return tuple(l), err
		}
		return v, err
	}
	return nil, typeErr("'%s' object is not subscriptable", typeName(obj))
}

func seqIndex(items []any, key any, what string) (any, error) {
	if s, ok := key.(sliceVal); ok {
		return sliceItems(items, s)
	}
	i, _, isFloat, ok := number(key)
	if !ok || isFloat {
		return nil, typeErr("%s indices must be integers or slices, not %s", what, typeName(key))
	}
	n := int64(len(items))
	if i < 0 {
		i += n
	}
	if i < 0 || i >= n {
		return nil, &pyError{"IndexError", what + " index out of range"}
	}
	return items[i], nil
}

// sliceItems is Python's items[lo:hi:step].
func sliceItems(items []any, s sliceVal) (any, error) {
	bound := func(v any, def int64) (int64, error) {
		if v == nil {
			return def, nil
		}
		i, _, isFloat, ok := number(v)
		if !ok || isFloat {
			return 0, typeErr("slice indices must be integers or None")
		}
		return i, nil
	}
	step, err := bound(s.step, 1)
	if err != nil {
		return nil, err
	}
	if step == 0 {
		return nil, valueErr("slice step cannot be zero")
	}
	n := int64(len(items))
	lo, hi := int64(0), n
	if step < 0 {
		lo, hi = n-1, -n-1
	}
	if lo, err = bound(s.lo, lo); err != nil {
		return nil, err
	}
	if hi, err = bound(s.hi, hi); err != nil {
		return nil, err
	}
	lo, hi = clampSlice(lo, n, step), clampSlice(hi, n, step)
	out := []any{}
	for i := lo; (step > 0 && i < hi) || (step < 0 && i > hi); i += step {
		out = append(out, items[i])
	}
	return out, nil
}

func clampSlice(i, n, step int64) int64 {
	if i < 0 {
		i += n
		if i < 0 {
			if step < 0 {
				return -1
			}
			return 0
		}
	}
	if i >= n {
		if step < 0 {
			return n - 1
		}
		return n
	}
	return i
}

// runeLen is Python's len of a string: its code points.
func runeLen(s string) int64 { return int64(utf8.RuneCountInString(s)) }
