package chainoperators

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrun "github.com/flowc-dev/flowc/flowrun"
)

// runEval runs the chain with classify mocked to return eval.
func runEval(t *testing.T, eval string) map[string]any {
	t.Helper()
	config := fmt.Sprintf(`{
	  "StateMachines": {"operators": {"TestCases": {"t": {"classify": "Classify"}}}},
	  "MockedResponses": {"Classify": {"0": {"Return": {"Output": "out", "Eval": %q}}}}
	}`, eval)
	cfg, err := flowcrun.ParseMockConfig([]byte(config))
	require.NoError(t, err)
	m, err := cfg.Case("operators", "t")
	require.NoError(t, err)
	s, err := NewOperatorsMock(m).Run(context.Background(), "in")
	require.NoError(t, err)
	assert.Equal(t, "out", s.Output)
	return s.Vars
}

func TestOperators(t *testing.T) {
	tests := []struct{ eval, branch string }{
		{"1001", "greater"},
		{"2e3", "greater"},
		{"1000", "default"}, // not greater than itself
		{"-6", "less"},
		{"-5", "default"},
		{"200", "in_range"}, // in_range is inclusive
		{"250.5", "in_range"},
		{"299", "in_range"},
		{"300", "default"},
		{"tool-call", "equals"},
		{"tool-calls", "default"}, // equals is exact
		{"api_failure", "contains"},
		{"error_timeout", "starts_with"},
		{"write_ok", "ends_with"},
		{"fail_ok", "contains"}, // the first match wins
		{"err_ok", "starts_with"},
		{"many", "default"}, // numeric operators on a non-number are false
		{"", "default"},
	}
	for _, tt := range tests {
		t.Run(tt.eval, func(t *testing.T) {
			assert.Equal(t, map[string]any{tt.branch: "out"}, runEval(t, tt.eval))
		})
	}
}

// A task with no mock returns its input, and its eval mirrors it.
func TestUnmocked(t *testing.T) {
	s, err := NewOperatorsMock(&flowcrun.Mocks{}).Run(context.Background(), map[string]any{"x": 1})
	require.NoError(t, err)
	b, err := json.Marshal(s)
	require.NoError(t, err)
	assert.JSONEq(t, `{"output": {"x": 1}, "vars": {"default": {"x": 1}}}`, string(b))
}
