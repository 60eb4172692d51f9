package jsonmode

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/flowc-dev/flowc/runtime/impl"
)

func TestParseStructured(t *testing.T) {
	for _, c := range []struct {
		text string
		want any
	}{
		{`{"a": 1}`, map[string]any{"a": json.Number("1")}},
		{`{'a': 'x', "b": [1, 2.5, -3], 'c': (True, False, None)}`, map[string]any{"a": "x", "b": []any{json.Number("1"), json.Number("2.5"), json.Number("-3")}, "c": []any{true, false, nil}}},
		{`['it\'s', "q\"uote", '\u00e9']`, []any{"it's", `q"uote`, "é"}},
		{`{1: 'one'}`, map[string]any{"1": "one"}},
		{`[.5, 1_000]`, []any{json.Number("0.5"), json.Number("1000")}},
		{"Sure:\n```json\n{\"k\": \"v\"}\n```\nDone.", map[string]any{"k": "v"}},
		{"~~~json\n{'k': 'v'}\n~~~", map[string]any{"k": "v"}},
		{"```json\nnot json\n```\n~~~json\n[1]\n~~~", []any{json.Number("1")}},
		// The last fallback, the first {...} in prose (utils.py, extract_json_content).
		{"The verdict is {\"ok\": true} as asked.", map[string]any{"ok": true}},
		{"```\n{'a': 1}\n```", map[string]any{"a": json.Number("1")}},
	} {
		got, ok := parseStructured(c.text)
		assert.True(t, ok, c.text)
		assert.Equal(t, c.want, got, c.text)
	}
	// Nesting deeper than encoding/json allows is text, not a crash.
	_, ok := parseStructured(strings.Repeat("[", 200000))
	assert.False(t, ok)
	// Text that none of the forms parse stays text.
	for _, text := range []string{"plain words", "True story", "1 apple", `{'a': }`, "{unquoted: 1}", `see {"a": {"b": 1}} here`} {
		_, ok := parseStructured(text)
		assert.False(t, ok, text)
	}
}

func TestStoreFlags(t *testing.T) {
	out := func(text string) JSONOutput { return parseOutput(text) }
	s := JSONState{Context: map[string]any{"old": 1, "temp": 2}}
	s.store(&JSONNext{ResetKeys: []string{"temp", "absent"}}, out(`[{"a": 1}, "x", {"a": 2, "b": 3}]`))
	assert.Equal(t, map[string]any{"old": 1, "a": json.Number("2"), "b": json.Number("3")}, s.Context)

	// output_key keeps the text (base_node.py, _add_output_key);
	// store_in_context: false skips reset keys and keep_current
	// (base_node.py, _prepare_resolved_context_store).
	s.store(&JSONNext{NoStore: true, OutputKey: "raw", ResetKeys: []string{"old"}, ClearStore: ClearKeepCurrent}, out(`["x", "y"]`))
	assert.Equal(t, `["x", "y"]`, s.Context["raw"])
	assert.NotContains(t, s.Context, "x")
	assert.Contains(t, s.Context, "old")
	delete(s.Context, "raw")

	s.store(&JSONNext{Append: true}, out(`{"a": 9}`))
	assert.Equal(t, []any{json.Number("2"), json.Number("9")}, s.Context["a"])

	s.store(&JSONNext{ClearStore: ClearKeepCurrent}, out(`{"new": true}`))
	assert.Equal(t, map[string]any{"new": true}, s.Context)

	s.store(&JSONNext{ClearStore: ClearAll, OutputKey: "k"}, out(`{"more": 1}`))
	assert.Empty(t, s.Context)

	s.store(&JSONNext{OverrideTask: true}, out("plain"))
	assert.Equal(t, "plain", s.Input)
}

func TestTemplatePaths(t *testing.T) {
	s := JSONState{Context: map[string]any{
		"user":  map[string]any{"profile": map[string]any{"name": "Ada"}},
		"files": []any{map[string]any{"name": "a.txt"}},
		"base":  "hello", "middle": "{{base}} world", "final": "{{middle}}!",
	}, Input: "item"}
	render := func(text string) string { return s.render(parseTemplate(text)) }
	assert.Equal(t, "Ada a.txt item", render("{{user.profile.name}} {{ files[0].name }} {{task}}"))
	assert.Equal(t, "{{user.missing}} {{files[3].name}} {{x | upper}}", render("{{user.missing}} {{files[3].name}} {{x | upper}}"))
	assert.Equal(t, "{{middle}}!", render("{{final}}"))
}

// A task or system prompt renders only with resolve_dynamic_values_in_prompt,
// as Jinja2 over the context store, whose own templates resolve first
// (agent_node.py get_task, dynamic_value_utils.py process_string); in an
// iteration chain references render either way, {{task}} the item.
func TestRenderPrompt(t *testing.T) {
	s := JSONState{Context: map[string]any{
		"base": "hello", "middle": "{{base}} world", "final": "{{middle}}!", "n": json.Number("2"), "flag": true,
	}, Input: "item"}
	prompt := func(text string, resolve bool) string { return s.renderPrompt(parseTemplate(text), resolve) }
	assert.Equal(t, "{{final}} {{task}}", prompt("{{final}} {{task}}", false))
	assert.Equal(t, "hello world! 2 True ", prompt("{{final}} {{n}} {{flag}} {{task}}", true))
	assert.Equal(t, "yes", prompt("{% if n > 1 %}yes{% endif %}", true))
	s.iterating = true
	assert.Equal(t, "{{middle}}! item", prompt("{{final}} {{task}}", false))
	assert.Equal(t, "hello world! item", prompt("{{final}} {{task}}", true))
}

func TestOutputSchemaCheck(t *testing.T) {
	var schema map[string]any
	assert.NoError(t, json.Unmarshal([]byte(`{"type": "object", "required": ["name"], "properties": {
		"name": {"type": "string", "minLength": 1}, "age": {"type": "integer", "minimum": 0},
		"tags": {"type": "array", "items": {"enum": ["a", "b"]}}}, "additionalProperties": false}`), &schema))
	sc := &JSONSchema{Schema: schema}
	ok, _ := parseStructured(`{"name": "Ada", "age": 3, "tags": ["a"]}`)
	assert.NoError(t, sc.Check(ok))
	for text, why := range map[string]string{
		`{"age": 3}`:                   `lacks the required key "name"`,
		`{"name": ""}`:                 "/name has 0 characters, fewer than 1",
		`{"name": "x", "age": -1}`:     "/age must be >= 0",
		`{"name": "x", "age": 1.5}`:    "/age is a number, not integer",
		`{"name": "x", "tags": ["c"]}`: `/tags/0 must be one of "a", "b"`,
		`{"name": "x", "extra": 1}`:    `has the key "extra"`,
		`"text"`:                       "the output is a string, not object",
	} {
		v, _ := parseStructured(text)
		if v == nil {
			v = text
		}
		err := sc.Check(v)
		assert.ErrorContains(t, err, why, text)
		assert.Equal(t, ErrOutputSchema, impl.ErrorName(err))
	}
	assert.NoError(t, (*JSONSchema)(nil).Check("anything"))
}

// include_in_iterator_context: items start with only the listed keys;
// a branch's removals and cleared history reach the join.
func TestIterationsAndJoin(t *testing.T) {
	s := JSONState{Context: map[string]any{"keep": 1, "big": 2, "gone": 3}, History: impl.Messages{{Role: "user", Content: "old"}}}
	items := s.Iterations([]any{"a", "b"}, "keep")
	assert.Equal(t, map[string]any{"keep": 1}, items[0].Context)
	assert.Equal(t, map[string]any{"keep": 1, "big": 2, "gone": 3}, s.Iterations([]any{"a"})[0].Context, "no keys given: all")
	assert.Empty(t, s.Iterations([]any{"a"}, []string{}...)[0].Context, "an empty list: none")

	branches := s.Branches(2)
	branches[0].store(&JSONNext{ResetKeys: []string{"gone"}}, parseOutput(`{"x": 1}`))
	branches[1].record(&JSONNext{ClearMessages: true}, false, false, "new")
	s.Join(branches)
	assert.Equal(t, map[string]any{"keep": 1, "big": 2, "x": json.Number("1")}, s.Context)
	assert.Equal(t, impl.Messages{{Role: "assistant", Content: "new"}}, s.History)
}

// parseTemplate splits text into literal pieces and references, as the
// compiler parses a template (compiler/flowyaml, template). What is
// between {{ and }} is a reference when it is a path, spaces around it
// allowed; anything else (a Jinja filter or expression) stays as written.
func parseTemplate(text string) []Piece {
	var out []Piece
	for {
		open := strings.Index(text, "{{")
		if open < 0 {
			break
		}
		for open+2 < len(text) && text[open+2] == '{' {
			open++
		}
		end := strings.Index(text[open+2:], "}}")
		if end < 0 {
			break
		}
		end += open + 2
		if open > 0 {
			out = append(out, Piece{Text: text[:open]})
		}
		ref := strings.TrimSpace(text[open+2 : end])
		if _, ok := splitPath(ref); !ok || strings.ContainsAny(ref, " \t|()'\"+") {
			ref = ""
		}
		out = append(out, Piece{Text: text[open : end+2], Ref: ref})
		text = text[end+2:]
	}
	if text != "" {
		out = append(out, Piece{Text: text})
	}
	return out
}
