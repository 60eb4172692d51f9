package pyexpr

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// builtins are the functions a condition may call, by name
// (safe_eval.py, ALLOWED_FUNCTIONS).
var builtins map[string]func(args []any, kwargs map[string]any) (any, error)

func init() {
	builtins = map[string]func([]any, map[string]any) (any, error){
		"len": fixed(1, builtinLen), "min": minMax("min", "<"), "max": minMax("max", ">"), "sum": builtinSum,
		"abs": fixed(1, builtinAbs), "str": optional("", toStr), "int": builtinInt, "float": optional(0.0, toFloat),
		"bool": optional(false, func(v any) (any, error) { return Truthy(v), nil }),
		"list": optional(tuple{}, toList), "tuple": optional(tuple{}, toTuple), "set": optional(tuple{}, toSet),
		"dict": builtinDict, "any": fixed(1, anyAll(true)), "all": fixed(1, anyAll(false)),
		"isinstance": fixed(2, builtinIsinstance), "round": builtinRound, "sorted": builtinSorted,
		"reversed": fixed(1, builtinReversed), "enumerate": builtinEnumerate, "zip": builtinZip,
		"map": builtinMap, "filter": fixed(2, builtinFilter),
	}
}

// the built-ins that are types, which isinstance takes.
var typeNames = []string{"int", "float", "str", "bool", "list", "dict", "set", "tuple"}

func isType(b builtinFn) bool { return slices.Contains(typeNames, string(b)) }

func fixed(n int, f func(...any) (any, error)) func([]any, map[string]any) (any, error) {
	return func(args []any, kwargs map[string]any) (any, error) {
		if len(args) != n || len(kwargs) > 0 {
			return nil, typeErr("takes exactly %d positional argument(s) (%d given)", n, len(args))
		}
		return f(args...)
	}
}

// optional wraps a one-argument conversion whose argument has a default.
func optional(def any, f func(any) (any, error)) func([]any, map[string]any) (any, error) {
	return func(args []any, kwargs map[string]any) (any, error) {
		if len(args) > 1 || len(kwargs) > 0 {
			return nil, typeErr("takes at most 1 argument (%d given)", len(args))
		}
		if len(args) == 0 {
			return f(def)
		}
		return f(args[0])
	}
}

func callBuiltin(name string, args []any, kwargs map[string]any) (any, error) {
	return builtins[name](args, kwargs)
}

// call calls a function value: a built-in, or a bound method.
func call(fn any, args ...any) (any, error) {
	switch f := fn.(type) {
	case builtinFn:
		return callBuiltin(string(f), args, nil)
	case boundMethod:
		return callMethod(f.recv, f.name, args, nil)
	}
	return nil, typeErr("'%s' object is not callable", typeName(fn))
}

// items reads an iterable: a string's characters, a list's or tuple's
// items, a dict's, set's or view's keys, an iterator's items.
func items(v any) ([]any, error) {
	switch v := v.(type) {
	case string:
		out := []any{}
		for _, r := range v {
			out = append(out, string(r))
		}
		return out, nil
	case []any:
		return v, nil
	case tuple:
		return v, nil
	case *dict:
		return v.keys, nil
	case *set:
		return v.d.keys, nil
	case dictKeys:
		return v, nil
	case *iterator:
		return v.items()
	}
	return nil, typeErr("'%s' object is not iterable", typeName(v))
}

func builtinLen(args ...any) (any, error) {
	switch v := args[0].(type) {
	case string:
		return runeLen(v), nil
	case []any:
		return int64(len(v)), nil
	case tuple:
		return int64(len(v)), nil
	case *dict:
		return int64(len(v.keys)), nil
	case *set:
		return int64(len(v.d.keys)), nil
	case dictKeys:
		return int64(len(v)), nil
	}
	return nil, typeErr("object of type '%s' has no len()", typeName(args[0]))
}

func minMax(name, better string) func([]any, map[string]any) (any, error) {
	return func(args []any, kwargs map[string]any) (any, error) {
		list := args
		if len(args) == 1 {
			var err error
			if list, err = items(args[0]); err != nil {
				return nil, err
			}
		} else if _, ok := kwargs["default"]; ok {
			return nil, typeErr("Cannot specify a default for %s() with multiple positional arguments", name)
		}
		if len(args) == 0 {
			return nil, typeErr("%s expected at least 1 argument, got 0", name)
		}
		if len(list) == 0 {
			if d, ok := kwargs["default"]; ok {
				return d, nil
			}
			return nil, valueErr("%s() arg is an empty sequence", name)
		}
		key := kwargs["key"]
		best, bestKey := list[0], list[0]
		if key != nil {
			var err error
			if bestKey, err = call(key, best); err != nil {
				return nil, err
			}
		}
		for _, x := range list[1:] {
			k := x
			if key != nil {
				var err error
				if k, err = call(key, x); err != nil {
					return nil, err
				}
			}
			ok, err := compare(better, k, bestKey)
			if err != nil {
				return nil, err
			}
			if ok {
				best, bestKey = x, k
			}
		}
		return best, nil
	}
}

func builtinSum(args []any, kwargs map[string]any) (any, error) {
	if len(args) == 0 || len(args) > 2 {
		return nil, typeErr("sum() takes at least 1 positional argument")
	}
	var total any = int64(0)
	if len(args) == 2 {
		total = args[1]
	} else if s, ok := kwargs["start"]; ok {
		total = s
	}
	if _, ok := total.(string); ok {
		return nil, typeErr("sum() can't sum strings [use ''.join(seq) instead]")
	}
	list, err := items(args[0])
	if err != nil {
		return nil, err
	}
	for _, x := range list {
		if total, err = arith("+", total, x); err != nil {
			return nil, err
		}
	}
	return total, nil
}

func builtinAbs(args ...any) (any, error) {
	i, f, isFloat, ok := number(args[0])
	switch {
	case !ok:
		return nil, typeErr("bad operand type for abs(): '%s'", typeName(args[0]))
	case isFloat:
		return math.Abs(f), nil
	case i == math.MinInt64:
		return nil, errOverflow()
	}
	return abs64(i), nil
}

func toStr(v any) (any, error) { return Str(v), nil }

func builtinInt(args []any, kwargs map[string]any) (any, error) {
	if len(args) == 0 {
		return int64(0), nil
	}
	base, hasBase := int64(10), false
	if b, ok := kwargs["base"]; ok {
		base, hasBase = b.(int64), true
	}
	if len(args) == 2 {
		base, hasBase = args[1].(int64), true
	}
	switch v := args[0].(type) {
	case string:
		return parseInt(v, base)
	case bool, int64:
		if hasBase {
			return nil, typeErr("int() can't convert non-string with explicit base")
		}
		i, _, _, _ := number(v)
		return i, nil
	case float64:
		if math.IsInf(v, 0) || math.IsNaN(v) || math.Abs(v) >= 1<<63 {
			return nil, errOverflow()
		}
		return int64(math.Trunc(v)), nil
	}
	return nil, typeErr("int() argument must be a string, a bytes-like object or a real number, not '%s'", typeName(args[0]))
}

func parseInt(s string, base int64) (any, error) {
	t := strings.TrimSpace(s)
	sign := ""
	if strings.HasPrefix(t, "-") || strings.HasPrefix(t, "+") {
		sign, t = t[:1], t[1:]
	}
	body := strings.ToLower(t)
	if prefix := map[int64]string{16: "0x", 8: "0o", 2: "0b"}[base]; prefix != "" {
		body = strings.TrimPrefix(body, prefix)
	}
	if body != "" && validUnderscores(body) && (base < 2 || base > 10 || !strings.ContainsAny(body, "xob")) {
		i, err := strconv.ParseInt(sign+strings.ReplaceAll(body, "_", ""), int(base), 64)
		if err == nil {
			return i, nil
		}
		if isRangeErr(err) {
			return nil, errOverflow()
		}
	}
	return nil, valueErr("invalid literal for int() with base %d: %s", base, Repr(s))
}

func toFloat(v any) (any, error) {
	if s, ok := v.(string); ok {
		t := strings.ToLower(strings.TrimSpace(s))
		switch strings.TrimLeft(t, "+-") {
		case "inf", "infinity":
			return math.Inf(map[bool]int{true: -1, false: 1}[strings.HasPrefix(t, "-")]), nil
		case "nan":
			return math.NaN(), nil
		}
		if validUnderscores(strings.TrimLeft(t, "+-")) && !strings.HasPrefix(strings.TrimLeft(t, "+-"), "0x") {
			if f, err := strconv.ParseFloat(strings.ReplaceAll(t, "_", ""), 64); err == nil || isRangeErr(err) {
				return f, nil
			}
		}
		return nil, valueErr("could not convert string to float: %s", Repr(s))
	}
	if _, f, _, ok := number(v); ok {
		return f, nil
	}
	return nil, typeErr("float() argument must be a string or a real number, not '%s'", typeName(v))
}

func toList(v any) (any, error) {
	l, err := items(v)
	return append([]any{}, l...), err
}

func toTuple(v any) (any, error) {
	l, err := items(v)
	return append(tuple{}, l...), err
}

func toSet(v any) (any, error) {
	l, err := items(v)
	if err != nil {
		return nil, err
	}
	s := &set{newDict()}
	for _, x := range l {
		if err := s.d.set(x, nil); err != nil {
			return nil, err
		}
	}
	return s, nil
}

func builtinDict(args []any, kwargs map[string]any) (any, error) {
	d := newDict()
	if len(args) > 1 {
		return nil, typeErr("dict expected at most 1 argument, got %d", len(args))
	}
	if len(args) == 1 {
		if src, ok := args[0].(*dict); ok {
			for i, k := range src.keys {
				_ = d.set(k, src.vals[i])
			}
		} else {
			pairs, err := items(args[0])
			if err != nil {
				return nil, err
			}
			for _, p := range pairs {
				kv, err := items(p)
				if err != nil || len(kv) != 2 {
					return nil, valueErr("dictionary update sequence element has wrong length")
				}
				if err := d.set(kv[0], kv[1]); err != nil {
					return nil, err
				}
			}
		}
	}
	for _, k := range slices.Sorted(mapsKeys(kwargs)) {
		_ = d.set(k, kwargs[k])
	}
	return d, nil
}

func anyAll(isAny bool) func(...any) (any, error) {
	return func(args ...any) (any, error) {
		l, err := items(args[0])
		if err != nil {
			return nil, err
		}
		for _, x := range l {
			if Truthy(x) == isAny {
				return isAny, nil
			}
		}
		return !isAny, nil
	}
}

func builtinIsinstance(args ...any) (any, error) {
	types := []any{args[1]}
	if t, ok := args[1].(tuple); ok {
		types = t
	}
	for _, t := range types {
		b, ok := t.(builtinFn)
		if !ok || !isType(b) {
			return nil, typeErr("isinstance() arg 2 must be a type, a tuple of types, or a union")
		}
		name := typeName(args[0])
		if name == string(b) || (b == "int" && name == "bool") {
			return true, nil
		}
	}
	return false, nil
}

func builtinRound(args []any, kwargs map[string]any) (any, error) {
	if len(args) == 0 || len(args) > 2 {
		return nil, typeErr("round() takes 1 or 2 arguments")
	}
	nd, hasDigits := kwargs["ndigits"]
	if len(args) == 2 {
		nd, hasDigits = args[1], true
	}
	i, f, isFloat, ok := number(args[0])
	if !ok {
		return nil, typeErr("type %s doesn't define __round__ method", typeName(args[0]))
	}
	if !hasDigits || nd == nil {
		if !isFloat {
			return i, nil
		}
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, errOverflow()
		}
		return int64(math.RoundToEven(f)), nil
	}
	n, _, ndFloat, ok := number(nd)
	if !ok || ndFloat {
		return nil, typeErr("'%s' object cannot be interpreted as an integer", typeName(nd))
	}
	if !isFloat {
		if n >= 0 {
			return i, nil
		}
		p := math.Pow(10, float64(-n))
		return int64(math.RoundToEven(float64(i)/p) * p), nil
	}
	if n < 0 {
		p := math.Pow(10, float64(-n))
		return math.RoundToEven(f/p) * p, nil
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'f', int(min(n, 340)), 64), 64)
	return r, nil
}

func builtinSorted(args []any, kwargs map[string]any) (any, error) {
	if len(args) != 1 {
		return nil, typeErr("sorted expected 1 argument, got %d", len(args))
	}
	l, err := items(args[0])
	if err != nil {
		return nil, err
	}
	return sortItems(l, kwargs["key"], Truthy(kwargs["reverse"]))
}

func sortItems(l []any, key any, reverse bool) ([]any, error) {
	keys := make([]any, len(l))
	for i, x := range l {
		keys[i] = x
		if key != nil {
			k, err := call(key, x)
			if err != nil {
				return nil, err
			}
			keys[i] = k
		}
	}
	idx := make([]int, len(l))
	for i := range idx {
		idx[i] = i
	}
	var sortErr error
	slices.SortStableFunc(idx, func(a, b int) int {
		x, y := keys[a], keys[b]
		if reverse {
			x, y = y, x
		}
		less, err := compare("<", x, y)
		if err != nil {
			sortErr = err
		}
		if less {
			return -1
		}
		if more, _ := compare("<", y, x); more {
			return 1
		}
		return 0
	})
	out := make([]any, len(l))
	for i, j := range idx {
		out[i] = l[j]
	}
	return out, sortErr
}

func builtinReversed(args ...any) (any, error) {
	switch args[0].(type) {
	case string, []any, tuple, *dict, dictKeys:
		l, _ := items(args[0])
		out := slices.Clone(l)
		slices.Reverse(out)
		return &iterator{"reversed", func() ([]any, error) { return out, nil }}, nil
	}
	return nil, typeErr("'%s' object is not reversible", typeName(args[0]))
}

func builtinEnumerate(args []any, kwargs map[string]any) (any, error) {
	if len(args) == 0 || len(args) > 2 {
		return nil, typeErr("enumerate() takes 1 or 2 arguments")
	}
	start, ok := kwargs["start"]
	if len(args) == 2 {
		start, ok = args[1], true
	}
	first := int64(0)
	if ok {
		i, _, isFloat, isNum := number(start)
		if !isNum || isFloat {
			return nil, typeErr("'%s' object cannot be interpreted as an integer", typeName(start))
		}
		first = i
	}
	l, err := items(args[0])
	if err != nil {
		return nil, err
	}
	out := make([]any, len(l))
	for i, x := range l {
		out[i] = tuple{first + int64(i), x}
	}
	return &iterator{"enumerate", func() ([]any, error) { return out, nil }}, nil
}

func builtinZip(args []any, kwargs map[string]any) (any, error) {
	lists := make([][]any, len(args))
	n := -1
	for i, a := range args {
		l, err := items(a)
		if err != nil {
			return nil, err
		}
		lists[i] = l
		if n < 0 || len(l) < n {
			n = len(l)
		}
	}
	out := make([]any, max(n, 0))
	for i := range out {
		t := make(tuple, len(lists))
		for j := range lists {
			t[j] = lists[j][i]
		}
		out[i] = t
	}
	return &iterator{"zip", func() ([]any, error) { return out, nil }}, nil
}

func builtinMap(args []any, kwargs map[string]any) (any, error) {
	if len(args) < 2 {
		return nil, typeErr("map() must have at least two arguments.")
	}
	zipped, err := builtinZip(args[1:], nil)
	if err != nil {
		return nil, err
	}
	rows, _ := zipped.(*iterator).items()
	fn := args[0]
	return &iterator{"map", func() ([]any, error) {
		out := make([]any, len(rows))
		for i, r := range rows {
			v, err := call(fn, r.(tuple)...)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	}}, nil
}

func builtinFilter(args ...any) (any, error) {
	l, err := items(args[1])
	if err != nil {
		return nil, err
	}
	fn := args[0]
	return &iterator{"filter", func() ([]any, error) {
		out := []any{}
		for _, x := range l {
			keep := x
			if fn != nil {
				var err error
				if keep, err = call(fn, x); err != nil {
					return nil, err
				}
			}
			if Truthy(keep) {
				out = append(out, x)
			}
		}
		return out, nil
	}}, nil
}
