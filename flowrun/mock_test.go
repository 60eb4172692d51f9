package flowrun_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/flowrun"
	"github.com/flowc-dev/flowc/runtime/impl"
	"github.com/flowc-dev/flowc/runtime/impl/chain"
	"github.com/flowc-dev/flowc/runtime/impl/jsonmode"
)

const awsExample = `{
  "StateMachines": {
    "LambdaSQSIntegration": {
      "TestCases": {
        "HappyPath": {"LambdaState": "MockedLambdaSuccess", "SQSState": "MockedSQSSuccess"},
        "RetryPath": {"LambdaState": "MockedLambdaRetry", "SQSState": "MockedSQSSuccess"}
      }
    }
  },
  "MockedResponses": {
    "MockedLambdaSuccess": {"0": {"Return": {"StatusCode": 200}}},
    "MockedSQSSuccess": {"0": {"Return": {"MessageId": "m1"}}},
    "MockedLambdaRetry": {
      "0": {"Throw": {"Error": "Lambda.ResourceNotReadyException", "Cause": "not ready"}},
      "1-2": {"Throw": {"Error": "Lambda.TimeoutException", "Cause": "timed out"}},
      "3": {"Return": {"StatusCode": 200}}
    }
  }
}`

func mustCase(t *testing.T, config, machine, testCase string) *flowrun.Mocks {
	t.Helper()
	c, err := flowrun.ParseMockConfig([]byte(config))
	require.NoError(t, err)
	m, err := c.Case(machine, testCase)
	require.NoError(t, err)
	return m
}

// describe renders an entry for comparison: its Return, or "throw NAME".
func describe(e flowrun.MockEntry) string {
	if err := e.Err(); err != nil {
		return "throw " + impl.ErrorName(err)
	}
	return string(e.Return)
}

func TestMocksNext(t *testing.T) {
	m := mustCase(t, awsExample, "LambdaSQSIntegration", "RetryPath")
	want := []string{
		"throw Lambda.ResourceNotReadyException",
		"throw Lambda.TimeoutException",
		"throw Lambda.TimeoutException",
		`{"StatusCode": 200}`,
		`{"StatusCode": 200}`, // past the last entry, the last one repeats
		`{"StatusCode": 200}`,
	}
	for k, w := range want {
		e, ok := m.Next("LambdaState")
		require.True(t, ok)
		assert.Equal(t, w, describe(e), "invocation %d", k)
	}

	e, ok := m.Next("SQSState")
	require.True(t, ok, "each state counts its own invocations")
	assert.Equal(t, `{"MessageId": "m1"}`, describe(e))

	_, ok = m.Next("Other")
	assert.False(t, ok)
}

func TestMocksNextCountsPerState(t *testing.T) {
	config := `{
	  "StateMachines": {"M": {"TestCases": {"T": {"a": "R", "b": "R"}}}},
	  "MockedResponses": {"R": {"0": {"Return": 0}, "1": {"Return": 1}}}
	}`
	m := mustCase(t, config, "M", "T")
	for _, state := range []string{"a", "a", "b"} {
		_, ok := m.Next(state)
		require.True(t, ok)
	}
	e, _ := m.Next("b")
	assert.Equal(t, "1", describe(e), "b's second invocation, whatever a did")
}

func TestMocksNextConcurrent(t *testing.T) {
	config := `{
	  "StateMachines": {"M": {"TestCases": {"T": {"s": "R"}}}},
	  "MockedResponses": {"R": {"0-49": {"Return": "first"}, "50": {"Return": "rest"}}}
	}`
	m := mustCase(t, config, "M", "T")
	var mu sync.Mutex
	counts := map[string]int{}
	var wg sync.WaitGroup
	for range 100 {
		wg.Go(func() {
			e, _ := m.Next("s")
			mu.Lock()
			defer mu.Unlock()
			counts[describe(e)]++
		})
	}
	wg.Wait()
	assert.Equal(t, map[string]int{`"first"`: 50, `"rest"`: 50}, counts)
}

func TestMockEntryErr(t *testing.T) {
	assert.NoError(t, flowrun.MockEntry{Return: []byte(`1`)}.Err())
	err := flowrun.MockEntry{Throw: &flowrun.MockThrow{Error: "E", Cause: "c"}}.Err()
	assert.Equal(t, &impl.Error{Name: "E", Cause: "c"}, err)
}

// withResponse returns a config whose only test case mocks state "s" with
// the given response entries.
func withResponse(entries string) string {
	return `{"StateMachines": {"M": {"TestCases": {"T": {"s": "R"}}}},
	  "MockedResponses": {"R": ` + entries + `}}`
}

func TestParseMockConfigErrors(t *testing.T) {
	tests := []struct {
		name, config, want string
	}{
		{"not JSON", `{`, "mock config: unexpected EOF"},
		{"trailing data", `{} {}`, "mock config: unexpected data after the top-level object"},
		{"unknown field", withResponse(`{"0": {"Retrun": 1}}`), `mock config: json: unknown field "Retrun"`},
		{"unknown response", `{"StateMachines": {"M": {"TestCases": {"T": {"s": "Nope"}}}}}`,
			`mock config: state machine "M", test case "T": state "s" uses unknown response "Nope"`},
		{"no entries", withResponse(`{}`), `mock config: response "R": has no entries`},
		{"bad key", withResponse(`{"first": {"Return": 1}}`),
			`mock config: response "R": key "first": want "k" or "a-b", with 0-based invocation numbers`},
		{"signed key", withResponse(`{"+0": {"Return": 1}}`), `key "+0": want "k" or "a-b"`},
		{"open range", withResponse(`{"0-": {"Return": 1}}`), `key "0-": want "k" or "a-b"`},
		{"negative key", withResponse(`{"-1": {"Return": 1}}`), `key "-1": want "k" or "a-b"`},
		{"reversed range", withResponse(`{"2-1": {"Return": 1}}`), `mock config: response "R": key "2-1": range starts after it ends`},
		{"overlap", withResponse(`{"0-2": {"Return": 1}, "2": {"Return": 2}}`), `mock config: response "R": keys "0-2" and "2" overlap`},
		{"gap", withResponse(`{"0": {"Return": 1}, "2-3": {"Return": 2}}`), `mock config: response "R": no entry covers invocation 1`},
		{"not from 0", withResponse(`{"1": {"Return": 1}}`), `no entry covers invocation 0`},
		{"both", withResponse(`{"0": {"Return": 1, "Throw": {"Error": "E"}}}`),
			`mock config: response "R": key "0": needs exactly one of "Return" and "Throw"`},
		{"neither", withResponse(`{"0": {}}`), `key "0": needs exactly one of "Return" and "Throw"`},
		{"throw without error", withResponse(`{"0": {"Throw": {"Cause": "c"}}}`), `key "0": "Throw" needs an "Error"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := flowrun.ParseMockConfig([]byte(tt.config))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func TestParseMockConfigReportsEveryProblem(t *testing.T) {
	config := `{
	  "StateMachines": {"M": {"TestCases": {"T": {"s": "Nope"}}}},
	  "MockedResponses": {"B": {"x": {"Return": 1}}, "A": {}}
	}`
	_, err := flowrun.ParseMockConfig([]byte(config))
	require.Error(t, err)
	assert.Equal(t, `mock config: response "A": has no entries
mock config: response "B": key "x": want "k" or "a-b", with 0-based invocation numbers
mock config: state machine "M", test case "T": state "s" uses unknown response "Nope"`, err.Error())
}

func TestMockConfigCase(t *testing.T) {
	two := `{
	  "StateMachines": {
	    "Triage": {"TestCases": {"happy": {}, "sad": {}}},
	    "Billing": {"TestCases": {}}
	  }
	}`
	tests := []struct {
		name, config, machine, testCase, wantErr string
	}{
		{"exact machine name", awsExample, "LambdaSQSIntegration", "HappyPath", ""},
		{"single machine, other name", awsExample, "lambda_sqs", "HappyPath", ""},
		{"one of several machines", two, "Triage", "happy", ""},
		{"unknown machine", two, "Other", "happy",
			`mock config: no state machine "Other" (state machines: "Billing", "Triage")`},
		{"no machines", `{}`, "Triage", "happy", `mock config: no state machine "Triage" (state machines: none)`},
		{"unknown test case", two, "Triage", "angry",
			`mock config: state machine "Triage" has no test case "angry" (test cases: "happy", "sad")`},
		{"unknown test case, single machine", awsExample, "x", "Nope",
			`mock config: state machine "LambdaSQSIntegration" has no test case "Nope" (test cases: "HappyPath", "RetryPath")`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := flowrun.ParseMockConfig([]byte(tt.config))
			require.NoError(t, err)
			m, err := c.Case(tt.machine, tt.testCase)
			if tt.wantErr != "" {
				assert.EqualError(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.NotNil(t, m)
		})
	}
}

// update stands for a generated update type: it records what it decodes.
type update struct {
	json  string
	calls int
	err   error
}

func (u *update) UnmarshalJSON(data []byte) error {
	u.json = string(data)
	u.calls++
	return u.err
}

func TestMocksRespond(t *testing.T) {
	const untouched = "untouched"
	tests := []struct {
		name      string
		entry     string // the entry of invocation 0 of state "s"
		withLabel bool
		wantJSON  string // what the update decoded; "" when not called
		wantLabel string
		wantErr   string
	}{
		{"object", `{"Return": {"status": "bug"}}`, false, `{"status": "bug"}`, untouched, ""},
		{"null", `{"Return": null}`, false, `{}`, untouched, ""},
		{"label taken out", `{"Return": {"Action": "search", "count": 2}}`, true, `{"count": 2}`, "search", ""},
		{"label only", `{"Return": {"Action": "search"}}`, true, `{}`, "search", ""},
		{"label absent", `{"Return": {"count": 2}}`, true, `{"count": 2}`, untouched, ""},
		{"label with null return", `{"Return": null}`, true, `{}`, untouched, ""},
		{"label not wanted", `{"Return": {"Action": "search"}}`, false, `{"Action": "search"}`, untouched, ""},
		{"label not a string", `{"Return": {"Action": 3}}`, true, "", untouched,
			`the mock for state "s" does not fit: must return "Action" as a JSON string, got 3`},
		{"label null", `{"Return": {"Action": null}}`, true, "", untouched,
			`the mock for state "s" does not fit: must return "Action" as a JSON string, got null`},
		{"not an object", `{"Return": [1]}`, false, "", untouched,
			`the mock for state "s" does not fit: must return a JSON object, got [1]`},
		{"string", `{"Return": "hi"}`, true, "", untouched,
			`the mock for state "s" does not fit: must return a JSON object, got "hi"`},
		{"throw", `{"Throw": {"Error": "Quota", "Cause": "too many"}}`, true, "", untouched, "Quota: too many"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := mustCase(t, withResponse(`{"0": `+tt.entry+`}`), "M", "T")
			ctx := impl.WithState(context.Background(), "s")
			var u update
			label := untouched
			labelPtr := &label
			if !tt.withLabel {
				labelPtr = nil
			}

			err := m.Respond(ctx, &u, labelPtr, "Action")

			if tt.wantErr != "" {
				assert.EqualError(t, err, tt.wantErr)
			} else {
				assert.NoError(t, err)
			}
			if tt.wantJSON == "" {
				assert.Zero(t, u.calls, "the update must not be decoded")
			} else {
				assert.Equal(t, 1, u.calls)
				assert.JSONEq(t, tt.wantJSON, u.json)
			}
			assert.Equal(t, tt.wantLabel, label)
		})
	}
}

func TestMocksRespondThrowIsNamed(t *testing.T) {
	m := mustCase(t, withResponse(`{"0": {"Throw": {"Error": "Quota", "Cause": "c"}}}`), "M", "T")
	err := m.Respond(impl.WithState(context.Background(), "s"), &update{}, nil, "")
	assert.Equal(t, &impl.Error{Name: "Quota", Cause: "c"}, err)
}

func TestMocksRespondDecodeError(t *testing.T) {
	m := mustCase(t, withResponse(`{"0": {"Return": {"count": "x"}}}`), "M", "T")
	bad := errors.New("count: want a number")
	err := m.Respond(impl.WithState(context.Background(), "s"), &update{err: bad}, nil, "")
	assert.ErrorIs(t, err, bad)
}

func TestMocksRespondWithoutMock(t *testing.T) {
	m := mustCase(t, withResponse(`{"0": {"Return": {}}}`), "M", "T")
	var log bytes.Buffer
	m.Log = &log
	var u update
	label := "kept"

	err := m.Respond(impl.WithState(context.Background(), "classify"), &u, &label, "Eval")

	require.NoError(t, err)
	assert.Equal(t, "flowc: state \"classify\" has no mock; it returns its input unchanged\n", log.String())
	assert.Zero(t, u.calls)
	assert.Equal(t, "kept", label)

	m.Log = nil
	assert.NoError(t, m.Respond(impl.WithState(context.Background(), "classify"), &u, nil, ""))
}

// A MockConfig built in Go rather than parsed gets the same checks.
func TestMockConfigCaseUnparsed(t *testing.T) {
	machines := map[string]flowrun.MockStateMachine{"M": {TestCases: map[string]map[string]string{"T": {"s": "R"}}}}
	tests := []struct {
		name      string
		responses map[string]flowrun.MockResponse
		wantErr   string
	}{
		{"unknown response", nil, `mock config: state "s" uses unknown response "R"`},
		{"invalid response", map[string]flowrun.MockResponse{"R": {"0": {}}},
			`mock config: response "R" of state "s": key "0": needs exactly one of "Return" and "Throw"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &flowrun.MockConfig{StateMachines: machines, MockedResponses: tt.responses}
			_, err := c.Case("M", "T")
			assert.EqualError(t, err, tt.wantErr)
		})
	}
	t.Run("invalid JSON return", func(t *testing.T) {
		c := &flowrun.MockConfig{StateMachines: machines, MockedResponses: map[string]flowrun.MockResponse{
			"R": {"0": {Return: []byte(`{bad`)}},
		}}
		m, err := c.Case("M", "T")
		require.NoError(t, err)
		var label string
		err = m.Respond(impl.WithState(context.Background(), "s"), &update{}, &label, "Eval")
		assert.ErrorContains(t, err, `the mock for state "s" does not fit: returns invalid JSON`)
	})
}

func TestMocksZeroValue(t *testing.T) {
	var m flowrun.Mocks
	_, ok := m.Next("s")
	assert.False(t, ok)
}

const chainMocks = `{
  "StateMachines": {"c": {"TestCases": {"t": {"both": "Both", "output": "Output", "text": "Text", "throw": "Throw", "bad": "Bad"}}}},
  "MockedResponses": {
    "Both": {"0": {"Return": {"Output": {"n": 1.50}, "Eval": "go"}}},
    "Output": {"0": {"Return": {"Output": {"n": 1}}}},
    "Text": {"0": {"Return": {"Output": "plain"}}},
    "Throw": {"0": {"Throw": {"Error": "Nope", "Cause": "no"}}},
    "Bad": {"0": {"Return": {"Result": 1}}}
  }
}`

func TestRespondChain(t *testing.T) {
	m := mustCase(t, chainMocks, "c", "t")
	var log bytes.Buffer
	m.Log = &log
	respond := func(task string) (chain.ChainResult, error) {
		return m.RespondChain(chain.ChainCall{Task: task, Input: "in"})
	}

	r, err := respond("both")
	require.NoError(t, err)
	assert.Equal(t, chain.ChainResult{Output: map[string]any{"n": json.Number("1.50")}, Eval: "go"}, r)
	r, err = respond("output")
	require.NoError(t, err)
	assert.Equal(t, `{"n":1}`, r.Eval, "without Eval, the output's JSON")
	r, err = respond("text")
	require.NoError(t, err)
	assert.Equal(t, chain.ChainResult{Output: "plain", Eval: "plain"}, r, "without Eval, a string output itself")

	_, err = respond("throw")
	assert.Equal(t, "Nope", impl.ErrorName(err))
	_, err = respond("bad")
	assert.ErrorContains(t, err, `the mock for task "bad" must return {"Output": <json>, "Eval": "<string>"}`)

	r, err = respond("unmocked")
	require.NoError(t, err)
	assert.Equal(t, chain.ChainResult{Output: "in", Eval: "in"}, r)
	assert.Equal(t, "flowc: task \"unmocked\" has no mock; it returns its input unchanged\n", log.String())
}

func TestRespondJSON(t *testing.T) {
	cfg, err := flowrun.ParseMockConfig([]byte(`{
	  "StateMachines": {"w": {"TestCases": {"t": {"a": "A", "b": "B"}}}},
	  "MockedResponses": {
	    "A": {"0": {"Return": "plain text"}, "1": {"Return": {"k": [1, 2.50]}}, "2": {"Return": null}, "3": {"Return": "{\"k\": 1}"}},
	    "B": {"0": {"Throw": {"Error": "Broken", "Cause": "no"}}}
	  }}`))
	require.NoError(t, err)
	m, err := cfg.Case("w", "t")
	require.NoError(t, err)
	var log bytes.Buffer
	m.Log = &log
	var got []string
	for range 4 {
		text, err := m.RespondJSON(jsonmode.JSONCall{State: "a"})
		require.NoError(t, err)
		got = append(got, text)
	}
	assert.Equal(t, []string{"plain text", `{"k":[1,2.50]}`, "null", `{"k": 1}`}, got)
	_, err = m.RespondJSON(jsonmode.JSONCall{State: "b"})
	assert.Equal(t, "Broken", impl.ErrorName(err))
	text, err := m.RespondJSON(jsonmode.JSONCall{State: "c", Task: "the task"})
	require.NoError(t, err)
	assert.Equal(t, "the task", text)
	assert.Equal(t, "flowc: state \"c\" has no mock; it returns its rendered task\n", log.String())
}
