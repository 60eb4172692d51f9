package pyexpr

import "testing"

// TestConditionOverOutputs follows utils.py _evaluate_condition: string
// values go through convert_value ("12" is 12), `keys` lists the output's
// keys, and an output that is not an object makes every condition false,
// since result.keys() raises.
func TestConditionOverOutputs(t *testing.T) {
	for _, c := range []struct {
		expr   string
		output any
		want   bool
	}{
		{"count > 10", map[string]any{"count": "12"}, true},
		{"items[0] == 'a'", map[string]any{"items": "['a', 'b']"}, true},
		{"done", map[string]any{"done": "TRUE"}, true},
		{"'status' in keys and len(keys) == 2", map[string]any{"status": 1, "x": 2}, true},
		{"keys", map[string]any{}, false},
		{"True", []any{1}, false},
		{"True", "text", false},
		{"missing > 0", map[string]any{}, false},
		{"len(name)", map[string]any{"name": "abc"}, true},
	} {
		e, err := ParseCondition(c.expr)
		if err != nil {
			t.Fatal(err)
		}
		if got := Condition(e, c.output); got != c.want {
			t.Errorf("%s over %v = %v, want %v", c.expr, c.output, got, c.want)
		}
	}
}
