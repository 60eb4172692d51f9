package aslorder

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrun "github.com/flowc-dev/flowc/flowrun"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

const mocks = `{
  "StateMachines": {"order": {"TestCases": {
    "large": {"Enrich": "Large"},
    "small": {"Enrich": "Small"},
    "throttled": {"Enrich": "ThrottledTwice"},
    "broken": {"Enrich": "Broken"}
  }}},
  "MockedResponses": {
    "Large": {"0": {"Return": {"total": 250, "ignored": true}}},
    "Small": {"0": {"Return": {"total": 20}}},
    "ThrottledTwice": {
      "0-1": {"Throw": {"Error": "Throttled", "Cause": "slow down"}},
      "2": {"Return": {"total": 5}}
    },
    "Broken": {"0": {"Throw": {"Error": "Boom", "Cause": "it broke"}}}
  }
}`

func run(t *testing.T, testCase string, clock flowcrt.Clock) (any, error) {
	t.Helper()
	cfg, err := flowcrun.ParseMockConfig([]byte(mocks))
	require.NoError(t, err)
	m, err := cfg.Case("order", testCase)
	require.NoError(t, err)
	input := map[string]any{"order": map[string]any{"id": "A1", "lines": []any{1, 2}}, "customer": "ann"}
	return NewOrderMock(m, flowcrt.WithClock(clock)).Run(context.Background(), input)
}

func encoded(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// InputPath, Parameters, the task, ResultSelector, ResultPath and
// OutputPath apply in that order; the first matching choice rule wins.
func TestProcessingOrder(t *testing.T) {
	out, err := run(t, "large", flowcrt.NewFakeClock(time.Unix(0, 0)))
	require.NoError(t, err)
	assert.JSONEq(t, `{"total": 250, "summary": "order costs 250", "class": {"size": "large"}}`, encoded(t, out))

	out, err = run(t, "small", flowcrt.NewFakeClock(time.Unix(0, 0)))
	require.NoError(t, err)
	assert.JSONEq(t, `{"total": 20, "summary": "order costs 20", "class": {"size": "small"}}`, encoded(t, out))
}

// MaxAttempts counts retries: two retries after the first failure, waiting
// IntervalSeconds, then IntervalSeconds × BackoffRate, on the given clock.
func TestRetryBackoff(t *testing.T) {
	clock := flowcrt.NewFakeClock(time.Unix(0, 0))
	out, err := run(t, "throttled", clock)
	require.NoError(t, err)
	assert.Equal(t, []time.Duration{2 * time.Second, 6 * time.Second}, clock.Sleeps())
	assert.JSONEq(t, `{"total": 5, "summary": "order costs 5", "class": {"size": "small"}}`, encoded(t, out))
}

// The catcher places {Error, Cause} into the raw input by its ResultPath;
// the Fail state reads them back through ErrorPath and CausePath.
func TestCatchThenFail(t *testing.T) {
	_, err := run(t, "broken", flowcrt.NewFakeClock(time.Unix(0, 0)))
	var named *flowcrt.Error
	require.True(t, errors.As(err, &named), "err = %v", err)
	assert.Equal(t, "Boom", named.Name)
	assert.Equal(t, "it broke", named.Cause)
}

// handlers is a hand-written implementation: it sees plain maps.
type handlers struct{}

func (handlers) Enrich(_ context.Context, in any) (any, error) {
	m := in.(map[string]any)
	return map[string]any{"total": float64(len(m["lines"].([]any))) * 100}, nil
}

func TestHandwrittenHandlers(t *testing.T) {
	out, err := NewOrder(handlers{}).Run(context.Background(), map[string]any{"order": map[string]any{"id": 7, "lines": []any{"a", "b"}}})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"total": 200.0, "summary": "order costs 200", "class": map[string]any{"size": "large"}}, out)
}
