package asl_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// `$a` is a JSONPath only as the variable a: Jayway and the consensus of
// JSONPath implementations reject it as a path (json-path-comparison,
// dot_notation_without_dot), and without an Assign of a it would fail at
// run time. flowc check rejects it at the `a`, wherever a path is read.
func TestPathReadingNoVariable(t *testing.T) {
	cases := []struct{ name, state, at string }{
		{"InputPath", `{"Type": "Pass", "InputPath": "$a", "End": true}`, `a", "End"`},
		{"Parameters", `{"Type": "Pass", "Parameters": {"x.$": "$ab.c"}, "End": true}`, `ab.c"`},
		{"intrinsic argument", `{"Type": "Pass", "Parameters": {"x.$": "States.Format('{}', $a)"}, "End": true}`, `a)"`},
		{"Choice Variable", `{"Type": "Choice", "Choices": [{"Variable": "$a", "IsPresent": true, "Next": "B"}], "Default": "B"}, "B": {"Type": "Succeed"}`, `a", "IsPresent"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := `{"StartAt": "A", "States": {"A": ` + c.state + `}}`
			_, r := lowerJSON(t, src)
			col := strings.Index(src, c.at) + 1
			lines := strings.Split(strings.TrimSpace(r.Diags.Errors().Lines()), "\n")
			if assert.Len(t, lines, 1) {
				assert.True(t, strings.HasPrefix(lines[0], "m.asl.json:1:"+strconv.Itoa(col)+": invalid path"), lines[0])
				assert.Contains(t, lines[0], "no Assign sets a variable")
			}
		})
	}
}

// The same path reads a variable that an Assign of the machine sets, in
// any state, as Step Functions' variables do.
func TestPathReadingAnAssignedVariable(t *testing.T) {
	src := `{"StartAt": "A", "States": {
		"A": {"Type": "Pass", "Assign": {"a": 1}, "Next": "B"},
		"B": {"Type": "Pass", "Parameters": {"x.$": "$a", "y.$": "States.Format('{}', $a)"}, "End": true}}}`
	_, r := lowerJSON(t, src)
	assert.False(t, r.Diags.HasErrors(), r.Diags.Lines())
}
