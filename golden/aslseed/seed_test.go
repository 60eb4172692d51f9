package aslseed

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrun "github.com/flowc-dev/flowc/flowrun"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

func run(t *testing.T, input map[string]any) any {
	t.Helper()
	cfg, err := flowcrun.ParseMockConfig([]byte(`{
		"StateMachines": {"seed": {"TestCases": {"default": {"AnalyzeCode": "Analysis", "ValidateTask": "Valid"}}}},
		"MockedResponses": {
			"Analysis": {"0": {"Return": {"issues": 0}}},
			"Valid": {"0": {"Return": {"task": "checked", "globalConfig": {"x": 1}}}}
		}
	}`))
	require.NoError(t, err)
	m, err := cfg.Case("seed", "default")
	require.NoError(t, err)
	out, err := NewSeedMock(m, flowcrt.WithClock(flowcrt.NewFakeClock(time.Unix(0, 0)))).Run(context.Background(), input)
	require.NoError(t, err)
	return out
}

// A high-value purchase maps over the tasks. The validator's result
// replaces each item's input (the example has no ResultPath), and the
// unmocked executor returns its effective input.
func TestSeedHighValuePurchase(t *testing.T) {
	out := run(t, map[string]any{
		"sourceCode": "<?php", "intent": "purchase", "amount": 5000, "score": 10,
		"tasks": []any{"a", "b"}, "config": map[string]any{"x": 1},
	}).(map[string]any)
	assert.Equal(t, map[string]any{"issues": 0.0}, out["analysis"])
	assert.Equal(t, []any{
		map[string]any{"task": "checked", "config": map[string]any{"x": 1.0}},
		map[string]any{"task": "checked", "config": map[string]any{"x": 1.0}},
	}, out["processedTasks"])
	meta := out["metadata"].(map[string]any)
	assert.Len(t, meta["requestId"], 36, "States.UUID")
	assert.Equal(t, map[string]any{"maxRetries": 3.0, "timeout": 60.0}, meta["config"])
}

func TestSeedReviewInParallel(t *testing.T) {
	out := run(t, map[string]any{"sourceCode": "x", "intent": "purchase", "amount": 1}).(map[string]any)
	assert.Len(t, out["reviews"], 3)
}
