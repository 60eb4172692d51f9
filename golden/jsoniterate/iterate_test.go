package jsoniterate

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/golden/jsontest"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// The mocks answer the k-th call of a state with its k-th response, and the
// generated mocks run the items one after another in list order, so the
// k-th response goes to the k-th item. Each recorded type below answers
// from the generated mock and records the calls of the iteration chain.

func newState(t *testing.T) flowcrt.JSONState {
	t.Helper()
	s, err := flowcrt.NewJSONState(nil)
	require.NoError(t, err)
	return s
}

func encoded(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

type listRecorded struct {
	ListMock
	calls *jsontest.Calls
}

func (h listRecorded) Processor(ctx context.Context, c flowcrt.JSONCall) (string, error) {
	h.calls.Add(c)
	return h.ListMock.Processor(ctx, c)
}

// Example 1: `iter_key: .` over a list output; each item is {{task}}.
func TestSimpleListIteration(t *testing.T) {
	calls, s := &jsontest.Calls{}, newState(t)
	h := listRecorded{NewListMockHandlers(jsontest.Mocks(t, "list", "files")), calls}
	require.NoError(t, NewList(h).RunState(context.Background(), &s))
	// The task ends with the item (agent_node.py, get_task: a map node's "Current task").
	assert.Equal(t, []string{"Process file file1.txt\nCurrent task: file1.txt", "Process file file2.txt\nCurrent task: file2.txt",
		"Process file file3.txt\nCurrent task: file3.txt"}, calls.Tasks("process-file"))
	for i, c := range calls.Of("process-file") {
		assert.Equal(t, []string{"file1.txt", "file2.txt", "file3.txt"}[i], c.Input)
	}
	// A list output adds no key; `processed` is the last item's.
	assert.Equal(t, map[string]any{"processed": "file3.txt"}, s.Context)
	assert.Equal(t, []string{
		// Outputs, and each item as repr() prints it (base_node.py,
		// _prepare_iter_task_messages); the unmocked summary answers its task.
		`["file1.txt","file2.txt","file3.txt"]`,
		"'file1.txt'", `{"processed":"file1.txt"}`,
		"'file2.txt'", `{"processed":"file2.txt"}`,
		"'file3.txt'", `{"processed":"file3.txt"}`,
		"Summarize the processed files; the last one was file3.txt",
	}, jsontest.Contents(s.History))
}

type dictRecorded struct {
	DictMock
	calls *jsontest.Calls
}

func (h dictRecorded) Fixer(ctx context.Context, c flowcrt.JSONCall) (string, error) {
	h.calls.Add(c)
	return h.DictMock.Fixer(ctx, c)
}

// Example 2: `iter_key: errors` takes result['errors']; the rest of the
// output is in the context store before the iteration starts.
func TestDictionaryWithList(t *testing.T) {
	calls, s := &jsontest.Calls{}, newState(t)
	h := dictRecorded{NewDictMockHandlers(jsontest.Mocks(t, "dict", "errors")), calls}
	require.NoError(t, NewDict(h).RunState(context.Background(), &s))
	assert.Equal(t, []string{"Fix error err1\nCurrent task: err1", "Fix error err2\nCurrent task: err2"}, calls.Tasks("fix-error"))
	for _, c := range calls.Of("fix-error") {
		assert.Equal(t, json.Number("3"), c.Context["count"])
	}
	assert.Equal(t, `{"count":3,"errors":["err1","err2"],"warnings":["warn1"]}`, encoded(t, s.Context))
	assert.Equal(t, "Verify the fixes of 3 issues", s.History[len(s.History)-1].Content)

	// An object without the key fails the state that opened the iteration.
	out, err := NewDictMock(jsontest.Mocks(t, "dict", "no-errors-key")).Run(context.Background(), nil)
	assert.Equal(t, `{"status":"FAILED","error":"TaskFailed","cause":"state \"analyze-code\": iter_key \"errors\": there is no value at /errors"}`,
		string(flowcrt.ResultLine(out, err)))
}

type pointerRecorded struct {
	PointerMock
	calls *jsontest.Calls
}

func (h pointerRecorded) APICall(ctx context.Context, c flowcrt.JSONCall) (string, error) {
	h.calls.Add(c)
	return h.PointerMock.APICall(ctx, c)
}

func (h pointerRecorded) UserProcessor(ctx context.Context, c flowcrt.JSONCall) (string, error) {
	h.calls.Add(c)
	return h.PointerMock.UserProcessor(ctx, c)
}

// Example 3: a tool with tool_args, and a JSON pointer to the users. Each
// user object is {{task}}, and its keys are context variables of its own
// iteration only.
func TestNestedStructureWithJSONPointer(t *testing.T) {
	calls, s := &jsontest.Calls{}, newState(t)
	h := pointerRecorded{NewPointerMockHandlers(jsontest.Mocks(t, "pointer", "users")), calls}
	require.NoError(t, NewPointer(h).RunState(context.Background(), &s))
	fetch := calls.Of("fetch-api-data")
	require.Len(t, fetch, 1)
	assert.Equal(t, map[string]string{"endpoint": "/api/users"}, fetch[0].ToolArgs)
	assert.Empty(t, fetch[0].Task)

	// The item prints as Python prints it (agent_node.py, get_task).
	assert.Equal(t, []string{"Process user data {\"id\":1,\"name\":\"Alice\"}\nCurrent task: {'id': 1, 'name': 'Alice'}",
		"Process user data {\"id\":2,\"name\":\"Bob\"}\nCurrent task: {'id': 2, 'name': 'Bob'}"}, calls.Tasks("process-user"))
	users := calls.Of("process-user")
	assert.Equal(t, "Alice", users[0].Context["name"])
	assert.Equal(t, json.Number("1"), users[0].Context["id"])
	assert.NotContains(t, users[0].Context, "greeting", "the other iteration's keys are not visible")
	assert.Equal(t, "Bob", users[1].Context["name"])
	assert.NotContains(t, users[1].Context, "greeting")
	assert.Equal(t, map[string]any{"id": json.Number("2"), "name": "Bob"}, users[1].Input)

	assert.Equal(t, `{"data":{"users":[{"id":1,"name":"Alice"},{"id":2,"name":"Bob"}]},"greeting":"Hi Bob","id":2,"name":"Bob","status":"success"}`,
		encoded(t, s.Context))

	out, err := NewPointerMock(jsontest.Mocks(t, "pointer", "no-users")).Run(context.Background(), nil)
	assert.Equal(t, `{"status":"FAILED","error":"TaskFailed","cause":"state \"fetch-api-data\": iter_key \"/data/users\": there is no value at /data/users"}`,
		string(flowcrt.ResultLine(out, err)))
}

type nestedRecorded struct {
	NestedMock
	calls *jsontest.Calls
}

func (h nestedRecorded) EnvProcessor(ctx context.Context, c flowcrt.JSONCall) (string, error) {
	h.calls.Add(c)
	return h.NestedMock.EnvProcessor(ctx, c)
}

// Example 4: each environment object is {{task}}, with env and tests as
// its context variables; after the merge env is the last one's.
func TestComplexNestedStructure(t *testing.T) {
	calls, s := &jsontest.Calls{}, newState(t)
	h := nestedRecorded{NewNestedMockHandlers(jsontest.Mocks(t, "nested", "results")), calls}
	require.NoError(t, NewNested(h).RunState(context.Background(), &s))
	assert.Equal(t, []string{
		"Process tests for environment {\"env\":\"dev\",\"tests\":[\"test1\",\"test2\"]}\nCurrent task: {'env': 'dev', 'tests': ['test1', 'test2']}",
		"Process tests for environment {\"env\":\"prod\",\"tests\":[\"test3\"]}\nCurrent task: {'env': 'prod', 'tests': ['test3']}",
	}, calls.Tasks("process-environment"))
	envs := calls.Of("process-environment")
	assert.Equal(t, "dev", envs[0].Context["env"])
	assert.Equal(t, []any{"test1", "test2"}, envs[0].Context["tests"])
	assert.Equal(t, "prod", envs[1].Context["env"])
	assert.Equal(t, "Aggregate the results; the last environment was prod", s.History[len(s.History)-1].Content)
	assert.Equal(t, json.Number("1"), s.Context["passed"])
}

// Example 5: an array of objects with `iter_key: .`; each object's keys
// fill the task template. execute-task has no mock, so it answers with
// its rendered task.
func TestArrayOfObjectsWithContextPopulation(t *testing.T) {
	s := newState(t)
	require.NoError(t, NewObjectsMock(jsontest.Mocks(t, "objects", "tasks")).RunState(context.Background(), &s))
	assert.Equal(t, []string{
		`[{"id":1,"title":"Task A","priority":"high"},{"id":2,"title":"Task B","priority":"low"}]`,
		// flowc's objects keep no key order: the item prints its keys sorted.
		"{'id': 1, 'priority': 'high', 'title': 'Task A'}",
		"Execute task ID 1: Task A\nPriority level: high\n\nPlease process this task according to its priority.\n\nCurrent task: {'id': 1, 'priority': 'high', 'title': 'Task A'}",
		"{'id': 2, 'priority': 'low', 'title': 'Task B'}",
		"Execute task ID 2: Task B\nPriority level: low\n\nPlease process this task according to its priority.\n\nCurrent task: {'id': 2, 'priority': 'low', 'title': 'Task B'}",
	}, jsontest.Contents(s.History), "each item, then the output, which is the unmocked state's task")
	assert.Equal(t, `{"id":2,"priority":"low","title":"Task B"}`, encoded(t, s.Context))
}

// The first example of 5.5 over the result formats of CodeMie's State
// Transitions documentation: a
// dictionary with a list, an array of objects (a list is used whole,
// whatever the key; {{task}} is the item even when it has a `task` key),
// a value that is neither (the only item), and an empty list (no
// iteration at all).
func TestIterKeyOverResultFormats(t *testing.T) {
	for testCase, want := range map[string][]string{
		"dictionary": {"Process file1.txt (2 files in all)\nCurrent task: file1.txt", "Process file2.txt (2 files in all)\nCurrent task: file2.txt"},
		"array-of-objects": {
			"Process {\"id\":1,\"task\":\"Process A\"} ({{count}} files in all)\nCurrent task: {'id': 1, 'task': 'Process A'}",
			"Process {\"id\":2,\"task\":\"Process B\"} ({{count}} files in all)\nCurrent task: {'id': 2, 'task': 'Process B'}",
		},
		"neither": {"Process just-one.txt ({{count}} files in all)\nCurrent task: just-one.txt"},
		"empty":   nil,
	} {
		t.Run(testCase, func(t *testing.T) {
			s := newState(t)
			require.NoError(t, NewItemsMock(jsontest.Mocks(t, "items", testCase)).RunState(context.Background(), &s))
			var got []string
			for i := 2; i < len(s.History); i += 2 { // after the first output, each item then its answer
				got = append(got, s.History[i].Content) // the answers of processing-state: its rendered tasks
			}
			assert.Equal(t, want, got)
		})
	}
}
