package aslfanout

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrun "github.com/flowc-dev/flowc/flowrun"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// squarer answers Compute, counting how many run at once.
type squarer struct {
	mu         sync.Mutex
	running    int
	maxRunning int
}

func (s *squarer) Invoke(_ context.Context, in any) (any, error) {
	s.mu.Lock()
	s.running++
	s.maxRunning = max(s.maxRunning, s.running)
	s.mu.Unlock()
	time.Sleep(5 * time.Millisecond)
	s.mu.Lock()
	s.running--
	s.mu.Unlock()
	m := in.(map[string]any)
	v := m["value"].(float64)
	return map[string]any{"square": v * v, "index": m["index"]}, nil
}

// The Parallel result lists the branches in order, each Map result its
// items in order, however the items finish; MaxConcurrency bounds the Map.
func TestRegions(t *testing.T) {
	h := &squarer{}
	clock := flowcrt.NewFakeClock(time.Unix(0, 0))
	out, err := NewFanout(h, flowcrt.WithClock(clock)).Run(context.Background(), map[string]any{"names": []any{"ann", "bob"}})
	require.NoError(t, err)
	b, err := json.Marshal(out)
	require.NoError(t, err)
	assert.JSONEq(t, `{
		"items": [1, 2, 3, 4],
		"label": "batch of 2",
		"names": ["ann", "bob"],
		"results": {
			"squares": [{"square": 1, "index": 0}, {"square": 4, "index": 1}, {"square": 9, "index": 2}, {"square": 16, "index": 3}],
			"greetings": ["hello ann", "hello bob"]
		}
	}`, string(b))
	assert.Equal(t, 2, h.maxRunning, "MaxConcurrency is 2")
	assert.Equal(t, []time.Duration{5 * time.Second}, clock.Sleeps(), "the Wait sleeps on the injected clock")
}

// A failing item fails the Map, and so the branch and the Parallel state.
func TestItemFailureFailsTheState(t *testing.T) {
	cfg, err := flowcrun.ParseMockConfig([]byte(`{
		"StateMachines": {"fanout": {"TestCases": {"fail": {"Compute": "Fail"}}}},
		"MockedResponses": {"Fail": {"0": {"Return": {"ok": true}}, "1": {"Throw": {"Error": "Bad", "Cause": "item failed"}}}}
	}`))
	require.NoError(t, err)
	m, err := cfg.Case("fanout", "fail")
	require.NoError(t, err)
	_, err = NewFanoutMock(m, flowcrt.WithClock(flowcrt.NewFakeClock(time.Unix(0, 0)))).Run(context.Background(), map[string]any{"names": []any{}})
	assert.Equal(t, "Bad", flowcrt.ErrorName(err))
}
