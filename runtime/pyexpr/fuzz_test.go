package pyexpr

import "testing"

// FuzzParseEval: no expression, however malformed, makes the parser or
// the evaluator panic; a condition's failure is an error, never a crash.
func FuzzParseEval(f *testing.F) {
	for _, c := range pythonCases {
		f.Add(c.expr)
	}
	for _, s := range []string{"f'{x:{y}}'", "a[::-1]", "'%s' % x", "{**d}", "x.get('a', [])[0]", "sorted(d, key=len)"} {
		f.Add(s)
	}
	vars := map[string]any{"x": "a", "y": ">3", "d": map[string]any{"a": []any{1.5, nil}}, "n": int64(-3)}
	f.Fuzz(func(t *testing.T, src string) {
		e, err := ParseCondition(src)
		if err != nil {
			return
		}
		v, err := e.Eval(vars)
		if err == nil {
			_ = Repr(v)
		}
		_ = Condition(e, vars)
		_, _ = literalEval(src)
	})
}
