package chainbuiltins

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrun "github.com/flowc-dev/flowc/flowrun"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// run uses a mock config that mocks every task: built-ins still run for
// real, since they are never mocked.
func run(t *testing.T, input any) (flowcrt.ChainState, error) {
	t.Helper()
	cfg, err := flowcrun.ParseMockConfig([]byte(`{
	  "StateMachines": {"builtins": {"TestCases": {"t": {"echo": "Nope", "greet": "Nope", "measure": "Nope", "refuse": "Nope"}}}},
	  "MockedResponses": {"Nope": {"0": {"Throw": {"Error": "Mocked"}}}}
	}`))
	require.NoError(t, err)
	m, err := cfg.Case("builtins", "t")
	require.NoError(t, err)
	return NewBuiltinsMock(m).Run(context.Background(), input)
}

func encoded(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

func TestShortGreeting(t *testing.T) {
	s, err := run(t, "Ada")
	require.NoError(t, err)
	// prompt_to_int's output is a JSON number.
	assert.Equal(t, `{"output":9,"vars":{"greeting":"Hello Ada","name":"Ada","short":9}}`, encoded(t, s))
}

func TestLongGreeting(t *testing.T) {
	s, err := run(t, "Ada Lovelace")
	require.NoError(t, err)
	assert.Equal(t, `{"output":18,"vars":{"greeting":"Hello Ada Lovelace","long":18,"name":"Ada Lovelace"}}`, encoded(t, s))
}

// A non-string input mirrors to its JSON, not an empty eval, and renders
// into the template as Go prints the value.
func TestNoopMirrorsJSON(t *testing.T) {
	s, err := run(t, map[string]any{"first": "Ada"})
	require.NoError(t, err)
	assert.Equal(t, "Hello map[first:Ada]", s.Vars["greeting"])
}

// An empty string mirrors to an empty eval: raise_error fails the chain,
// with its rendered template as the cause.
func TestRaiseError(t *testing.T) {
	s, err := run(t, "")
	require.Error(t, err)
	assert.Equal(t, flowcrt.ErrRaised, flowcrt.ErrorName(err))
	assert.Equal(t, `{"status":"FAILED","error":"RaiseError","cause":"nobody to greet"}`, string(flowcrt.ResultLine(s, err)))
}
