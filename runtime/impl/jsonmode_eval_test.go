package impl_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// output is a handler's output as Do parses it: JSON when it is, else text.
func output(t *testing.T, text string) impl.JSONOutput {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader([]byte(text)))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return impl.JSONOutput{Text: text, Value: text}
	}
	return impl.JSONOutput{Text: text, Value: v}
}

// The methods of Vars against what Python's eval() gives for the same
// condition over the same output; a Python error must not hold.
func TestVarsFollowPython(t *testing.T) {
	for _, tt := range []struct {
		name, out string
		cond      func(v *impl.Vars) bool
		want      bool
	}{
		{"count > 10", `{"count": 12}`, func(v *impl.Vars) bool { return v.Gt(v.Var("count"), 10) }, true},
		{"2.5 > 2", `{"x": 2.5}`, func(v *impl.Vars) bool { return v.Gt(v.Var("x"), 2) }, true},
		{"3 == 3.0", `{"x": 3}`, func(v *impl.Vars) bool { return v.Eq(v.Var("x"), 3.0) }, true},
		{"big integers stay exact", `{"x": 9007199254740993}`, func(v *impl.Vars) bool { return v.Gt(v.Var("x"), int64(9007199254740992)) }, true},
		{"status == 'success'", `{"status": "success"}`, func(v *impl.Vars) bool { return v.Eq(v.Var("status"), "success") }, true},
		{"'1' == 1 is false", `{"x": "1"}`, func(v *impl.Vars) bool { return v.Eq(v.Var("x"), 1) }, false},
		{"missing variable fails", `{}`, func(v *impl.Vars) bool { return v.Ne(v.Var("count"), 10) }, false},
		{"not of a missing variable fails", `{}`, func(v *impl.Vars) bool { return !v.Truthy(v.Var("flag")) }, false},
		{"'true' is True", `{"ok": "true"}`, func(v *impl.Vars) bool { return v.IsTrue(v.Var("ok")) }, true},
		{"'False' is False", `{"ok": "False"}`, func(v *impl.Vars) bool { return !v.Truthy(v.Var("ok")) }, true},
		{"a string is no boolean", `{"ok": "yes"}`, func(v *impl.Vars) bool { return v.IsTrue(v.Var("ok")) }, false},
		{"string > number fails", `{"count": "5"}`, func(v *impl.Vars) bool { return !v.Gt(v.Var("count"), 2) }, false},
		{"strings order", `{"a": "apple"}`, func(v *impl.Vars) bool { return v.Lt(v.Var("a"), "banana") }, true},
		{"lists order", `{"a": [1, 2], "b": [1, 3]}`, func(v *impl.Vars) bool { return v.Lt(v.Var("a"), v.Var("b")) }, true},
		{"a list and a string do not order", `{"a": [1], "b": "x"}`, func(v *impl.Vars) bool { return !v.Lt(v.Var("a"), v.Var("b")) }, false},
		{"'result' in keys", `{"result": 1, "z": 2}`, func(v *impl.Vars) bool { return v.In("result", v.Keys()) }, true},
		{"'error' in message.lower()", `{"message": "An ERROR occurred"}`, func(v *impl.Vars) bool { return v.In("error", v.Lower(v.Var("message"))) }, true},
		{"lower() of a number fails", `{"message": 3}`, func(v *impl.Vars) bool { return !v.In("e", v.Lower(v.Var("message"))) }, false},
		{"1.0 in [1]", `{"tags": ["a", 1]}`, func(v *impl.Vars) bool { return v.In(1.0, v.Var("tags")) }, true},
		{"key in object", `{"labels": {"urgent": true}}`, func(v *impl.Vars) bool { return v.In("urgent", v.Var("labels")) }, true},
		{"1 in object is false", `{"labels": {"1": true}}`, func(v *impl.Vars) bool { return !v.In(1, v.Var("labels")) }, true},
		{"in a number fails", `{"n": 3}`, func(v *impl.Vars) bool { return !v.In("a", v.Var("n")) }, false},
		{"1 in a string fails", `{"s": "a1"}`, func(v *impl.Vars) bool { return !v.In(1, v.Var("s")) }, false},
		{"startswith", `{"s": "email:x"}`, func(v *impl.Vars) bool { return v.StartsWith(v.Var("s"), "email") }, true},
		{"endswith of a list fails", `{"s": []}`, func(v *impl.Vars) bool { return !v.EndsWith(v.Var("s"), "x") }, false},
		{"len counts characters", `{"s": "héllo"}`, func(v *impl.Vars) bool { return v.Eq(v.Len(v.Var("s")), 5) }, true},
		{"len of a number fails", `{"n": 5}`, func(v *impl.Vars) bool { return v.Ne(v.Len(v.Var("n")), 1) }, false},
		{"division by zero fails", `{"n": 1}`, func(v *impl.Vars) bool { return v.Le(v.Div(v.Var("n"), 0), 0) }, false},
		{"/ is true division", `{"n": 7}`, func(v *impl.Vars) bool { return v.Eq(v.Div(v.Var("n"), 2), 3.5) }, true},
		{"% takes the divisor's sign", `{"n": -7}`, func(v *impl.Vars) bool { return v.Eq(v.Mod(v.Var("n"), 3), 2) }, true},
		{"float %", `{"n": -7.5}`, func(v *impl.Vars) bool { return v.Eq(v.Mod(v.Var("n"), 2), 0.5) }, true},
		{"no wrap-around", `{"n": 9223372036854775807}`, func(v *impl.Vars) bool { return v.Gt(v.Add(v.Var("n"), 1), 0) }, true},
		{"True counts as 1", `{"b": true}`, func(v *impl.Vars) bool { return v.Eq(v.Add(v.Var("b"), 1), 2) }, true},
		{"string + string", `{"a": "x"}`, func(v *impl.Vars) bool { return v.Eq(v.Add(v.Var("a"), "y"), "xy") }, true},
		{"string + number fails", `{"a": "x"}`, func(v *impl.Vars) bool { return v.Ne(v.Add(v.Var("a"), 1), 0) }, false},
		{"-x", `{"n": 4}`, func(v *impl.Vars) bool { return v.Eq(v.Neg(v.Var("n")), -4) }, true},
		{"+'a' fails", `{"a": "a"}`, func(v *impl.Vars) bool { return v.Ne(v.Pos(v.Var("a")), 0) }, false},
		{"lists equal member by member", `{"a": [1, {"k": 2.0}]}`, func(v *impl.Vars) bool { return v.Eq(v.Var("a"), v.Var("a")) }, true},
		{"None == None", `{"a": null}`, func(v *impl.Vars) bool { return v.Eq(v.Var("a"), nil) }, true},
		{"a list output has no variables", `[1, 2]`, func(v *impl.Vars) bool { return v.Eq(v.Len(v.Keys()), 0) }, true},
		{"a text output has no variables", `not json`, func(v *impl.Vars) bool { return v.Eq(v.Var("not"), nil) }, false},
		{"empty values are falsy", `{"a": "", "b": [], "c": {}, "d": 0, "e": null}`, func(v *impl.Vars) bool {
			return !v.Truthy(v.Var("a")) && !v.Truthy(v.Var("b")) && !v.Truthy(v.Var("c")) && !v.Truthy(v.Var("d")) && !v.Truthy(v.Var("e"))
		}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			v := output(t, tt.out).Vars()
			assert.Equal(t, tt.want, v.Holds(tt.cond(&v)))
		})
	}
}

// A switch's cases share one Vars: a case that fails does not make the
// next one fail.
func TestHoldsClearsTheFailure(t *testing.T) {
	v := output(t, `{"status": "ok"}`).Vars()
	require.False(t, v.Holds(v.Gt(v.Var("missing"), 1)))
	assert.True(t, v.Holds(v.Eq(v.Var("status"), "ok")))
}
