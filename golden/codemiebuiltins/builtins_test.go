package codemiebuiltins

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/golden/jsontest"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// recorded answers from the generated mock and records every call.
type recorded struct {
	BuiltinsMock
	calls *jsontest.Calls
}

func (h recorded) Reviewer(ctx context.Context, c flowcrt.JSONCall) (string, error) {
	h.calls.Add(c)
	return h.BuiltinsMock.Reviewer(ctx, c)
}

func (h recorded) Digest(ctx context.Context, c flowcrt.JSONCall) (string, error) {
	h.calls.Add(c)
	return h.BuiltinsMock.Digest(ctx, c)
}

func pullRequest() map[string]any {
	return map[string]any{"pull_request": map[string]any{
		"title":  "fix login",
		"number": "42",
		"labels": []any{"hotfix"},
		"changes": []any{
			map[string]any{"path": "auth/login.go", "lines": 12},
			map[string]any{"path": "README.md", "lines": 0},
			map[string]any{"path": "auth/retry.go", "lines": 3},
		},
	}}
}

func run(t *testing.T) (*jsontest.Calls, flowcrt.JSONState) {
	t.Helper()
	calls := &jsontest.Calls{}
	s, err := flowcrt.NewJSONState(pullRequest())
	require.NoError(t, err)
	h := recorded{NewBuiltinsMockHandlers(jsontest.Mocks(t, "builtins", "review")), calls}
	require.NoError(t, NewBuiltins(h).RunState(context.Background(), &s))
	return calls, s
}

// The handlers interface has no method for transform_node, which the
// runtime runs; the state processor's handler is its model, and
// Summarize is the summarizer every workflow with an assistant has
// (agent_node.py, before_execution).
func TestNoHandlerForTransformNode(t *testing.T) {
	typ := reflect.TypeFor[BuiltinsHandlers]()
	var methods []string
	for i := range typ.NumMethod() {
		methods = append(methods, typ.Method(i).Name)
	}
	assert.Equal(t, []string{"Digest", "Reviewer", "Summarize"}, methods)
}

// transform_node (transform_node.py, TransformNode.execute) shapes the
// pull request: input_key merges its keys, array_map keeps the changed
// files, later mappings read earlier ones, and output_schema coerces
// number to an integer and size to a string. Its output starts the
// iteration over files.
func TestTransformNodeShapesTheInput(t *testing.T) {
	calls, s := run(t)
	assert.Equal(t, []string{"review", "review", "digest", "digest"}, calls.States())
	for k, want := range map[string]any{
		"title": "fix login", "files": []any{"auth/login.go", "auth/retry.go"}, "size": "2", "urgent": true,
		"headline": "FIX LOGIN (2 files)", "number": json.Number("42"),
	} {
		assert.Equal(t, want, s.Context[k], k)
	}
	assert.Equal(t, []string{"Review the file\nCurrent task: auth/login.go", "Review the file\nCurrent task: auth/retry.go"}, calls.Tasks("review"))
	// Its message is its output as json.dumps writes it, keys in mapping order.
	assert.Equal(t, `{"title": "fix login", "files": ["auth/login.go", "auth/retry.go"], "size": "2", "urgent": true, `+
		`"headline": "FIX LOGIN (2 files)", "number": 42}`, s.History[1].Content, "after the user input (workflow.py on_workflow_start)")
	assert.Equal(t, "user", s.History[0].Role)
}

// state_processor_node (state_processor_node.py, StateProcessorNode.execute)
// reads the states whose id starts with "review", in the order they ran,
// asks its model about each, and renders its template over the answers'
// JSON, which output_key keeps.
func TestStateProcessorDigestsTheReviews(t *testing.T) {
	calls, s := run(t)
	digest := calls.Of("digest")
	require.Len(t, digest, 2)
	assert.Equal(t, []string{"TASK: Review the file\nCurrent task: auth/login.go. OUTPUT: Looks fine."}, jsontest.Contents(digest[0].History))
	assert.Equal(t, []string{`TASK: Review the file` + "\n" + `Current task: auth/retry.go. OUTPUT: {"comment":"Add a test for the retry."}`}, jsontest.Contents(digest[1].History))
	assert.Equal(t, "Answer with the file's path and a verdict, as JSON", digest[1].Task)
	assert.Equal(t, "gpt-4.1-mini", digest[1].CustomNode.Model)

	assert.Equal(t, "- auth/login.go: ok\n- auth/retry.go: needs a test\n", s.Context["report"])
	assert.Equal(t, s.Context["report"], s.History[len(s.History)-1].Content)
}
