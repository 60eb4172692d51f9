package jsoncondition

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrun "github.com/flowc-dev/flowc/flowrun"
	"github.com/flowc-dev/flowc/golden/jsontest"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

type workflow interface {
	RunState(ctx context.Context, s *flowcrt.JSONState) error
}

// Each case mocks the state that reads the condition and says which target
// runs: the targets have no mock, so their answer is their rendered task.
// A condition whose evaluation fails (a missing variable, a type error, an
// output that is not an object, a value that is not a boolean) takes
// `otherwise`.
func TestConditions(t *testing.T) {
	for _, tt := range []struct {
		machine string
		new     func(*flowcrun.Mocks) workflow
		cases   map[string]string
	}{
		{"basic", func(m *flowcrun.Mocks) workflow { return NewBasicMock(m) }, map[string]string{
			"large": "state-if-true", "equal": "state-if-false", "not-an-object": "state-if-false",
			// CodeMie reads "150" as 150 (utils.py, convert_value).
			"string": "state-if-true", "missing": "state-if-false",
		}},
		{"count", func(m *flowcrun.Mocks) workflow { return NewCountMock(m) }, map[string]string{
			"large": "process-large-batch", "small": "process-small-batch", "float": "process-large-batch",
		}},
		{"status", func(m *flowcrun.Mocks) workflow { return NewStatusMock(m) }, map[string]string{
			"success": "next-step", "failure": "error-handler", "text": "error-handler",
		}},
		{"complex", func(m *flowcrun.Mocks) workflow { return NewComplexMock(m) }, map[string]string{
			"active": "process-state", "idle": "skip-state", "no-count": "skip-state",
		}},
		{"haskey", func(m *flowcrun.Mocks) workflow { return NewHaskeyMock(m) }, map[string]string{
			"null-result": "has-result", "other": "no-result", "list": "no-result",
		}},
		{"message", func(m *flowcrun.Mocks) workflow { return NewMessageMock(m) }, map[string]string{
			"error": "error-handler", "fine": "success-state", "number": "success-state",
		}},
		{"truthy", func(m *flowcrun.Mocks) workflow { return NewTruthyMock(m) }, map[string]string{
			"strings": "merge", "blocked": "hold", "not-boolean": "hold", "yes-and-false": "merge",
		}},
	} {
		for testCase, want := range tt.cases {
			t.Run(tt.machine+"/"+testCase, func(t *testing.T) {
				s, err := flowcrt.NewJSONState(nil)
				require.NoError(t, err)
				require.NoError(t, tt.new(jsontest.Mocks(t, tt.machine, testCase)).RunState(context.Background(), &s))
				require.Len(t, s.History, 2)
				assert.Equal(t, "Went to "+want, s.History[1].Content)
			})
		}
	}
}

// The condition reads the output of the state that just ran, not the
// context store: a key the input put in the store is no variable.
func TestConditionsReadTheOutputNotTheStore(t *testing.T) {
	s, err := flowcrt.NewJSONState(map[string]any{"variable": 1000})
	require.NoError(t, err)
	require.NoError(t, NewBasicMock(jsontest.Mocks(t, "basic", "missing")).RunState(context.Background(), &s))
	assert.Equal(t, "Went to state-if-false", s.History[len(s.History)-1].Content)
}
