package chainstrategies

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrun "github.com/flowc-dev/flowc/flowrun"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// Every task runs once; its mock is its output.
const mocks = `{
  "StateMachines": {"strategies": {"TestCases": {"all": {
    "profile_a": "ProfileA", "profile_b": "ProfileB",
    "history_a": "HistoryA", "history_b": "HistoryB",
    "say_a": "SayA", "say_b": "SayB",
    "auto_a": "HistoryA", "auto_b": "HistoryB", "auto_c": "ProfileA", "auto_d": "ProfileB"
  }}}},
  "MockedResponses": {
    "ProfileA": {"0": {"Return": {"Output": {"name": "Ada", "lang": "en"}}}},
    "ProfileB": {"0": {"Return": {"Output": {"lang": "fr", "age": 36}}}},
    "HistoryA": {"0": {"Return": {"Output": [{"role": "user", "content": "hi"}]}}},
    "HistoryB": {"0": {"Return": {"Output": [{"role": "assistant", "content": "hello", "name": "bot"}]}}},
    "SayA": {"0": {"Return": {"Output": "first"}}},
    "SayB": {"0": {"Return": {"Output": {"n": 2}}}}
  }
}`

// recorder answers from the mocks and keeps the variables each task saw,
// which are the variables as the previous task's branch left them.
type recorder struct {
	StrategiesMock
	seen map[string]map[string]any
}

func (r recorder) Produce(ctx context.Context, call flowcrt.ChainCall) (flowcrt.ChainResult, error) {
	r.seen[call.Task] = call.Vars
	return r.StrategiesMock.Produce(ctx, call)
}

func encoded(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

func TestStrategies(t *testing.T) {
	cfg, err := flowcrun.ParseMockConfig([]byte(mocks))
	require.NoError(t, err)
	m, err := cfg.Case("strategies", "all")
	require.NoError(t, err)
	r := recorder{StrategiesMock: NewStrategiesMockHandlers(m), seen: map[string]map[string]any{}}
	s, err := NewStrategies(r).Run(context.Background(), nil)
	require.NoError(t, err)

	const history = `[
		{"role": "assistant", "content": "hello", "name": "bot"},
		{"role": "user", "content": "hi"}
	]`
	const profile = `{"name": "Ada", "lang": "fr", "age": 36}`
	assert.JSONEq(t, `{
		"profile": `+profile+`,
		"history": `+history+`,
		"transcript": [
			{"role": "assistant", "content": "first"},
			{"role": "assistant", "content": "{\"n\":2}"}
		],
		"auto": `+profile+`
	}`, encoded(t, s.Vars))
	assert.JSONEq(t, `{"lang": "fr", "age": 36}`, encoded(t, s.Output))

	// The automatic choice, step by step.
	assert.NotContains(t, r.seen["auto_a"], "auto")
	assert.JSONEq(t, `[{"role": "user", "content": "hi"}]`, encoded(t, r.seen["auto_b"]["auto"]), "missing: set")
	assert.JSONEq(t, history, encoded(t, r.seen["auto_c"]["auto"]), "two histories: merged")
	assert.JSONEq(t, `{"name": "Ada", "lang": "en"}`, encoded(t, r.seen["auto_d"]["auto"]), "history and object: replaced")
}
