package pyexpr

import "testing"

// pythonCases: expressions and the repr of their values as CPython 3.11
// evaluates them (or "error"), for what safe_eval passes through to Python
// itself: arithmetic, comparisons, built-ins, methods, f-strings, repr
// (safe_eval.py, _BIN_OPS, _COMPARE_OPS, ALLOWED_FUNCTIONS, _handle_call).
var pythonCases = []struct{ expr, repr string }{
	{`7 // -2`, `-4`},
	{`-7 % 3`, `2`},
	{`7.5 % -2`, `-0.5`},
	{`2 ** 10`, `1024`},
	{`2 ** -1`, `0.5`},
	{`10 / 4`, `2.5`},
	{`1e16`, `1e+16`},
	{`1e15`, `1000000000000000.0`},
	{`0.0001`, `0.0001`},
	{`0.00001`, `1e-05`},
	{`1/3`, `0.3333333333333333`},
	{`'a' * 3`, `'aaa'`},
	{`[1] * 2 + [3]`, `[1, 1, 3]`},
	{`(1,)`, `(1,)`},
	{`()`, `()`},
	{`{'a': [1, (2, 3)], 'b': None}`, `{'a': [1, (2, 3)], 'b': None}`},
	{`"it's"`, `"it's"`},
	{`'a\nb\x00'`, `'a\nb\x00'`},
	{`'é\u200b'`, `'é\u200b'`},
	{`sorted([3, 1, 2], reverse=True)`, `[3, 2, 1]`},
	{`list(reversed('abc'))`, `['c', 'b', 'a']`},
	{`list(enumerate(['a', 'b'], 1))`, `[(1, 'a'), (2, 'b')]`},
	{`list(zip([1, 2], 'ab'))`, `[(1, 'a'), (2, 'b')]`},
	{`list(map(str, [1, 2]))`, `['1', '2']`},
	{`list(filter(None, [0, 1, '', 'x']))`, `[1, 'x']`},
	{`round(2.5)`, `2`},
	{`round(3.5)`, `4`},
	{`round(2.675, 2)`, `2.67`},
	{`round(1234, -2)`, `1200`},
	{`int(' 42 ')`, `42`},
	{`int('1_000')`, `1000`},
	{`float('1e3')`, `1000.0`},
	{`str(1.0)`, `'1.0'`},
	{`str([1, 'a'])`, `"[1, 'a']"`},
	{`'a,b,,c'.split(',')`, `['a', 'b', '', 'c']`},
	{`' a  b '.split()`, `['a', 'b']`},
	{`'Hello'.lower().startswith('he')`, `True`},
	{`'x' in 'xyz'`, `True`},
	{`1 == 1.0 == True`, `True`},
	{`[1, 2] < [1, 3]`, `True`},
	{`(1, 'a') < (1, 'b')`, `True`},
	{`{'a': 1}.get('b', 5)`, `5`},
	{`sum([1.5, 2])`, `3.5`},
	{`max([1, 5, 3])`, `5`},
	{`min('bca')`, `'a'`},
	{`abs(-2.5)`, `2.5`},
	{`any([0, '', None])`, `False`},
	{`all([])`, `True`},
	{`isinstance(True, int)`, `True`},
	{`isinstance(1.0, (int, float))`, `True`},
	{`len('héllo')`, `5`},
	{`'abc'[::-1]`, `'cba'`},
	{`[0, 1, 2, 3, 4][-2:]`, `[3, 4]`},
	{`'abcdef'[1:5:2]`, `'bd'`},
	{`f'{3.14159:.2f}|{42:>5}|{7:03d}|{1234567:,}'`, `'3.14|   42|007|1,234,567'`},
	{`True + True`, `2`},
	{`-True`, `-1`},
	{`not []`, `True`},
	{`1 if [] else 'e'`, `'e'`},
	{`None or 0 or 'x'`, `'x'`},
	{`1 and [] and 2`, `[]`},
	{`set([1, 2, 1])`, `{1, 2}`},
	{`set()`, `set()`},
	{`dict(a=1)`, `{'a': 1}`},
	{`{1: 'a', 1.0: 'b'}`, `{1: 'b'}`},
	{`'%.1f' if False else 'ok'`, `'ok'`},
	{`'a'.join(['x', 'y'])`, `'xay'`},
	{`'  x '.strip()`, `'x'`},
	{`'xxhixx'.strip('x')`, `'hi'`},
	{`'ab'.find('b')`, `1`},
	{`'Hello World'.title()`, `'Hello World'`},
	{`1 < 2 > 1.5`, `True`},
	{`None is None`, `True`},
	{`[] == []`, `True`},
	{`'1' == 1`, `False`},
	// The engine ignores an f-string's conversion (!r): str() of the value
	// (safe_eval.py, _handle_formatted_value).
	{`f'{1 + 1} and {"x"!r}'`, `'2 and x'`},
}

func TestPythonSemantics(t *testing.T) {
	for _, c := range pythonCases {
		e, err := Parse(c.expr)
		if err != nil {
			t.Errorf("%s: %v", c.expr, err)
			continue
		}
		v, err := e.Eval(nil)
		got := Repr(v)
		if err != nil {
			got = "error"
		}
		if got != c.repr {
			t.Errorf("%s = %s (%v), want %s", c.expr, got, err, c.repr)
		}
	}
}

// literalCases: ast.literal_eval as CPython 3.11 reads them, which the
// engine's convert_value applies to string variables (utils.py).
var literalCases = []struct{ text, repr string }{
	{`12`, `12`},
	{` 12`, `12`},
	{`'abc'`, `'abc'`},
	{`[1, 'a']`, `[1, 'a']`},
	{`None`, `None`},
	{`True`, `True`},
	{`1e3`, `1000.0`},
	{`-5`, `-5`},
	{`--5`, `error`},
	{`x`, `error`},
	{`1 + 2`, `error`},
	{`{'a': (1, 2)}`, `{'a': (1, 2)}`},
	{`{1, 2}`, `{1, 2}`},
	{`set()`, `set()`},
	{`0x1F`, `31`},
	{"12\n", `12`},
	{`12 # c`, `12`},
	{`f'x'`, `error`},
	{`1_000`, `1000`},
}

func TestLiteralEval(t *testing.T) {
	for _, c := range literalCases {
		v, ok := literalEval(c.text)
		got := Repr(v)
		if !ok {
			got = "error"
		}
		if got != c.repr {
			t.Errorf("literal_eval(%q) = %s, want %s", c.text, got, c.repr)
		}
	}
}

// TestConvertValue follows utils.py convert_value: "true"/"false" in any
// case are booleans, before literal_eval (which would reject "true").
func TestConvertValue(t *testing.T) {
	for in, want := range map[string]string{"TRUE": "True", "false": "False", "12": "12", "abc": "'abc'", "[1]": "[1]"} {
		if got := Repr(convertValue(in)); got != want {
			t.Errorf("convert_value(%q) = %s, want %s", in, got, want)
		}
	}
}
