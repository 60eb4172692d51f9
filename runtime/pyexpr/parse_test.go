package pyexpr

import (
	"errors"
	"strings"
	"testing"
)

// TestSyntax: what CPython 3.11's ast.parse(mode="eval") accepts and
// rejects, which is all the engine checks of a condition when it loads a
// workflow (workflow_models.py, _validate_python_expression_syntax).
func TestSyntax(t *testing.T) {
	accepted := []string{"a\n", "\na", "a #c", "(a\n)", "x.__class__", `'abc' "d"`, `f"{x!r:>5}"`, "(yield)", "await x",
		"a, b", "a[1:2, 3]", "lambda: 1", "f(x := 1)", "1 < 2 < 3", "not not a", "a if b else c if d else e", "-2 ** 2",
		"{**d}", "{1, *x}", "[*a]", "a.b.c()", "...", "1.e5", ".5", "00", "1_0", "0x_1", "1e5j",
		"[x for x in items]", "{k: v for k, v in d.items()}", "sum(x for x in items)", "(n := 10)"}
	for _, src := range accepted {
		if _, err := Parse(src); err != nil {
			t.Errorf("Parse(%q): %v", src, err)
		}
	}
	rejected := map[string]int{" a": 0, "": 0, "   ": 0, "\ta": 0, "a\nb": 1, "a if b": 6, "*a": 0, "x := 1": 2,
		"f(**d, *a)": 7, "f(a=1, b)": 7, "012": 0, "1__0": 0, "0b12": 0, "0xg": 0, "===": 0, "a +": 3, "'abc": 0}
	for src, offset := range rejected {
		_, err := Parse(src)
		var perr *Error
		if !errors.As(err, &perr) {
			t.Errorf("Parse(%q) = %v, want a syntax error", src, err)
			continue
		}
		if perr.Offset != offset {
			t.Errorf("Parse(%q): error at %d (%v), want %d", src, perr.Offset, err, offset)
		}
	}
}

// TestYAMLBooleans: the engine rewrites the names true and false of a
// condition to True and False when it loads it (workflow_models.py,
// _YamlBoolFixer).
func TestYAMLBooleans(t *testing.T) {
	e, err := ParseCondition("done == true and not false")
	if err != nil {
		t.Fatal(err)
	}
	v, err := e.Eval(map[string]any{"done": true})
	if err != nil || v != true {
		t.Fatalf("= %v, %v; want True", v, err)
	}
}

// Nesting is bounded, as CPython's parser bounds it, so that no
// expression exhausts the stack.
func TestNestingBounded(t *testing.T) {
	for _, src := range []string{strings.Repeat("(", 100000) + "1", strings.Repeat("-", 100000) + "1", strings.Repeat("not ", 100000) + "x"} {
		if _, err := Parse(src); err == nil {
			t.Errorf("Parse(%.10q...) = nil error", src)
		}
	}
	if _, err := Parse(strings.Repeat("(", 190) + "1" + strings.Repeat(")", 190)); err != nil {
		t.Error(err)
	}
}
