package pyexpr

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Values. Go values from JSON (nil, bool, numbers, string, []any,
// map[string]any, ordered objects) are read as Python's None, bool, int or
// float, str, list and dict; evaluation also makes tuples, sets, the
// `dict_keys` view, iterators and functions.

// Ordered is an object that keeps its keys in order, as a Python dict does.
type Ordered interface {
	Keys() []string
	Get(key string) (any, bool)
}

type (
	tuple []any
	// dict is a Python dict: keys in insertion order.
	dict struct {
		keys  []any
		vals  []any
		index map[string]int
	}
	// set is a Python set, ordered by insertion (Python's own order is
	// by hash, which no JSON value shows).
	set struct{ d *dict }
	// dictKeys is what dict.keys() returns: the engine passes the keys of
	// the output to conditions as `keys`.
	dictKeys []any
	// iterator is what reversed, enumerate, zip, map and filter return;
	// like Python's, it computes its items only when read.
	iterator struct {
		name  string
		items func() ([]any, error)
	}
	builtinFn   string
	boundMethod struct {
		recv any
		name string
	}
	sliceVal struct{ lo, hi, step any }
)

func newDict() *dict { return &dict{index: map[string]int{}} }

func (d *dict) get(k any) (any, bool, error) {
	h, err := hashKey(k)
	if err != nil {
		return nil, false, err
	}
	i, ok := d.index[h]
	if !ok {
		return nil, false, nil
	}
	return d.vals[i], true, nil
}

func (d *dict) set(k, v any) error {
	h, err := hashKey(k)
	if err != nil {
		return err
	}
	if i, ok := d.index[h]; ok {
		d.vals[i] = v
		return nil
	}
	d.index[h] = len(d.keys)
	d.keys = append(d.keys, k)
	d.vals = append(d.vals, v)
	return nil
}

// normalize reads a Go value as a Python value.
func normalize(v any) any {
	switch v := v.(type) {
	case nil, bool, string, int64, float64, tuple, *dict, *set, dictKeys, *iterator, builtinFn, boundMethod, sliceVal:
		return v
	case int:
		return int64(v)
	case int32:
		return int64(v)
	case float32:
		return float64(v)
	case json.Number:
		if i, err := strconv.ParseInt(string(v), 10, 64); err == nil {
			return i
		}
		f, _ := v.Float64()
		return f
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = normalize(x)
		}
		return out
	case []string:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = x
		}
		return out
	case map[string]any:
		d := newDict()
		for _, k := range slices.Sorted(mapsKeys(v)) {
			_ = d.set(k, normalize(v[k]))
		}
		return d
	case Ordered:
		d := newDict()
		for _, k := range v.Keys() {
			x, _ := v.Get(k)
			_ = d.set(k, normalize(x))
		}
		return d
	}
	return v
}

func mapsKeys(m map[string]any) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// typeName is Python's name of the type of v.
func typeName(v any) string {
	switch v := v.(type) {
	case nil:
		return "NoneType"
	case bool:
		return "bool"
	case int64:
		return "int"
	case float64:
		return "float"
	case string:
		return "str"
	case []any:
		return "list"
	case tuple:
		return "tuple"
	case *dict:
		return "dict"
	case *set:
		return "set"
	case dictKeys:
		return "dict_keys"
	case *iterator:
		return v.name
	case builtinFn:
		if isType(v) {
			return "type"
		}
		return "builtin_function_or_method"
	case boundMethod:
		return "builtin_function_or_method"
	case sliceVal:
		return "slice"
	}
	return fmt.Sprintf("%T", v)
}

// Truthy is Python's truth of v.
func Truthy(v any) bool {
	switch v := normalize(v).(type) {
	case nil:
		return false
	case bool:
		return v
	case int64:
		return v != 0
	case float64:
		return v != 0
	case string:
		return v != ""
	case []any:
		return len(v) > 0
	case tuple:
		return len(v) > 0
	case *dict:
		return len(v.keys) > 0
	case *set:
		return len(v.d.keys) > 0
	case dictKeys:
		return len(v) > 0
	}
	return true
}

// number reads bool, int and float as Python numbers: an int64, or a
// float64 (isFloat).
func number(v any) (i int64, f float64, isFloat, ok bool) {
	switch v := v.(type) {
	case bool:
		if v {
			return 1, 1, false, true
		}
		return 0, 0, false, true
	case int64:
		return v, float64(v), false, true
	case float64:
		return 0, v, true, true
	}
	return 0, 0, false, false
}

// hashKey is the identity of a hashable value as a dict key: equal
// numbers (1, 1.0, True) share one.
func hashKey(v any) (string, error) {
	switch v := v.(type) {
	case nil:
		return "N", nil
	case string:
		return "s" + v, nil
	case bool, int64, float64:
		i, f, isFloat, _ := number(v)
		if isFloat && f == math.Trunc(f) && math.Abs(f) < 1<<63 {
			return "i" + strconv.FormatInt(int64(f), 10), nil
		}
		if isFloat {
			return "f" + strconv.FormatFloat(f, 'g', -1, 64), nil
		}
		return "i" + strconv.FormatInt(i, 10), nil
	case tuple:
		var b strings.Builder
		b.WriteString("t(")
		for _, x := range v {
			h, err := hashKey(x)
			if err != nil {
				return "", err
			}
			b.WriteString(strconv.Quote(h))
			b.WriteByte(',')
		}
		return b.String() + ")", nil
	case builtinFn:
		return "b" + string(v), nil
	}
	return "", typeErr("unhashable type: '%s'", typeName(v))
}

// pyError is a Python exception: its type and message.
type pyError struct{ kind, msg string }

func (e *pyError) Error() string { return e.kind + ": " + e.msg }

func typeErr(format string, args ...any) error {
	return &pyError{"TypeError", fmt.Sprintf(format, args...)}
}

func valueErr(format string, args ...any) error {
	return &pyError{"ValueError", fmt.Sprintf(format, args...)}
}

// equal is Python's a == b.
func equal(a, b any) bool {
	if x, xf, xIsF, ok := number(a); ok {
		y, yf, yIsF, ok := number(b)
		if !ok {
			return false
		}
		if !xIsF && !yIsF {
			return x == y
		}
		return xf == yf
	}
	switch a := a.(type) {
	case nil:
		return b == nil
	case string:
		s, ok := b.(string)
		return ok && a == s
	case []any:
		l, ok := b.([]any)
		return ok && slices.EqualFunc(a, l, equal)
	case tuple:
		t, ok := b.(tuple)
		return ok && slices.EqualFunc(a, t, equal)
	case *dict:
		d, ok := b.(*dict)
		if !ok || len(a.keys) != len(d.keys) {
			return false
		}
		for i, k := range a.keys {
			v, found, _ := d.get(k)
			if !found || !equal(a.vals[i], v) {
				return false
			}
		}
		return true
	case *set, dictKeys:
		x, y := asSet(a), asSet(b)
		return x != nil && y != nil && len(x.d.keys) == len(y.d.keys) && subset(x, y)
	case builtinFn:
		return a == b
	}
	return false
}

// asSet reads a set or a dict's keys as a set; nil for other values.
func asSet(v any) *set {
	switch v := v.(type) {
	case *set:
		return v
	case dictKeys:
		s := &set{newDict()}
		for _, k := range v {
			_ = s.d.set(k, nil)
		}
		return s
	}
	return nil
}

func subset(a, b *set) bool {
	for _, k := range a.d.keys {
		if _, ok, _ := b.d.get(k); !ok {
			return false
		}
	}
	return true
}

// compare is Python's ordering a op b for op <, <=, > or >=.
func compare(op string, a, b any) (bool, error) {
	if _, xf, _, ok := number(a); ok {
		if _, yf, _, ok := number(b); ok {
			xi, _, xIsF, _ := number(a)
			yi, _, yIsF, _ := number(b)
			if !xIsF && !yIsF {
				return orderHolds(op, cmpInts(xi, yi)), nil
			}
			if math.IsNaN(xf) || math.IsNaN(yf) {
				return false, nil
			}
			return orderHolds(op, cmpFloats(xf, yf)), nil
		}
	}
	switch x := a.(type) {
	case string:
		if y, ok := b.(string); ok {
			return orderHolds(op, strings.Compare(x, y)), nil
		}
	case []any:
		if y, ok := b.([]any); ok {
			return compareSeq(op, x, y)
		}
	case tuple:
		if y, ok := b.(tuple); ok {
			return compareSeq(op, x, y)
		}
	}
	return false, typeErr("'%s' not supported between instances of '%s' and '%s'", op, typeName(a), typeName(b))
}

func cmpInts(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func cmpFloats(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func orderHolds(op string, c int) bool {
	switch op {
	case "<":
		return c < 0
	case "<=":
		return c <= 0
	case ">":
		return c > 0
	}
	return c >= 0
}

// compareSeq orders two sequences by their first elements that differ,
// else by length.
func compareSeq(op string, a, b []any) (bool, error) {
	for i := 0; i < len(a) && i < len(b); i++ {
		if !equal(a[i], b[i]) {
			return compare(op, a[i], b[i])
		}
	}
	return orderHolds(op, cmpInts(int64(len(a)), int64(len(b)))), nil
}

// Repr is Python's repr(v).
func Repr(v any) string {
	var b strings.Builder
	writeRepr(&b, normalize(v))
	return b.String()
}

// Str is Python's str(v): a string as it is, anything else as repr.
func Str(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return Repr(v)
}

func writeRepr(b *strings.Builder, v any) {
	switch v := v.(type) {
	case nil:
		b.WriteString("None")
	case bool:
		if v {
			b.WriteString("True")
		} else {
			b.WriteString("False")
		}
	case int64:
		b.WriteString(strconv.FormatInt(v, 10))
	case float64:
		b.WriteString(floatRepr(v))
	case string:
		b.WriteString(stringRepr(v))
	case []any:
		writeItems(b, "[", v, "]")
	case tuple:
		if len(v) == 1 {
			writeItems(b, "(", v, ",)")
		} else {
			writeItems(b, "(", v, ")")
		}
	case *dict:
		b.WriteByte('{')
		for i, k := range v.keys {
			if i > 0 {
				b.WriteString(", ")
			}
			writeRepr(b, k)
			b.WriteString(": ")
			writeRepr(b, v.vals[i])
		}
		b.WriteByte('}')
	case *set:
		if len(v.d.keys) == 0 {
			b.WriteString("set()")
		} else {
			writeItems(b, "{", v.d.keys, "}")
		}
	case dictKeys:
		writeItems(b, "dict_keys([", v, "])")
	case *iterator:
		b.WriteString("<" + v.name + " object>")
	case builtinFn:
		if isType(v) {
			b.WriteString("<class '" + string(v) + "'>")
		} else {
			b.WriteString("<built-in function " + string(v) + ">")
		}
	case boundMethod:
		b.WriteString("<built-in method " + v.name + " of " + typeName(v.recv) + " object>")
	case sliceVal:
		b.WriteString("slice(" + Repr(v.lo) + ", " + Repr(v.hi) + ", " + Repr(v.step) + ")")
	default:
		fmt.Fprintf(b, "%v", v)
	}
}

func writeItems(b *strings.Builder, open string, items []any, close string) {
	b.WriteString(open)
	for i, x := range items {
		if i > 0 {
			b.WriteString(", ")
		}
		writeRepr(b, x)
	}
	b.WriteString(close)
}

// floatRepr is Python's repr of a float: the shortest text that reads
// back, in positional notation from 1e-4 up to 1e16, else in scientific.
func floatRepr(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		return "nan"
	}
	sci := strconv.FormatFloat(f, 'e', -1, 64)
	exp, _ := strconv.Atoi(sci[strings.IndexByte(sci, 'e')+1:])
	if exp < -4 || exp >= 16 {
		return sci
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.ContainsRune(s, '.') {
		s += ".0"
	}
	return s
}

// stringRepr quotes s as Python does: single quotes unless s holds a
// single quote and no double one, and escapes for what is not printable.
func stringRepr(s string) string {
	quote := byte('\'')
	if strings.ContainsRune(s, '\'') && !strings.ContainsRune(s, '"') {
		quote = '"'
	}
	var b strings.Builder
	b.WriteByte(quote)
	for _, r := range s {
		switch {
		case r == rune(quote) || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case !unicode.IsPrint(r) && r != ' ':
			switch {
			case r < 0x100:
				fmt.Fprintf(&b, `\x%02x`, r)
			case r < 0x10000:
				fmt.Fprintf(&b, `\u%04x`, r)
			default:
				fmt.Fprintf(&b, `\U%08x`, r)
			}
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte(quote)
	return b.String()
}
