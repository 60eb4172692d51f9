package chainonfailure

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrun "github.com/flowc-dev/flowc/flowrun"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

const mocks = `{
  "StateMachines": {"onfailure": {"TestCases": {
    "ok": {"fetch": "Fetched", "parse": "Parsed"},
    "fetch_fails": {"fetch": "Unreachable", "parse": "Parsed"},
    "parse_fails": {"fetch": "Fetched", "parse": "Malformed"},
    "not_found": {"fetch": "NotFound"}
  }}},
  "MockedResponses": {
    "Fetched": {"0": {"Return": {"Output": "<title>flowc</title>", "Eval": "200"}}},
    "NotFound": {"0": {"Return": {"Output": "404 page not found", "Eval": "404"}}},
    "Unreachable": {"0": {"Throw": {"Error": "ConnectionRefused", "Cause": "dial tcp: refused"}}},
    "Parsed": {"0": {"Return": {"Output": {"title": "flowc"}}}},
    "Malformed": {"0": {"Throw": {"Error": "ParseError", "Cause": "unexpected EOF"}}}
  }
}`

const input = `{"url": "https://example.com"}`

func runMocked(t *testing.T, testCase string) (flowcrt.ChainState, error) {
	t.Helper()
	cfg, err := flowcrun.ParseMockConfig([]byte(mocks))
	require.NoError(t, err)
	m, err := cfg.Case("onfailure", testCase)
	require.NoError(t, err)
	// A chain's input keeps its numbers exact, as `flowc run` reads it.
	dec := json.NewDecoder(strings.NewReader(input))
	dec.UseNumber()
	var in any
	require.NoError(t, dec.Decode(&in))
	return NewOnfailureMock(m).Run(context.Background(), in)
}

func encoded(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

func TestOK(t *testing.T) {
	s, err := runMocked(t, "ok")
	require.NoError(t, err)
	assert.JSONEq(t, `{"output": {"title": "flowc"}, "vars": {"page": {"title": "flowc"}}}`, encoded(t, s))
}

// on_failure is taken before any branch, and its target gets the failed
// task's input: here the chain's input, which noop passes on.
func TestOnFailureGetsTheFailedInput(t *testing.T) {
	s, err := runMocked(t, "fetch_fails")
	require.NoError(t, err)
	assert.JSONEq(t, `{"output": `+input+`, "vars": {"failed_input": `+input+`}}`, encoded(t, s))
}

// Without on_failure the chain ends with the handler's error.
func TestErrorWithoutOnFailure(t *testing.T) {
	s, err := runMocked(t, "parse_fails")
	require.Error(t, err)
	assert.Equal(t, "ParseError", flowcrt.ErrorName(err))
	var se *flowcrt.StateError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, "parse", se.State)
	assert.Equal(t, "<title>flowc</title>", s.Output, "the state as the failing task began")
}

// raise_error ends the chain with its rendered prompt as the cause; no
// branch is evaluated.
func TestRaiseError(t *testing.T) {
	s, err := runMocked(t, "not_found")
	require.Error(t, err)
	assert.Equal(t, flowcrt.ErrRaised, flowcrt.ErrorName(err))
	assert.EqualError(t, err, `state "reject": RaiseError: fetch failed: 404 page not found`)
	assert.JSONEq(t, `{"status": "404 page not found"}`, encoded(t, s.Vars))
}
