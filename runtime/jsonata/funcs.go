package jsonata

import (
	"math"
	"strconv"
	"strings"

	"github.com/flowc-dev/flowc/runtime/jsonata/internal/jsnum"
)

var builtins map[string]*builtin

// def registers a built-in with its JSONata signature.
func def(name, sig string, nargs int, fn func(e *evaluator, args []any, input any) (any, error)) {
	s, err := parseSignature(sig, 0)
	if err != nil {
		panic("jsonata: bad signature for $" + name + ": " + err.Error())
	}
	builtins[name] = &builtin{name: name, sig: s, nargs: nargs, fn: fn}
}

func init() {
	builtins = map[string]*builtin{}
	defineStringFuncs()
	defineNumericFuncs()
	defineArrayFuncs()
	defineObjectFuncs()
	defineHigherOrderFuncs()
	defineMiscFuncs()
	defineAWSFuncs()
}

func arg(args []any, i int) any {
	if i < len(args) {
		return args[i]
	}
	return undefined
}

func str(args []any, i int) (string, bool) {
	s, ok := arg(args, i).(string)
	return s, ok
}

func num(args []any, i int) (float64, bool) { return asNumber(arg(args, i)) }

func items(v any) []any {
	if arr, ok := arrayOf(v); ok {
		return arr
	}
	if isUndef(v) {
		return nil
	}
	return []any{v}
}

// callback calls fn with as many of args as it declares parameters, the
// way JSONata passes (value, index, array) or (value, key, object) to a
// function argument.
func (e *evaluator) callback(fn any, args ...any) (any, error) {
	return e.apply(fn, args[:callbackArity(fn, len(args))], undefined, nil)
}

// hofCall is callback for (lead..., index, array), boxing the index and
// copying the arguments only as far as fn reads them: it runs once per item.
func (e *evaluator) hofCall(fn any, lead []any, index int, whole any) (any, error) {
	n := callbackArity(fn, len(lead)+2)
	var args []any
	if _, ok := fn.(*lambda); ok && n <= len(e.argBuf) {
		args = e.argBuf[:n] // a lambda copies its arguments into its frame before it runs
	} else {
		args = make([]any, n)
	}
	copy(args, lead)
	if len(lead) < len(args) {
		args[len(lead)] = box(float64(index))
	}
	if len(lead)+1 < len(args) {
		args[len(lead)+1] = whole
	}
	return e.apply(fn, args, undefined, nil)
}

// callbackArity is how many of n arguments fn takes; a builtin with no
// fixed arity takes them all.
func callbackArity(fn any, n int) int {
	if c, ok := fn.(callable); ok {
		if _, isB := fn.(*builtin); !isB || c.arity() != 0 {
			return min(n, c.arity())
		}
	}
	return n
}

func defineNumericFuncs() {
	def("sum", "<a<n>:n>", 1, func(e *evaluator, a []any, _ any) (any, error) {
		if isUndef(arg(a, 0)) {
			return undefined, nil
		}
		t := 0.0
		for _, v := range items(a[0]) {
			f, _ := asNumber(v)
			t += f
		}
		return t, nil
	})
	def("count", "<a:n>", 1, func(e *evaluator, a []any, _ any) (any, error) {
		return float64(len(items(arg(a, 0)))), nil
	})
	extreme := func(max bool) func(e *evaluator, a []any, _ any) (any, error) {
		return func(e *evaluator, a []any, _ any) (any, error) {
			vs := items(arg(a, 0))
			if len(vs) == 0 {
				return undefined, nil
			}
			best, _ := asNumber(vs[0])
			for _, v := range vs[1:] {
				f, _ := asNumber(v)
				if max && f > best || !max && f < best {
					best = f
				}
			}
			return best, nil
		}
	}
	def("max", "<a<n>:n>", 1, extreme(true))
	def("min", "<a<n>:n>", 1, extreme(false))
	def("average", "<a<n>:n>", 1, func(e *evaluator, a []any, _ any) (any, error) {
		vs := items(arg(a, 0))
		if len(vs) == 0 {
			return undefined, nil
		}
		t := 0.0
		for _, v := range vs {
			f, _ := asNumber(v)
			t += f
		}
		return t / float64(len(vs)), nil
	})
	unary := func(name string, f func(float64) float64) {
		def(name, "<n-:n>", 1, func(e *evaluator, a []any, _ any) (any, error) {
			x, ok := num(a, 0)
			if !ok {
				return undefined, nil
			}
			return f(x), nil
		})
	}
	unary("abs", math.Abs)
	unary("floor", math.Floor)
	unary("ceil", math.Ceil)
	def("sqrt", "<n-:n>", 1, func(e *evaluator, a []any, _ any) (any, error) {
		x, ok := num(a, 0)
		if !ok {
			return undefined, nil
		}
		if x < 0 {
			return nil, valueError("D3060", -1, x)
		}
		return math.Sqrt(x), nil
	})
	def("power", "<n-n:n>", 2, func(e *evaluator, a []any, _ any) (any, error) {
		x, ok := num(a, 0)
		if !ok {
			return undefined, nil
		}
		y, _ := num(a, 1)
		r := math.Pow(x, y)
		if math.IsInf(r, 0) || math.IsNaN(r) {
			return nil, &Error{Code: "D3061", Position: -1, value: x, value2: y}
		}
		return r, nil
	})
	def("round", "<n-n?:n>", 2, func(e *evaluator, a []any, _ any) (any, error) {
		x, ok := num(a, 0)
		if !ok {
			return undefined, nil
		}
		p, _ := num(a, 1)
		return roundHalfEven(x, int(p)), nil
	})
	def("number", "<(nsb)-:n>", 1, func(e *evaluator, a []any, _ any) (any, error) {
		return toNumber(arg(a, 0))
	})
	def("random", "<n?:n>", 0, func(e *evaluator, a []any, _ any) (any, error) {
		if seed, ok := num(a, 0); ok {
			return seededRandom(seed), nil
		}
		return e.rand(), nil
	})
	def("formatBase", "<n-n?:s>", 2, fnFormatBase)
	def("formatNumber", "<n-so?:s>", 3, fnFormatNumber)
	def("formatInteger", "<n-s:s>", 2, fnFormatInteger)
	def("parseInteger", "<s-s:n>", 2, fnParseInteger)
}

// roundHalfEven rounds to p decimal places, ties to even, as $round does;
// the decimal point is shifted in the printed form so that 0.125 stays exact.
func roundHalfEven(x float64, p int) float64 {
	if p != 0 {
		x = shiftDecimal(x, p)
	}
	r := math.Floor(x + 0.5)
	if math.Abs(r-x) == 0.5 && math.Abs(math.Mod(r, 2)) == 1 {
		r--
	}
	if p != 0 {
		r = shiftDecimal(r, -p)
	}
	if r == 0 {
		return 0
	}
	return r
}

func shiftDecimal(x float64, p int) float64 {
	s := jsnum.Format(x)
	mant, exp := s, 0
	if i := strings.IndexByte(s, 'e'); i >= 0 {
		mant = s[:i]
		exp, _ = strconv.Atoi(s[i+1:])
	}
	f, err := strconv.ParseFloat(mant+"e"+strconv.Itoa(exp+p), 64)
	if err != nil {
		return x * math.Pow(10, float64(p))
	}
	return f
}

func toNumber(v any) (any, error) {
	switch x := v.(type) {
	case undefinedT:
		return undefined, nil
	case bool:
		if x {
			return 1.0, nil
		}
		return 0.0, nil
	case string:
		if f, ok := parseJSNumber(x); ok {
			return f, nil
		}
		return nil, valueError("D3030", -1, v)
	}
	if f, ok := asNumber(v); ok {
		return f, nil
	}
	return nil, valueError("D3030", -1, v)
}

func defineStringFuncs() {
	def("string", "<x-b?:s>", 1, func(e *evaluator, a []any, _ any) (any, error) {
		v := arg(a, 0)
		if isUndef(v) {
			return undefined, nil
		}
		pretty, _ := arg(a, 1).(bool)
		return stringify(v, pretty)
	})
	def("length", "<s-:n>", 1, func(e *evaluator, a []any, _ any) (any, error) {
		s, ok := str(a, 0)
		if !ok {
			return undefined, nil
		}
		return float64(runeCount(s)), nil
	})
	def("substring", "<s-nn?:s>", 3, func(e *evaluator, a []any, _ any) (any, error) {
		s, ok := str(a, 0)
		if !ok {
			return undefined, nil
		}
		start, _ := num(a, 1)
		rs := []rune(s)
		n := float64(len(rs))
		if n+start < 0 {
			start = 0
		}
		if l, ok := num(a, 2); ok {
			if l <= 0 {
				return "", nil
			}
			end := start + l
			if start < 0 {
				end = n + start + l
			}
			return string(sliceRunes(rs, start, end)), nil
		}
		return string(sliceRunes(rs, start, n)), nil
	})
	def("substringBefore", "<s-s:s>", 2, func(e *evaluator, a []any, _ any) (any, error) {
		s, ok := str(a, 0)
		if !ok {
			return undefined, nil
		}
		c, _ := str(a, 1)
		if i := strings.Index(s, c); i >= 0 {
			return s[:i], nil
		}
		return s, nil
	})
	def("substringAfter", "<s-s:s>", 2, func(e *evaluator, a []any, _ any) (any, error) {
		s, ok := str(a, 0)
		if !ok {
			return undefined, nil
		}
		c, _ := str(a, 1)
		if i := strings.Index(s, c); i >= 0 {
			return s[i+len(c):], nil
		}
		return s, nil
	})
	def("lowercase", "<s-:s>", 1, strFn(strings.ToLower))
	def("uppercase", "<s-:s>", 1, strFn(strings.ToUpper))
	def("trim", "<s-:s>", 1, strFn(func(s string) string {
		return strings.Trim(collapseSpace(s), " ")
	}))
	def("pad", "<s-ns?:s>", 3, func(e *evaluator, a []any, _ any) (any, error) {
		s, ok := str(a, 0)
		if !ok {
			return undefined, nil
		}
		w, _ := num(a, 1)
		c, ok := str(a, 2)
		if !ok || c == "" {
			c = " "
		}
		if math.Abs(w) > maxStringLength {
			return nil, valueError("D1001", -1, w)
		}
		padLen := int(math.Abs(w)) - runeCount(s)
		if padLen <= 0 {
			return s, nil
		}
		pad := []rune(strings.Repeat(c, padLen))[:padLen]
		if w > 0 {
			return s + string(pad), nil
		}
		return string(pad) + s, nil
	})
	def("contains", "<s-(sf):b>", 2, fnContains)
	def("split", "<s-(sf)n?:a<s>>", 3, fnSplit)
	def("join", "<a<s>s?:s>", 2, func(e *evaluator, a []any, _ any) (any, error) {
		if isUndef(arg(a, 0)) {
			return undefined, nil
		}
		sep, _ := str(a, 1)
		vs := items(a[0])
		parts := make([]string, len(vs))
		for i, v := range vs {
			parts[i], _ = v.(string)
		}
		return strings.Join(parts, sep), nil
	})
	def("match", "<s-f<s:o>n?:a<o>>", 3, fnMatch)
	def("replace", "<s-(sf)(sf)n?:s>", 4, fnReplace)
	def("base64encode", "<s-:s>", 1, strFn(base64Encode))
	def("base64decode", "<s-:s>", 1, strFn(base64Decode))
	def("encodeUrlComponent", "<s-:s>", 1, urlFn("encodeUrlComponent", encodeURIComponent))
	def("encodeUrl", "<s-:s>", 1, urlFn("encodeUrl", encodeURI))
	def("decodeUrlComponent", "<s-:s>", 1, urlFn("decodeUrlComponent", decodeURIComponent))
	def("decodeUrl", "<s-:s>", 1, urlFn("decodeUrl", decodeURI))
}

// maxStringLength is JavaScript's string length limit (2^29 - 24 in V8);
// beyond it a padded string cannot exist.
const maxStringLength = 1<<29 - 24

func sliceRunes(rs []rune, start, end float64) []rune {
	n := float64(len(rs))
	clamp := func(x float64) int {
		x = math.Trunc(x)
		if x < 0 {
			x += n
			if x < 0 {
				x = 0
			}
		}
		if x > n {
			x = n
		}
		return int(x)
	}
	s, en := clamp(start), clamp(end)
	if s >= en {
		return nil
	}
	return rs[s:en]
}

func collapseSpace(s string) string {
	var b strings.Builder
	inSpace := false
	for _, r := range s {
		if r == ' ' || r == '\t' || r == '\n' || r == '\r' {
			if !inSpace {
				b.WriteByte(' ')
			}
			inSpace = true
			continue
		}
		inSpace = false
		b.WriteRune(r)
	}
	return b.String()
}

func strFn(f func(string) string) func(e *evaluator, a []any, _ any) (any, error) {
	return func(e *evaluator, a []any, _ any) (any, error) {
		s, ok := str(a, 0)
		if !ok {
			return undefined, nil
		}
		return f(s), nil
	}
}

func urlFn(name string, f func(string) (string, bool)) func(e *evaluator, a []any, _ any) (any, error) {
	return func(e *evaluator, a []any, _ any) (any, error) {
		s, ok := str(a, 0)
		if !ok {
			return undefined, nil
		}
		r, ok := f(s)
		if !ok {
			return nil, &Error{Code: "D3140", Position: -1, Token: name, value: s}
		}
		return r, nil
	}
}

func defineArrayFuncs() {
	def("append", "<xx:a>", 2, func(e *evaluator, a []any, _ any) (any, error) {
		return appendValues(arg(a, 0), arg(a, 1)), nil
	})
	def("reverse", "<a:a>", 1, func(e *evaluator, a []any, _ any) (any, error) {
		if isUndef(arg(a, 0)) {
			return undefined, nil
		}
		vs := items(a[0])
		out := make([]any, len(vs))
		for i, v := range vs {
			out[len(vs)-1-i] = v
		}
		return out, nil
	})
	def("shuffle", "<a:a>", 1, func(e *evaluator, a []any, _ any) (any, error) {
		if isUndef(arg(a, 0)) {
			return undefined, nil
		}
		out := append([]any(nil), items(a[0])...)
		for i := len(out) - 1; i > 0; i-- {
			j := int(e.rand() * float64(i+1))
			out[i], out[j] = out[j], out[i]
		}
		return out, nil
	})
	def("distinct", "<x:x>", 1, func(e *evaluator, a []any, _ any) (any, error) {
		v := arg(a, 0)
		vs, ok := arrayOf(v)
		if !ok || len(vs) <= 1 {
			return v, nil
		}
		out := newSeq(len(vs))
	next:
		for _, it := range vs {
			for _, seen := range out.v {
				if deepEqual(it, seen) {
					continue next
				}
			}
			out.v = append(out.v, it)
		}
		return out, nil
	})
	def("sort", "<af?:a>", 2, fnSort)
	def("zip", "<a+>", 0, func(e *evaluator, a []any, _ any) (any, error) {
		if len(a) == 0 {
			return []any{}, nil
		}
		n := math.MaxInt
		for _, x := range a {
			n = min(n, len(items(x)))
		}
		out := make([]any, n)
		for i := range out {
			row := make([]any, len(a))
			for j, x := range a {
				row[j] = items(x)[i]
			}
			out[i] = row
		}
		return out, nil
	})
}

func fnSort(e *evaluator, a []any, _ any) (any, error) {
	if isUndef(arg(a, 0)) {
		return undefined, nil
	}
	vs := append([]any(nil), items(a[0])...)
	if len(vs) <= 1 {
		return vs, nil
	}
	fn := arg(a, 1)
	var less func(x, y any) (bool, error)
	if isUndef(fn) {
		allNum, allStr := true, true
		for _, v := range vs {
			allNum = allNum && isNumber(v)
			allStr = allStr && isString(v)
		}
		if !allNum && !allStr {
			return nil, newError("D3070", -1, "sort")
		}
		less = func(x, y any) (bool, error) {
			if allNum {
				xf, _ := asNumber(x)
				yf, _ := asNumber(y)
				return xf > yf, nil
			}
			return compareStrings(x.(string), y.(string)) > 0, nil
		}
	} else {
		less = func(x, y any) (bool, error) {
			r, err := e.callback(fn, x, y)
			return truthy(r), err
		}
	}
	return mergeSort(vs, less)
}

// mergeSort orders vs so that swap(a, b) true puts b first, the contract of
// $sort's comparator; stable, and it stops at the comparator's first error.
func mergeSort(vs []any, swap func(a, b any) (bool, error)) ([]any, error) {
	if len(vs) <= 1 {
		return vs, nil
	}
	mid := len(vs) / 2
	l, err := mergeSort(vs[:mid:mid], swap)
	if err != nil {
		return nil, err
	}
	r, err := mergeSort(vs[mid:], swap)
	if err != nil {
		return nil, err
	}
	out := make([]any, 0, len(vs))
	for len(l) > 0 && len(r) > 0 {
		s, err := swap(l[0], r[0])
		if err != nil {
			return nil, err
		}
		if s {
			out = append(out, r[0])
			r = r[1:]
		} else {
			out = append(out, l[0])
			l = l[1:]
		}
	}
	out = append(out, l...)
	return append(out, r...), nil
}

func defineObjectFuncs() {
	def("keys", "<x-:a<s>>", 1, func(e *evaluator, a []any, _ any) (any, error) {
		v := arg(a, 0)
		out := newSeq(8)
		seen := map[string]bool{}
		add := func(o any) {
			for _, k := range objectKeys(o) {
				if !seen[k] {
					seen[k] = true
					out.v = append(out.v, k)
				}
			}
		}
		if arr, ok := arrayOf(v); ok {
			for _, it := range arr {
				add(it)
			}
		} else {
			add(v)
		}
		return out, nil
	})
	def("lookup", "<x-s:x>", 2, func(e *evaluator, a []any, _ any) (any, error) {
		k, _ := str(a, 1)
		return lookup(arg(a, 0), k), nil
	})
	def("spread", "<x-:a<o>>", 1, func(e *evaluator, a []any, _ any) (any, error) {
		return spread(arg(a, 0)), nil
	})
	def("merge", "<a<o>:o>", 1, func(e *evaluator, a []any, _ any) (any, error) {
		if isUndef(arg(a, 0)) {
			return undefined, nil
		}
		out := newObject(8)
		for _, o := range items(a[0]) {
			for _, k := range objectKeys(o) {
				v, _ := objectGet(o, k)
				out.set(k, v)
			}
		}
		return out, nil
	})
	def("sift", "<o-f?:o>", 2, func(e *evaluator, a []any, _ any) (any, error) {
		o := arg(a, 0)
		if isUndef(o) {
			return undefined, nil
		}
		out := newObject(4)
		for _, k := range objectKeys(o) {
			v, _ := objectGet(o, k)
			r, err := e.callback(arg(a, 1), v, k, o)
			if err != nil {
				return nil, err
			}
			if truthy(r) {
				out.set(k, v)
			}
		}
		if out.Len() == 0 {
			return undefined, nil
		}
		return out, nil
	})
	def("each", "<o-f:a>", 2, func(e *evaluator, a []any, _ any) (any, error) {
		o := arg(a, 0)
		if isUndef(o) {
			return undefined, nil
		}
		out := newSeq(4)
		for _, k := range objectKeys(o) {
			v, _ := objectGet(o, k)
			r, err := e.callback(arg(a, 1), v, k, o)
			if err != nil {
				return nil, err
			}
			if !isUndef(r) {
				out.v = append(out.v, r)
			}
		}
		return out, nil
	})
	def("type", "<x:s>", 1, func(e *evaluator, a []any, _ any) (any, error) {
		switch typeSymbol(arg(a, 0)) {
		case 'm':
			return undefined, nil
		case 'l':
			return "null", nil
		case 'b':
			return "boolean", nil
		case 'n':
			return "number", nil
		case 's':
			return "string", nil
		case 'a':
			return "array", nil
		case 'f':
			return "function", nil
		}
		return "object", nil
	})
	def("clone", "<(oa)-:o>", 1, func(e *evaluator, a []any, _ any) (any, error) {
		return deepClone(arg(a, 0)), nil
	})
}

func spread(v any) any {
	if arr, ok := arrayOf(v); ok {
		out := newSeq(len(arr))
		for _, it := range arr {
			r := spread(it)
			if ra, ok := arrayOf(r); ok {
				out.v = append(out.v, ra...)
			} else if !isUndef(r) {
				out.v = append(out.v, r)
			}
		}
		return out
	}
	if isObject(v) {
		out := newSeq(4)
		for _, k := range objectKeys(v) {
			o := newObject(1)
			val, _ := objectGet(v, k)
			o.set(k, val)
			out.v = append(out.v, o)
		}
		return out
	}
	return v
}

func deepClone(v any) any {
	v = normalize(v)
	if arr, ok := arrayOf(v); ok {
		out := make([]any, len(arr))
		for i, it := range arr {
			out[i] = deepClone(it)
		}
		return out
	}
	if isObject(v) {
		keys := objectKeys(v)
		out := newObject(len(keys))
		for _, k := range keys {
			val, _ := objectGet(v, k)
			out.set(k, deepClone(val))
		}
		return out
	}
	return v
}

func defineHigherOrderFuncs() {
	def("map", "<af>", 2, func(e *evaluator, a []any, _ any) (any, error) {
		if isUndef(arg(a, 0)) {
			return undefined, nil
		}
		vs := items(a[0])
		whole := any(vs) // boxed once, not per item
		out := newSeq(len(vs))
		for i, v := range vs {
			r, err := e.hofCall(a[1], []any{v}, i, whole)
			if err != nil {
				return nil, err
			}
			if !isUndef(r) {
				out.v = append(out.v, r)
			}
		}
		return out, nil
	})
	def("filter", "<af>", 2, func(e *evaluator, a []any, _ any) (any, error) {
		if isUndef(arg(a, 0)) {
			return undefined, nil
		}
		vs := items(a[0])
		whole := any(vs) // boxed once, not per item
		out := newSeq(len(vs))
		for i, v := range vs {
			r, err := e.hofCall(a[1], []any{v}, i, whole)
			if err != nil {
				return nil, err
			}
			if truthy(r) {
				out.v = append(out.v, v)
			}
		}
		return out, nil
	})
	def("single", "<af?>", 2, func(e *evaluator, a []any, _ any) (any, error) {
		if isUndef(arg(a, 0)) {
			return undefined, nil
		}
		vs := items(a[0])
		whole := any(vs)
		var found any
		n := 0
		for i, v := range vs {
			ok := true
			if fn := arg(a, 1); !isUndef(fn) {
				r, err := e.hofCall(fn, []any{v}, i, whole)
				if err != nil {
					return nil, err
				}
				ok = truthy(r)
			}
			if ok {
				n++
				if n > 1 {
					return nil, newError("D3138", -1, "single")
				}
				found = v
			}
		}
		if n == 0 {
			return nil, newError("D3139", -1, "single")
		}
		return found, nil
	})
	def("reduce", "<afj?:j>", 3, func(e *evaluator, a []any, _ any) (any, error) {
		if isUndef(arg(a, 0)) {
			return undefined, nil
		}
		fn := a[1]
		if c, ok := fn.(callable); ok && c.arity() < 2 {
			if _, isB := fn.(*builtin); !isB || c.arity() != 0 {
				return nil, newError("D3050", -1, "reduce")
			}
		}
		vs := items(a[0])
		whole := any(vs)
		acc := arg(a, 2)
		start := 0
		if isUndef(acc) && len(vs) > 0 {
			acc, start = vs[0], 1
		}
		for i := start; i < len(vs); i++ {
			r, err := e.hofCall(fn, []any{acc, vs[i]}, i, whole)
			if err != nil {
				return nil, err
			}
			acc = r
		}
		return acc, nil
	})
}

func defineMiscFuncs() {
	def("boolean", "<x-:b>", 1, func(e *evaluator, a []any, _ any) (any, error) {
		v := arg(a, 0)
		if isUndef(v) {
			return undefined, nil
		}
		return truthy(v), nil
	})
	def("not", "<x-:b>", 1, func(e *evaluator, a []any, _ any) (any, error) {
		v := arg(a, 0)
		if isUndef(v) {
			return undefined, nil
		}
		return !truthy(v), nil
	})
	def("exists", "<x:b>", 1, func(e *evaluator, a []any, _ any) (any, error) {
		return !isUndef(arg(a, 0)), nil
	})
	def("error", "<s?:x>", 1, func(e *evaluator, a []any, _ any) (any, error) {
		msg, ok := str(a, 0)
		if !ok {
			msg = "$error() function evaluated"
		}
		return nil, &Error{Code: "D3137", Position: -1, Token: "error", message: msg}
	})
	def("assert", "<bs?:x>", 2, func(e *evaluator, a []any, _ any) (any, error) {
		if b, _ := arg(a, 0).(bool); b {
			return undefined, nil
		}
		msg, ok := str(a, 1)
		if !ok {
			msg = "$assert() statement failed"
		}
		return nil, &Error{Code: "D3141", Position: -1, Token: "assert", message: msg}
	})
	def("eval", "<sx?:x>", 2, fnEval)
	def("now", "<s?s?:s>", 2, func(e *evaluator, a []any, _ any) (any, error) {
		ms := e.clock().UnixMilli()
		pic, _ := str(a, 0)
		tz, _ := str(a, 1)
		return formatDateTime(ms, pic, tz)
	})
	def("millis", "<:n>", 0, func(e *evaluator, a []any, _ any) (any, error) {
		return float64(e.clock().UnixMilli()), nil
	})
	def("fromMillis", "<n-s?s?:s>", 3, func(e *evaluator, a []any, _ any) (any, error) {
		ms, ok := num(a, 0)
		if !ok {
			return undefined, nil
		}
		pic, _ := str(a, 1)
		tz, _ := str(a, 2)
		return formatDateTime(int64(math.Floor(ms)), pic, tz)
	})
	def("toMillis", "<s-s?:n>", 2, fnToMillis)
}

func fnEval(e *evaluator, a []any, input any) (any, error) {
	src, ok := str(a, 0)
	if !ok {
		return undefined, nil
	}
	x, err := Compile(src)
	if err != nil {
		return nil, &Error{Code: "D3120", Position: -1, Token: "eval", value: src, message: "Syntax error in expression passed to function eval: " + err.Error()}
	}
	ctx := input
	if len(a) > 1 && !isUndef(a[1]) {
		ctx = a[1]
	}
	if arr, ok := ctx.([]any); ok {
		ctx = &seq{v: []any{arr}, outer: true}
	}
	scope := e.callFrame
	if scope == nil {
		scope = e.root
	}
	scope.capture() // what the text evaluates may keep it
	v, err := e.eval(x.root, ctx, scope)
	if err != nil {
		if _, ok := err.(*Error); ok {
			return nil, &Error{Code: "D3121", Position: -1, Token: "eval", message: "Dynamic error evaluating the expression passed to function eval: " + err.Error()}
		}
		return nil, err
	}
	return v, nil
}
