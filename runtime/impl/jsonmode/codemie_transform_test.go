package jsonmode

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// transformCall is a call of a transform_node state over a store.
func transformCall(store map[string]any, config string) JSONCall {
	node := DecodeConfig[JSONCustomNode](`{"id": "t", "custom_node_id": "transform_node", "config": ` + config + `}`)
	return JSONCall{State: "t", Context: store, CustomNode: node}
}

func jsonOf(t *testing.T, text string) map[string]any {
	t.Helper()
	v, err := impl.DecodeValue([]byte(text))
	require.NoError(t, err)
	return v.(map[string]any)
}

// transform_node_utils.py, extract_from_context_store (with
// parse_array_index, handle_array_indexing, extract_with_array_indices
// and parse_value_to_dict): what input_key reads, and the name it gets.
func TestTransformInputKey(t *testing.T) {
	store := jsonOf(t, `{
		"crew": {"ship": {"name": "Nautilus", "decks": 3}, "sailors": [{"name": "Ned", "ports": ["Oslo", "Lima"]}, {"name": "Conseil"}]},
		"cargo": ["rope", "tea", "salt", "ink"],
		"captain": {"name": "Nemo"},
		"raw": "{\"depth\": 20000}",
		"count": 4
	}`)
	for key, want := range map[string]string{
		"":                          `{"crew": {"sailors": [{"name": "Ned", "ports": ["Oslo", "Lima"]}, {"name": "Conseil"}], "ship": {"decks": 3, "name": "Nautilus"}}, "cargo": ["rope", "tea", "salt", "ink"], "captain": {"name": "Nemo"}, "raw": "{\"depth\": 20000}", "count": 4}`,
		"captain":                   `{"name": "Nemo"}`,                           // a plain key's object is merged
		"crew.ship":                 `{"ship": {"name": "Nautilus", "decks": 3}}`, // a path's value is named after its last step
		"crew.ship.decks":           `{"decks": 3}`,
		"raw":                       `{"depth": 20000}`, // text is read as JSON first
		"crew.sailors[1]":           `{"sailors": {"name": "Conseil"}}`,
		"crew.sailors[-2].name":     `{"name": "Ned"}`,
		"crew.sailors[0].ports[-1]": `{"ports[-1]": "Lima"}`, // the engine strips only non-negative indices from the name
		"crew.sailors[0].ports[0]":  `{"ports": "Oslo"}`,
		"cargo[1:3]":                `{"cargo": ["tea", "salt"]}`,
		"cargo[3:0:-2]":             `{"cargo": ["ink", "tea"]}`,
		"cargo[-9:2]":               `{"cargo": ["rope", "tea"]}`,
		"cargo[7]":                  `{}`, // out of range: nothing
		"captain[0]":                `{}`, // no list: nothing
		"crew.sailors[1].ports[0]":  `{}`,
		"nowhere.to.go":             `{}`,
		"cargo[:2]":                 `{}`, // no start: not an index, so a key of that name
	} {
		got, err := fromContextStore(store, key)
		require.NoError(t, err, key)
		assert.Equal(t, jsonOf(t, want), got, key)
	}
	_, err := fromContextStore(store, "cargo[0:2:0]")
	assert.ErrorContains(t, err, "slice step cannot be zero")

	// A value that is no object, read from a plain key, is under "data"
	// (TransformNode._extract_source_data).
	src, err := transformSource(transformCall(store, `{"input_key": "cargo"}`), nil, map[string]any{"input_key": "cargo"})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"data": []any{"rope", "tea", "salt", "ink"}}, src)
}

// TransformNode._extract_source_data: the sources other than the store.
func TestTransformSources(t *testing.T) {
	store := map[string]any{"k": "v"}
	for _, tt := range []struct {
		source  string
		input   any
		history impl.Messages
		want    map[string]any
	}{
		{"user_input", `{"ticket": 7}`, nil, map[string]any{"ticket": json.Number("7")}},
		{"user_input", "not json", nil, map[string]any{}},
		{"user_input", map[string]any{"ticket": "given as an object"}, nil, map[string]any{"ticket": "given as an object"}},
		// The engine's first message is the user input; every later one a
		// state added holds text parts, which the node does not read.
		{"messages", `{"ticket": 7}`, impl.Messages{{Role: "user", Content: `{"ticket": 7}`}}, map[string]any{"ticket": json.Number("7")}},
		{"messages", `{"ticket": 7}`, impl.Messages{{Role: "user", Content: `{"ticket": 7}`}, {Role: "assistant", Content: `{"a": 1}`}}, map[string]any{}},
		{"state_schema", `{"ticket": 7}`, nil, map[string]any{"user_input": `{"ticket": 7}`}},
		{"combined", nil, nil, map[string]any{}},
		{"elsewhere", nil, nil, map[string]any{}},
	} {
		call := JSONCall{Context: store, History: tt.history}
		got, err := transformSource(call, tt.input, map[string]any{"input_source": tt.source})
		require.NoError(t, err)
		assert.Equal(t, tt.want, got, tt.source)
	}
}

// TransformNode._apply_mappings and _apply_mapping: every mapping type,
// each over the source data and the fields before it; the output's JSON
// keeps the mappings' order (post_process_output).
func TestTransformMappings(t *testing.T) {
	store := jsonOf(t, `{"order": {"id": 17, "lines": [{"sku": "a", "qty": 2}, {"sku": "b", "qty": 0}, {"qty": 5}], "note": null}, "vip": true}`)
	call := transformCall(store, `{"mappings": [
		{"output_field": "id", "source_path": "order.id"},
		{"output_field": "note", "type": "extract", "source_path": "order.note", "default": "none"},
		{"output_field": "skus", "type": "array_map", "source_path": "order.lines", "item_field": "sku"},
		{"output_field": "shipped", "type": "array_map", "source_path": "order.lines", "filter_condition": "item['qty'] > 0", "item_field": "qty"},
		{"output_field": "tier", "type": "condition", "condition": "vip and id > 10", "then_value": "gold", "else_value": "basic"},
		{"output_field": "broken", "type": "condition", "condition": "no_such_name > 1", "then_value": 1, "else_value": 0},
		{"output_field": "label", "type": "template", "template": "#{{ id }}: {{ skus | join(', ') }} ({{ tier }})"},
		{"output_field": "plain", "type": "template", "template": "no braces here"},
		{"output_field": "total", "type": "script", "script": "sum(shipped) * 2"},
		{"output_field": "pair", "type": "script", "script": "(id, 'x')"},
		{"output_field": "fixed", "type": "constant", "value": {"k": [1, 2]}},
		{"output_field": "not_a_list", "type": "array_map", "source_path": "vip"}
	]}`)
	text, err := transformNode(call, nil)
	require.NoError(t, err)
	assert.Equal(t, `{"id": 17, "note": "none", "skus": ["a", "b"], "shipped": [2, 5], "tier": "gold", "broken": 0, `+
		`"label": "#17: a, b (gold)", "plain": "no braces here", "total": 14, "pair": [17, "x"], "fixed": {"k": [1, 2]}, "not_a_list": []}`, text)
}

// TransformNode.execute: the on_error strategies.
func TestTransformOnError(t *testing.T) {
	bad := `{"output_field": "x", "type": "script", "script": "1 / 0"}`
	good := `{"output_field": "y", "type": "constant", "value": 1}`
	run := func(config string) (string, error) {
		return transformNode(transformCall(map[string]any{}, config), nil)
	}

	_, err := run(`{"mappings": [` + bad + `]}`)
	assert.Equal(t, errTransformation, impl.ErrorName(err), "fail, the default")
	assert.ErrorContains(t, err, "Transformation failed: Script execution failed")

	out, err := run(`{"on_error": "skip", "mappings": [` + good + `, ` + bad + `]}`)
	require.NoError(t, err)
	assert.Equal(t, "{}", out)

	out, err = run(`{"on_error": "default", "default_output": {"status": "unknown"}, "mappings": [` + bad + `]}`)
	require.NoError(t, err)
	assert.Equal(t, `{"status": "unknown"}`, out)

	out, err = run(`{"on_error": "partial", "mappings": [` + bad + `, ` + good + `, {"type": "constant"}]}`)
	require.NoError(t, err)
	assert.Equal(t, `{"y": 1}`, out, "a failing mapping, and one without output_field, are left out")

	// partial covers mappings only: a failed validation is an unknown strategy.
	_, err = run(`{"on_error": "partial", "mappings": [` + good + `], "output_schema": {"required": ["z"]}}`)
	assert.ErrorContains(t, err, "Unknown error strategy: partial")

	_, err = run(`{"on_error": "shrug", "mappings": [{"output_field": "x", "type": "magic"}]}`)
	assert.ErrorContains(t, err, "Unknown error strategy: shrug")
	out, err = run(`{"on_error": "skip", "mappings": [{"output_field": "x", "type": "magic"}]}`)
	require.NoError(t, err)
	assert.Equal(t, "{}", out, "an unknown mapping type fails the mapping")
}

// TransformNode._validate_output and _coerce_field_type: Python's str,
// int, bool and float of a field not of its schema type.
func TestTransformOutputSchema(t *testing.T) {
	config := `{"mappings": [
		{"output_field": "s", "type": "constant", "value": true},
		{"output_field": "i", "type": "constant", "value": " 1_024 "},
		{"output_field": "f", "type": "constant", "value": 3.9},
		{"output_field": "b", "type": "constant", "value": "false"},
		{"output_field": "n", "type": "constant", "value": "2.50"},
		{"output_field": "kept", "type": "constant", "value": false},
		{"output_field": "other", "type": "constant", "value": [1]}
	], "output_schema": {"required": ["s"], "properties": {
		"s": {"type": "string"}, "i": {"type": "integer"}, "f": {"type": "integer"}, "b": {"type": "boolean"},
		"n": {"type": "number"}, "kept": {"type": "integer"}, "other": {"type": "array"}}}}`
	out, err := transformNode(transformCall(map[string]any{}, config), nil)
	require.NoError(t, err)
	assert.Equal(t, `{"s": "True", "i": 1024, "f": 3, "b": true, "n": 2.5, "kept": false, "other": [1]}`, out)

	_, err = transformNode(transformCall(map[string]any{}, `{"mappings": [{"output_field": "i", "type": "constant", "value": "12a"}],
		"output_schema": {"properties": {"i": {"type": "integer"}}}}`), nil)
	assert.ErrorContains(t, err, "invalid literal for int() with base 10: '12a'")
	_, err = transformNode(transformCall(map[string]any{}, `{"output_schema": {"required": ["z"]}}`), nil)
	assert.ErrorContains(t, err, "Required field missing: z")
}

// A script whose value JSON cannot hold fails the state whatever on_error
// says: json.dumps fails in post_process_output, outside execute.
func TestTransformUnserializableScript(t *testing.T) {
	_, err := transformNode(transformCall(map[string]any{}, `{"on_error": "skip", "mappings": [{"output_field": "s", "type": "script", "script": "set([1, 2])"}, {"output_field": "r", "type": "script", "script": "reversed([1])"}]}`), nil)
	assert.Equal(t, "TypeError", impl.ErrorName(err))
}

// json.dumps(ensure_ascii=False): separators, escapes, text kept as it is.
func TestPyJSON(t *testing.T) {
	o := &ordered{}
	o.set("z", "line\nquote\" tab\t bell\a é")
	o.set("a", []any{nil, true, json.Number("1.5"), map[string]any{"y": json.Number("1"), "b": json.Number("2")}})
	text, err := pyJSON(o)
	require.NoError(t, err)
	assert.Equal(t, `{"z": "line\nquote\" tab\t bell\u0007 é", "a": [null, true, 1.5, {"b": 2, "y": 1}]}`, text)
}

// A transform_node state runs with no handler, and its output is stored
// as any output (base_node.py, finalize_and_update_state).
func TestTransformNodeStateHasNoHandler(t *testing.T) {
	s, err := NewJSONState(`{"ticket": {"id": 3, "tags": ["x", "y"]}}`)
	require.NoError(t, err)
	call := transformCall(nil, `{"input_key": "ticket", "mappings": [{"output_field": "first", "source_path": "tags"}, {"output_field": "n", "type": "script", "script": "len(tags)"}]}`)
	task := &JSONTask{Policy: impl.Policy{State: "t"}, CustomNode: call.CustomNode, Next: JSONNext{OutputKey: "shaped"}}
	out, err := s.Do(context.Background(), &impl.Config{}, task, nil)
	require.NoError(t, err)
	assert.Equal(t, `{"first": ["x", "y"], "n": 2}`, out.Text)
	assert.Equal(t, json.Number("2"), s.Context["n"])
	assert.Equal(t, out.Text, s.Context["shaped"])
	assert.Equal(t, impl.Messages{{Role: "user", Content: `{"ticket": {"id": 3, "tags": ["x", "y"]}}`}, {Role: "assistant", Content: out.Text}}, s.History,
		"the history starts with the user input (workflow.py on_workflow_start)")

	// A custom node flowc does not run needs its handler.
	other := &JSONTask{Policy: impl.Policy{State: "o"}, CustomNode: &JSONCustomNode{ID: "o", CustomNodeID: "generate_documents_tree"}}
	_, err = s.Do(context.Background(), &impl.Config{}, other, nil)
	assert.ErrorContains(t, err, `state "o" has no handler`)
}
