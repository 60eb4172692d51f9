package impl_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/flowc-dev/flowc/runtime/impl"
)

func TestResultLine(t *testing.T) {
	tests := []struct {
		name   string
		output any
		err    error
		want   string
	}{
		{"object output", map[string]any{"b": 1, "a": "x"}, nil, `{"status":"SUCCEEDED","output":{"a":"x","b":1}}`},
		{"struct output", struct {
			Status string `json:"status"`
		}{"done"}, nil, `{"status":"SUCCEEDED","output":{"status":"done"}}`},
		{"null output", nil, nil, `{"status":"SUCCEEDED","output":null}`},
		{"no HTML escaping", "<a & b>", nil, `{"status":"SUCCEEDED","output":"<a & b>"}`},
		{"named error", nil, impl.NewError("Quota", "too <many>"), `{"status":"FAILED","error":"Quota","cause":"too <many>"}`},
		{"wrapped named error", nil, &impl.StateError{State: "s", Err: impl.NewError("Quota", "c")}, `{"status":"FAILED","error":"Quota","cause":"c"}`},
		{"named error without cause", nil, impl.NewError("Quota", ""), `{"status":"FAILED","error":"Quota","cause":""}`},
		{"timeout", nil, &impl.StateError{State: "s", Err: fmt.Errorf("%w after 1s", impl.ErrStateTimeout)},
			`{"status":"FAILED","error":"Timeout","cause":"state \"s\": state timed out after 1s"}`},
		{"plain error", nil, errors.New("boom\n"), `{"status":"FAILED","error":"TaskFailed","cause":"boom\n"}`},
		{"output that cannot be encoded", make(chan int), nil,
			`{"status":"FAILED","error":"TaskFailed","cause":"flowc: encoding the output: json: unsupported type: chan int"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, string(impl.ResultLine(tt.output, tt.err)))
		})
	}
}

// JSONText is what States.JsonToString and the Agent State Language's
// guardrails read: JSON as JavaScript's JSON.stringify writes it, "<" and
// "&" left as they are, and a value JSON cannot hold as Go prints it
// rather than an error.
func TestJSONText(t *testing.T) {
	assert.Equal(t, `{"a":"<b> & c","n":[1,null]}`, impl.JSONText(map[string]any{"n": []any{1, nil}, "a": "<b> & c"}))
	assert.Equal(t, `"text"`, impl.JSONText("text"))
	assert.Equal(t, "(1+2i)", impl.JSONText(1+2i))
}
