package jsonswitch

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

// Each case mocks the state that reads the switch and says which target
// runs: the targets have no mock, so their answer is their rendered task.
// The first case that holds wins; a case whose evaluation fails counts as
// false; when none holds, `default` runs.
func TestSwitches(t *testing.T) {
	for _, tt := range []struct {
		machine string
		new     func(*flowcrun.Mocks) workflow
		cases   map[string]string
	}{
		{"basic", func(m *flowcrun.Mocks) workflow { return NewBasicMock(m) }, map[string]string{
			"success": "success-handler", "warning": "warning-handler", "error": "error-handler",
			"other": "unknown-handler", "missing": "unknown-handler",
		}},
		{"status", func(m *flowcrun.Mocks) workflow { return NewStatusMock(m) }, map[string]string{
			"completed": "success-state", "pending": "wait-state", "failed": "retry-state", "text": "error-state",
		}},
		{"score", func(m *flowcrun.Mocks) workflow { return NewScoreMock(m) }, map[string]string{
			"excellent": "excellent-handler", "boundary": "excellent-handler", "good": "good-handler",
			"average": "average-handler", "poor": "poor-handler", "not-a-number": "poor-handler",
		}},
		{"errors", func(m *flowcrun.Mocks) workflow { return NewErrorsMock(m) }, map[string]string{
			"success": "success-state", "partial": "partial-success-state", "failure": "failure-state",
			"unknown": "unknown-state",
		}},
		{"routing", func(m *flowcrun.Mocks) workflow { return NewRoutingMock(m) }, map[string]string{
			"email": "email-processor", "sms": "sms-processor", "push": "push-processor",
			"fax": "unsupported-type-handler", "number": "unsupported-type-handler",
		}},
		{"failing", func(m *flowcrun.Mocks) workflow { return NewFailingMock(m) }, map[string]string{
			"typed-priority": "bug-fix", "urgent": "urgent", "nothing": "backlog",
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
