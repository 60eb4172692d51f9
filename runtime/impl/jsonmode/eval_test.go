package jsonmode_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/flowc-dev/flowc/runtime/impl/jsonmode"
	"github.com/stretchr/testify/assert"
)

// output is a handler's output as Do parses it: JSON when it is, else text.
func output(t *testing.T, text string) jsonmode.JSONOutput {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader([]byte(text)))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return jsonmode.JSONOutput{Text: text, Value: text}
	}
	return jsonmode.JSONOutput{Text: text, Value: v}
}

// Conditions over outputs as CodeMie evaluates them (utils.py,
// _evaluate_condition): Python over the output's keys, string values read
// as Python literals (convert_value), truthiness deciding; an error, or an
// output that is not an object, does not hold.
func TestHoldsFollowsCodeMie(t *testing.T) {
	for _, tt := range []struct {
		cond, out string
		want      bool
	}{
		{"count > 10", `{"count": 12}`, true},
		{"x > 2", `{"x": 2.5}`, true},
		{"x == 3.0", `{"x": 3}`, true},
		{"x > 9007199254740992", `{"x": 9007199254740993}`, true},
		{"status == 'success'", `{"status": "success"}`, true},
		{"x == 1", `{"x": "1"}`, true},
		{"count != 10", `{}`, false},
		{"not flag", `{}`, false},
		{"ok", `{"ok": "true"}`, true},
		{"not ok", `{"ok": "False"}`, true},
		{"ok", `{"ok": "yes"}`, true},
		{"count > 2", `{"count": "5"}`, true},
		{"a < 'banana'", `{"a": "apple"}`, true},
		{"a < b", `{"a": [1, 2], "b": [1, 3]}`, true},
		{"a < b", `{"a": [1], "b": "x"}`, false},
		{"'result' in keys", `{"result": 1, "z": 2}`, true},
		{"'error' in message.lower()", `{"message": "An ERROR occurred"}`, true},
		{"'e' in message.lower()", `{"message": 3}`, false},
		{"1.0 in tags", `{"tags": ["a", 1]}`, true},
		{"'urgent' in labels", `{"labels": {"urgent": true}}`, true},
		{"1 in labels", `{"labels": {"1": true}}`, false},
		{"'a' in n", `{"n": 3}`, false},
		{"s.startswith('email')", `{"s": "email:x"}`, true},
		{"len(s) == 5", `{"s": "héllo"}`, true},
		{"n / 0 <= 0", `{"n": 1}`, false},
		{"n / 2 == 3.5", `{"n": 7}`, true},
		{"n % 3 == 2", `{"n": -7}`, true},
		{"n % 2 == 0.5", `{"n": -7.5}`, true},
		{"b + 1 == 2", `{"b": true}`, true},
		{"a + 'y' == 'xy'", `{"a": "x"}`, true},
		{"a + 1 != 0", `{"a": "x"}`, false},
		{"items[0]['name'] == 'first'", `{"items": [{"name": "first"}]}`, true},
		{"int(v) + 1 == 11", `{"v": "10"}`, true},
		{"any(t == 'x' for t in tags)", `{"tags": ["x"]}`, false},
		{"a is None", `{"a": null}`, true},
		{"True", `[1, 2]`, false},
		{"True", `not json`, false},
		{"done == true", `{"done": true}`, true},
	} {
		t.Run(tt.cond, func(t *testing.T) {
			assert.Equal(t, tt.want, output(t, tt.out).Vars().Holds(tt.cond))
		})
	}
}
