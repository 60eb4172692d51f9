package jsonsimple

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/golden/jsontest"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// recorded answers from the generated mock and records every call.
type recorded struct {
	SimpleMock
	calls *jsontest.Calls
}

func (h recorded) Writer(ctx context.Context, c flowcrt.JSONCall) (string, error) {
	h.calls.Add(c)
	return h.SimpleMock.Writer(ctx, c)
}

func (h recorded) Reviewer(ctx context.Context, c flowcrt.JSONCall) (string, error) {
	h.calls.Add(c)
	return h.SimpleMock.Reviewer(ctx, c)
}

func run(t *testing.T, testCase string) (*jsontest.Calls, flowcrt.JSONState) {
	t.Helper()
	calls := &jsontest.Calls{}
	s, err := flowcrt.NewJSONState(map[string]any{"name": "Ada"})
	require.NoError(t, err)
	h := recorded{NewSimpleMockHandlers(jsontest.Mocks(t, "simple", testCase)), calls}
	require.NoError(t, NewSimple(h).RunState(context.Background(), &s))
	return calls, s
}

// The first state's output object reaches the context store, which the
// next state's task reads; a text output changes no key.
func TestDirectTransition(t *testing.T) {
	calls, s := run(t, "greet")
	assert.Equal(t, []string{"first-state", "next-state-id"}, calls.States())
	assert.Equal(t, []string{"Write a greeting for Ada"}, calls.Tasks("first-state"))
	assert.Equal(t, []string{`Review the greeting "Hello Ada" for Ada`}, calls.Tasks("next-state-id"))
	assert.Equal(t, map[string]any{"name": "Ada", "greeting": "Hello Ada"}, s.Context)
	// The history holds the outputs, not the tasks (base_node.py,
	// _prepare_message_history_update).
	assert.Equal(t, []string{`{"greeting":"Hello Ada"}`, "Looks good."}, jsontest.Contents(s.History))
	assert.Equal(t, "assistant", s.History[0].Role)
}

// A state without a mock answers with its rendered task.
func TestUnmockedStateAnswersItsTask(t *testing.T) {
	_, s := run(t, "unmocked-review")
	assert.Equal(t, `Review the greeting "Hello Ada" for Ada`, s.History[1].Content)
}

// Run takes any JSON value and returns the final context store.
func TestRun(t *testing.T) {
	out, err := NewSimpleMock(jsontest.Mocks(t, "simple", "greet")).Run(context.Background(), map[string]any{"name": "Ada"})
	require.NoError(t, err)
	assert.Equal(t, `{"status":"SUCCEEDED","output":{"greeting":"Hello Ada","name":"Ada"}}`, string(flowcrt.ResultLine(out, nil)))
}
