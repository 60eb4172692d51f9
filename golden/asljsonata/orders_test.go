package asljsonata

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrun "github.com/flowc-dev/flowc/flowrun"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

const mocks = `{
  "StateMachines": {"orders": {"TestCases": {
    "paid": {"Quote": "Quotes", "Charge": "Paid"},
    "declined": {"Quote": "Quotes", "Charge": "Declined"}
  }}},
  "MockedResponses": {
    "Quotes": {"0": {"Return": {"price": 10}}, "1": {"Return": {"price": 20}}},
    "Paid": {"0": {"Return": {"id": "r-1"}}},
    "Declined": {"0": {"Throw": {"Error": "Declined", "Cause": "card expired"}}}
  }
}`

func run(t *testing.T, testCase, input string) (any, error) {
	t.Helper()
	cfg, err := flowcrun.ParseMockConfig([]byte(mocks))
	require.NoError(t, err)
	m, err := cfg.Case("orders", testCase)
	require.NoError(t, err)
	in, err := flowcrt.DecodeASLInput([]byte(input))
	require.NoError(t, err)
	return NewOrdersMock(m).Run(context.Background(), in)
}

const small = `{"customer": "ann", "lines": [{"sku": "A", "price": 5, "qty": 2}, {"sku": "B", "price": 30, "qty": 1}]}`

// Arguments build the task's input, Output the state's, and Assign sets
// variables that later states read; a Choice's matching rule (or its
// Default) picks the Output and Assign.
func TestJSONataOrder(t *testing.T) {
	out, err := run(t, "paid", small)
	require.NoError(t, err)
	b, err := json.Marshal(out)
	require.NoError(t, err)
	assert.JSONEq(t, `{"receipt": "r-1", "size": "small", "quotes": [10, 20], "summary": "ann paid 40"}`, string(b))

	out, err = run(t, "paid", `{"customer": "bob", "lines": [{"sku": "A", "price": 50, "qty": 2}]}`)
	require.NoError(t, err)
	b, err = json.Marshal(out)
	require.NoError(t, err)
	assert.JSONEq(t, `{"receipt": "r-1", "size": "large", "quotes": 10, "summary": "bob paid 100"}`, string(b),
		"one quote: a JSONata path over one item gives the item")
}

// A catcher's Output and Assign read $states.errorOutput; the Fail state
// builds its error and cause from expressions.
func TestJSONataCatch(t *testing.T) {
	_, err := run(t, "declined", small)
	require.Error(t, err)
	assert.Equal(t, "Order.Declined", flowcrt.ErrorName(err))
	assert.ErrorContains(t, err, "card expired (small)")
}

// An expression that gives nothing is States.QueryEvaluationError.
func TestJSONataUndefined(t *testing.T) {
	_, err := run(t, "paid", `{"lines": []}`)
	require.Error(t, err)
	assert.Equal(t, "States.QueryEvaluationError", flowcrt.ErrorName(err))
}
