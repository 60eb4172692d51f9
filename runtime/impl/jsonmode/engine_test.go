package jsonmode

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Tool arguments as CodeMie's tool node renders them (tool_node.py,
// _get_tool_args, through dynamic_value_utils.py, process_values): Jinja2
// over the store, an argument named like a store key taking its value,
// structured values unrendered, None arguments dropped (_execute_tool_with_args).
func TestToolArgsAsTheToolNode(t *testing.T) {
	s := JSONState{Context: map[string]any{"name": "ann", "limit": json.Number("5"), "gone": nil}}
	text, values := s.renderArgs([]JSONArg{
		{Name: "query", Value: []Piece{{Text: "user {{ name | upper }}"}}},
		{Name: "limit", Value: []Piece{{Text: "20"}}},
		{Name: "gone", JSON: nil, Value: []Piece{{Text: "{{ nothing }}"}}},
		{Name: "filters", JSON: []any{"{{name}}"}},
	}, nil)
	assert.Equal(t, map[string]any{"query": "user ANN", "limit": json.Number("5"), "gone": "", "filters": []any{"{{name}}"}}, values)
	assert.Equal(t, map[string]string{"query": "user ANN", "limit": "5", "gone": "", "filters": `["{{name}}"]`}, text)

	s.Context["q"] = nil // a None value of the argument's name does not win
	_, values = s.renderArgs([]JSONArg{{Name: "q", JSON: map[string]any{}}}, nil)
	assert.Equal(t, map[string]any{"q": map[string]any{}}, values)

	// input_key: the arguments render from that object of the store.
	s.Context["req"] = map[string]any{"name": "bob"}
	_, values = s.renderArgs([]JSONArg{{Name: "who", Value: []Piece{{Text: "{{name}}"}}}}, &JSONTool{InputKey: "req"})
	assert.Equal(t, map[string]any{"who": "bob"}, values)

	// An empty store renders nothing (process_values copies the arguments).
	_, values = (&JSONState{}).renderArgs([]JSONArg{{Name: "who", Value: []Piece{{Text: "{{name}}"}}}}, nil)
	assert.Equal(t, map[string]any{"who": "{{name}}"}, values)
}

// tool_node.py, post_process_output: the pointer keeps its part of the
// response first, then resolve_dynamic_values_in_response renders it.
func TestToolResponsePointerThenRender(t *testing.T) {
	s := JSONState{Context: map[string]any{"who": "ann"}}
	task := &JSONTask{Tool: &JSONTool{ResultPointer: "/data/msg", ResolveResponse: true}}
	out, err := s.output(task, `{"data": {"msg": "{\"greeting\": \"hi {{who}}\"}"}}`)
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"greeting": "hi ann"}, out.Value)
}

// agent_node.py, get_task: a map node's task ends with "Current task: "
// and the item as Python's str() prints it, before rendering; "-" stands
// for an empty task; outside an iteration the item is missing.
func TestCurrentTask(t *testing.T) {
	item := map[string]any{"file": "a.go", "ok": true}
	s := JSONState{Context: map[string]any{"repo": "flowc"}, Input: item, iterating: true}
	task := &JSONTask{Task: []Piece{{Text: "Review {{file}} of {{repo}}"}}, CurrentTask: true}
	assert.Equal(t, "Review {{file}} of {{repo}}\nCurrent task: {'file': 'a.go', 'ok': True}", s.taskText(task))
	task.Resolve = true
	assert.Equal(t, "Review a.go of flowc\nCurrent task: {'file': 'a.go', 'ok': True}", s.taskText(task))
	assert.Equal(t, "-\nCurrent task: {'file': 'a.go', 'ok': True}", s.taskText(&JSONTask{CurrentTask: true}))
	s.iterating = false
	assert.Equal(t, "-\nCurrent task: ", s.taskText(&JSONTask{CurrentTask: true}))
}
