package jinja

import (
	"reflect"
	"testing"
)

// jinja2Cases: templates and what jinja2's Template(t).render(vars) gives
// (jinja2 3.1, default Undefined) over the variables below: Python's
// printing of values, empty missing variables, tests, loops, filters,
// and the trailing newline jinja2 drops (keep_trailing_newline=False).
var jinja2Cases = []struct{ template, want string }{
	{"Hello {{name}} {{missing}}!", "Hello Bob !"},
	{"{{b}} {{n}} {{l}} {{m}} {{f}} {{i}}", `True None ['x', 1.0, 2, None] {'a': 1, 'q': "it's"} 2.0 3`},
	{"{% if n %}yes{% else %}no{% endif %}", "no"},
	{"{% for x in l %}[{{x}}]{% endfor %}", "[x][1.0][2][None]"},
	{"{{ name|upper }} {{ l|length }}", "BOB 4"},
	{"{{ m.a }} {{ l[0] }} {{ missing|default('d') }} {{ n|default('d') }}", "1 x d None"},
	{"{{ m.zz }}|{{ l[9] }}", "|"},
	{"{{ f + 1 }} {{ i * 2 }} {{ 1.5 }}", "3.0 6 1.5"},
	{"{{ l|join(', ') }}", "x, 1.0, 2, None"},
	{"{% if n is none %}N{% endif %}", "N"},
	{"{% for k, v in m.items() %}{{k}}={{v}};{% endfor %}", "a=1;q=it's;"},
	{"line\n", "line"},
}

var jinja2Vars = map[string]any{
	"name": "Bob", "b": true, "n": nil, "l": []any{"x", 1.0, int64(2), nil},
	"m": map[string]any{"a": int64(1), "q": "it's"}, "f": 2.0, "i": int64(3),
}

func TestRenderAsJinja2(t *testing.T) {
	for _, c := range jinja2Cases {
		got, err := render(c.template, jinja2Vars)
		if err != nil || got != c.want {
			t.Errorf("%q = %q (%v), want %q", c.template, got, err, c.want)
		}
	}
}

// TestRenderErrors: what jinja2 raises on (an undefined variable's
// attribute: UndefinedError; a broken tag: TemplateSyntaxError; an include
// with no loader) is an error, and Resolve keeps such a template as written,
// as dynamic_value_utils.py _resolve_dynamic_values does.
func TestRenderErrors(t *testing.T) {
	store := Store{Keys: []string{"name"}, Values: map[string]any{"name": "Bob"}}
	for _, src := range []string{"{{ missing.x }}", "{% if x %}", "{% include '/etc/passwd' %}", "{{ name"} {
		if _, err := render(src, jinja2Vars); err == nil {
			t.Errorf("render(%q): no error", src)
		}
		if got := Resolve(src, store); got != src {
			t.Errorf("Resolve(%q) = %q, want it unchanged", src, got)
		}
	}
}

// TestResolveOrder: a value naming another is rendered after it, whatever
// the store's order (dynamic_value_utils.py, _topological_sort); values in
// a cycle are rendered in the store's order with what is resolved so far.
func TestResolveOrder(t *testing.T) {
	store := Store{Keys: []string{"greeting", "who", "name"}, Values: map[string]any{
		"greeting": "Hi {{who}}", "who": "{{name}}!", "name": "Ann"}}
	if got := Resolve("{{greeting}}", store); got != "Hi Ann!" {
		t.Errorf("got %q", got)
	}
	cycle := Store{Keys: []string{"a", "b"}, Values: map[string]any{"a": "<{{b}}>", "b": "[{{a}}]"}}
	if got := Resolve("{{a}}{{b}}", cycle); got != "<>[<>]" {
		t.Errorf("cycle: got %q", got)
	}
	if got := Resolve("x", Store{Keys: []string{"string_value"}, Values: map[string]any{"string_value": "y"}}); got != "y" {
		t.Errorf("string_value: got %q", got)
	}
}

// Tool arguments as dynamic_value_utils.py's process_values resolves
// them (_resolve_dynamic_values): an argument named like a store key takes
// the key's value; strings render; other values stay, unrendered; an
// empty store renders nothing.
func TestResolveValues(t *testing.T) {
	store := Store{Keys: []string{"id", "limit", "name"}, Values: map[string]any{"id": int64(7), "limit": nil, "name": "Ann"}}
	got := ResolveValues(map[string]any{
		"id": "{{name}}", "limit": "{{name}}", "q": "user {{name}} {{missing}}", "n": int64(3),
		"list": []any{"{{name}}"}, "bad": "{{ name", "empty": "",
	}, store)
	want := map[string]any{
		"id": int64(7), "limit": "Ann", "q": "user Ann ", "n": int64(3),
		"list": []any{"{{name}}"}, "bad": "{{ name", "empty": "",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ResolveValues = %#v, want %#v", got, want)
	}
	if got := ResolveValues(map[string]any{"q": "{{name}}"}, Store{}); got["q"] != "{{name}}" {
		t.Errorf("an empty store renders nothing, got %q", got["q"])
	}
}
