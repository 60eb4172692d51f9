package pyexpr

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/flowc-dev/flowc/internal/sharedtest"
)

// conformanceDir holds the CodeMie engine's cases, converted from
// codemie-ai/codemie tests/codemie/workflows/utils/test_safe_eval.py
// (see its README); absent outside the flowc workspace.
const conformanceDir = "../../../shared/conformance/codemie/"

type conditionCase struct {
	ID         string         `json:"id"`
	Expression string         `json:"expression"`
	Context    map[string]any `json:"context"`
	Expected   any            `json:"expected"`
	Stage      string         `json:"stage"`
	Source     string         `json:"source"`
}

// TestConformanceConditions runs conditions.json as the engine runs a
// condition: the expression is loaded (workflow_models.py,
// _validate_python_expression_syntax), then evaluated over the output's
// keys after convert_value, with `keys` beside them (utils.py,
// _evaluate_condition), and its truth chooses `then`; an error at run
// time chooses `otherwise` (utils.py, _evaluate_expression).
func TestConformanceConditions(t *testing.T) {
	data := sharedtest.ReadFile(t, conformanceDir+"conditions.json")
	var cases []conditionCase
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.ID, func(t *testing.T) {
			e, err := ParseCondition(c.Expression)
			if c.Stage == "load" {
				if err == nil {
					t.Fatalf("%s: %q loads; the engine rejects it", c.Source, c.Expression)
				}
				return
			}
			if err != nil {
				t.Fatalf("%s: %q does not load: %v", c.Source, c.Expression, err)
			}
			// The engine's unit tests call safe_eval itself, where an error
			// raises; in a workflow it takes `otherwise` (Condition's false).
			v, err := e.Eval(conditionVars(c.Context))
			switch {
			case c.Expected == "error" && err == nil:
				t.Fatalf("%s: %q = %s, want an error (otherwise)", c.Source, c.Expression, Repr(v))
			case c.Expected == "error":
			case err != nil:
				t.Fatalf("%s: %q: %v", c.Source, c.Expression, err)
			case Truthy(v) != c.Expected:
				t.Fatalf("%s: %q = %s, want %v", c.Source, c.Expression, Repr(v), c.Expected)
			}
			if Condition(e, c.Context) != (c.Expected == true) {
				t.Fatalf("%s: %q: the workflow takes the wrong branch", c.Source, c.Expression)
			}
		})
	}
}

// conditionVars are the variables of a condition over an output
// (utils.py, _evaluate_condition and _prepare_local_vars).
func conditionVars(output map[string]any) map[string]any {
	vars := map[string]any{}
	var keys dictKeys
	for _, k := range sortedKeys(output) {
		vars[k] = convertValue(output[k])
		keys = append(keys, k)
	}
	vars["keys"] = keys
	return vars
}

func sortedKeys(m map[string]any) []string {
	d := normalize(m).(*dict)
	out := make([]string, len(d.keys))
	for i, k := range d.keys {
		out[i] = k.(string)
	}
	return out
}
