package jsonpolicy

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/golden/jsontest"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

type recorded struct {
	PagesMock
	calls *jsontest.Calls
}

func (h recorded) HTTPGet(ctx context.Context, c flowcrt.JSONCall) (string, error) {
	h.calls.Add(c)
	return h.PagesMock.HTTPGet(ctx, c)
}

func (h recorded) Writer(ctx context.Context, c flowcrt.JSONCall) (string, error) {
	h.calls.Add(c)
	return h.PagesMock.Writer(ctx, c)
}

func (h recorded) Reporter(ctx context.Context, c flowcrt.JSONCall) (string, error) {
	h.calls.Add(c)
	return h.PagesMock.Reporter(ctx, c)
}

func run(t *testing.T, testCase string) (*jsontest.Calls, *flowcrt.FakeClock, error) {
	t.Helper()
	calls, clock := &jsontest.Calls{}, flowcrt.NewFakeClock(time.Unix(0, 0))
	s, err := flowcrt.NewJSONState(map[string]any{"page": "go"})
	require.NoError(t, err)
	h := recorded{NewPagesMockHandlers(jsontest.Mocks(t, "Pages", testCase)), calls}
	return calls, clock, NewPages(h, flowcrt.WithClock(clock)).RunState(context.Background(), &s)
}

// Two Unavailable errors are retried, 1s then 2s apart; the action is the
// router's output text; a branch that matches "retry" runs the state again.
func TestRetryActionAndBranches(t *testing.T) {
	calls, clock, err := run(t, "summary")
	require.NoError(t, err)
	assert.Equal(t, []time.Duration{time.Second, 2 * time.Second}, clock.Sleeps())
	fetch := calls.Of("fetch")
	require.Len(t, fetch, 3)
	assert.Equal(t, map[string]string{"url": "https://example.com/go", "accept": "application/json"}, fetch[2].ToolArgs)
	assert.Equal(t, []string{"fetch", "fetch", "fetch", "summarize", "summarize"}, calls.States())
}

func TestRoutes(t *testing.T) {
	for testCase, want := range map[string][]string{
		"translation":    {"fetch", "translate"},
		"not-found":      {"fetch", "missing"},
		"broken-fetch":   {"fetch", "broken"},
		"unknown-action": {"fetch", "broken"},
		"failed-summary": {"fetch", "summarize", "broken"},
	} {
		t.Run(testCase, func(t *testing.T) {
			calls, _, err := run(t, testCase)
			require.NoError(t, err)
			assert.Equal(t, want, calls.States())
		})
	}
	calls, _, err := run(t, "not-found")
	require.NoError(t, err)
	assert.Equal(t, []string{"Page go does not exist"}, calls.Tasks("missing"))
}
