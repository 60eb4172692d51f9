package codemiecontext

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/golden/jsontest"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// recorded answers from the generated mock and records every call.
type recorded struct {
	ContextMock
	calls *jsontest.Calls
}

func (h recorded) Fetcher(ctx context.Context, c flowcrt.JSONCall) (string, error) {
	h.calls.Add(c)
	return h.ContextMock.Fetcher(ctx, c)
}

func (h recorded) Lister(ctx context.Context, c flowcrt.JSONCall) (string, error) {
	h.calls.Add(c)
	return h.ContextMock.Lister(ctx, c)
}

func input() map[string]any {
	return map[string]any{"user": map[string]any{"profile": map[string]any{"name": "Ada"}, "ids": []any{7, 8}}, "temp": "x", "ext": "md"}
}

func run(t *testing.T, testCase string) (*jsontest.Calls, flowcrt.JSONState, error) {
	t.Helper()
	calls := &jsontest.Calls{}
	s, err := flowcrt.NewJSONState(input())
	require.NoError(t, err)
	h := recorded{NewContextMockHandlers(jsontest.Mocks(t, "context", testCase)), calls}
	return calls, s, NewContext(h).RunState(context.Background(), &s)
}

// The task is a Jinja2 template, and an undefined variable's attribute
// (missing.key) fails it, so CodeMie sends it as written
// (dynamic_value_utils.py, _resolve_dynamic_values). The assistant's
// configuration reaches the handler, its system prompt rendered since the
// state resolves dynamic values.
func TestTemplatesAndConfiguration(t *testing.T) {
	calls, _, err := run(t, "phases")
	require.NoError(t, err)
	fetch := calls.Of("fetch")[0]
	assert.Equal(t, "Fetch {{user.profile.name}} ({{user.ids[1]}}) {{missing.key}}", fetch.Task)
	assert.Equal(t, "Fetch data for Ada", fetch.SystemPrompt)
	require.NotNil(t, fetch.Assistant)
	assert.Equal(t, "gpt-4.1-mini", fetch.Assistant.Model)
	assert.Equal(t, 0.2, *fetch.Assistant.Temperature)
	assert.Equal(t, []string{"user-db"}, fetch.Assistant.DatasourceIDs)

	// The state's arguments, in place of the tool's, structured.
	list := calls.Of("list")[0]
	assert.Equal(t, map[string]any{"root": "/data", "recursive": true, "pattern": "*.md"}, list.Args)
	assert.Equal(t, "list_files", list.Tool.Tool)
}

// A Python list of dicts merges into the store, after which the reset key
// is gone; the tool's output is cut to its pointer and kept, as text, only
// under output_key (base_node.py, _add_output_key); a fenced JSON block
// parses.
func TestContextFlags(t *testing.T) {
	calls, _, err := run(t, "phases")
	require.NoError(t, err)
	list := calls.Of("list")[0]
	assert.JSONEq(t, `{"user": {"profile": {"name": "Ada"}, "ids": [7, 8]}, "ext": "md", "name": "Ada", "role": "admin", "count": 2}`, jsonText(t, list.Context))

	note := calls.Of("note")[0]
	assert.Equal(t, `Note ["a.md","b.md"]`, note.Task)
	assert.Equal(t, `["a.md","b.md"]`, note.Context["files"])
	// include_in_llm_history: false kept the tool's messages out; the
	// history holds the user input (workflow.py on_workflow_start), then
	// outputs, not tasks (base_node.py, _prepare_message_history_update).
	assert.Equal(t, []string{`{"ext":"md","temp":"x","user":{"ids":[7,8],"profile":{"name":"Ada"}}}`,
		"[{'name': 'Ada', 'temp': 1}, {'role': 'admin', 'count': 2}]"}, jsontest.Contents(note.History))

	// keep_current left the note's own keys; clear_prior_messages left its
	// own message, the output as a human message.
	two := calls.Of("phase-two")[0]
	assert.Equal(t, map[string]any{"summary": "two files"}, two.Context)
	assert.Equal(t, "Summary two files for ", two.Task, "an undefined variable renders empty in Jinja2")
	require.Len(t, two.History, 1)
	assert.Equal(t, "user", two.History[0].Role)
}

// clear_context_store: true empties the store, the last output included.
func TestClearAll(t *testing.T) {
	_, s, err := run(t, "phases")
	require.NoError(t, err)
	assert.Empty(t, s.Context)
}

// An output that does not match output_schema fails the state with a
// named error.
func TestOutputSchema(t *testing.T) {
	_, _, err := run(t, "schema-mismatch")
	require.Error(t, err)
	assert.Equal(t, flowcrt.ErrOutputSchema, flowcrt.ErrorName(err))
	assert.Contains(t, err.Error(), "/done is a string, not boolean")
}

func jsonText(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// The JSON Schema of phase-two's output_schema has a Go type.
func TestOutputType(t *testing.T) {
	assert.Equal(t, `{"done":true}`, jsonText(t, ContextPhaseTwoOutput{Done: true}))
	assert.Equal(t, `{"done":false}`, jsonText(t, ContextPhaseTwoOutput{}), "done is required by the schema")
}

// The assistant names a datasource, so the handlers search it; the mock
// answers from "datasource:<id>", and finds nothing without one.
func TestDatasourceSearch(t *testing.T) {
	h := NewContextMockHandlers(jsontest.Mocks(t, "context", "phases"))
	found, err := h.SearchDatasource(context.Background(), "user-db", "who is Ada?")
	require.NoError(t, err)
	assert.Equal(t, "Ada is an admin.", found)
	found, err = h.SearchDatasource(context.Background(), "other", "anything")
	require.NoError(t, err)
	assert.Empty(t, found)
}
