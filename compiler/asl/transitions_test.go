package asl_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/compiler"
	"github.com/flowc-dev/flowc/ir"
)

// The rules AWS applies when it creates a state machine and
// awslabs/statelint checks (data/StateMachine.j2119 and
// lib/statelint/state_node.rb), each rejected at its position; these
// definitions are written for the test, the conformance suite has
// statelint's own.
func TestStatelintRules(t *testing.T) {
	for name, c := range map[string]struct{ def, want string }{
		"no terminal state": {
			`{"StartAt": "A", "States": {
"A": {"Type": "Pass", "Next": "B"},
"B": {"Type": "Pass", "Next": "A"}}}`,
			"m.asl.json:1:28: no terminal state",
		},
		"no terminal state in a branch": {
			`{"StartAt": "P", "States": {"P": {"Type": "Parallel", "End": true, "Branches": [
{"StartAt": "L", "States": {"L": {"Type": "Pass", "Next": "L"}}}]}}}`,
			"m.asl.json:2:28: no terminal state",
		},
		"a state nothing names": {
			`{"StartAt": "A", "States": {
"A": {"Type": "Succeed"},
"Lost": {"Type": "Pass", "Next": "A"}}}`,
			`m.asl.json:3:1: state "Lost" is never entered`,
		},
		"TimeoutSeconds and TimeoutSecondsPath": {
			`{"StartAt": "A", "States": {"A": {"Type": "Task", "Resource": "arn:x", "End": true,
"TimeoutSeconds": 5, "TimeoutSecondsPath": "$.t"}}}`,
			"m.asl.json:2:22: Task state \"A\" has both `TimeoutSeconds` and `TimeoutSecondsPath`",
		},
		"HeartbeatSeconds and HeartbeatSecondsPath": {
			`{"StartAt": "A", "States": {"A": {"Type": "Task", "Resource": "arn:x", "End": true,
"HeartbeatSecondsPath": "$.h", "HeartbeatSeconds": 5}}}`,
			"m.asl.json:2:1: Task state \"A\" has both `HeartbeatSeconds` and `HeartbeatSecondsPath`",
		},
		"Credentials not an object": {
			`{"StartAt": "A", "States": {"A": {"Type": "Task", "Resource": "arn:x", "End": true,
"Credentials": "arn:aws:iam::1:role/r"}}}`,
			"m.asl.json:2:16: Credentials must be an object",
		},
	} {
		t.Run(name, func(t *testing.T) {
			w, ds := compiler.Compile("m.asl.json", []byte(c.def), compiler.Options{NoPackage: true})
			assert.Nil(t, w)
			assert.Contains(t, ds.Errors().Lines(), c.want)
		})
	}
}

// A broken reference is the error, not the state it was meant to name nor
// the terminal state it may have been meant to reach.
func TestStatelintRulesBrokenReference(t *testing.T) {
	def := `{"StartAt": "A", "States": {"A": {"Type": "Pass", "Next": "Dne"}, "Done": {"Type": "Pass", "Next": "A"}}}`
	_, ds := compiler.Compile("m.asl.json", []byte(def), compiler.Options{NoPackage: true})
	require.Len(t, ds.Errors(), 1, ds.Lines())
	assert.Contains(t, ds.Errors().Lines(), `unknown state "Dne"`)
}

// statelint reports every problem of a definition at once
// (lib/statelint/state_node.rb collects them into one list), so a broken
// reference is reported beside a problem of a field, in a branch too,
// though the two are found by the front-end and the checker.
func TestBrokenReferenceBesideFieldError(t *testing.T) {
	def := `{"StartAt": "P", "States": {"P": {"Type": "Parallel", "End": true, "Branches": [
{"StartAt": "A", "States": {"A": {"Type": "Pass", "Next": "Dne", "Bogus": 1}, "Done": {"Type": "Succeed"}}}]}}}`
	w, ds := compiler.Compile("m.asl.json", []byte(def), compiler.Options{NoPackage: true})
	assert.Nil(t, w)
	assert.Equal(t, `m.asl.json:2:60: unknown state "Dne" (did you mean `+"`Done`"+`?)
m.asl.json:2:66: unknown key `+"`Bogus`"+` in Pass state "A"
`, ds.Lines())
}

// A module's exports are entered from outside it, so nothing in the module
// needs to name them.
func TestStatelintRulesModuleExports(t *testing.T) {
	def := `{"Module": true, "Exports": ["A", "B"], "States": {"A": {"Type": "Pass", "End": true}, "B": {"Type": "Pass", "End": true}}}`
	w, ds := compiler.Compile("m.asl.json", []byte(def), compiler.Options{NoPackage: true})
	require.NotNil(t, w, ds.Lines())
	assert.NotContains(t, ds.Lines(), "unreachable")
}

// `end` is an ordinary state name in the States Language, which ends a run
// with `"End": true`: a transition to it goes to that state.
func TestStateNamedEnd(t *testing.T) {
	def := `{"StartAt": "A", "States": {
"A": {"Type": "Task", "Resource": "arn:x", "Next": "end", "Catch": [{"ErrorEquals": ["States.ALL"], "Next": "end"}]},
"end": {"Type": "Fail", "Error": "Stopped"}}}`
	w, ds := compiler.Compile("m.asl.json", []byte(def), compiler.Options{NoPackage: true})
	require.NotNil(t, w, ds.Lines())
	assert.Empty(t, ds.Lines())
	a := w.States[0]
	assert.Equal(t, ir.TransGoto, a.Next.Kind)
	assert.Equal(t, "end", a.Next.To.ID)
	assert.Equal(t, "end", a.Catch[0].Next.ID)
	assert.Equal(t, ir.ASLFail, w.State("end").ASL.Type)
}

// Parameters may be any JSON value (data/StateMachine.j2119 gives the field
// no type); a string is the effective input as it is. An Include's
// Parameters name its template's parameters, so they stay an object.
func TestParametersAnyValue(t *testing.T) {
	for def, kind := range map[string]ir.TemplateKind{
		`{"StartAt": "A", "States": {"A": {"Type": "Pass", "Parameters": "$.x", "End": true}}}`:                    ir.TmplValue,
		`{"StartAt": "A", "States": {"A": {"Type": "Task", "Resource": "arn:x", "Parameters": [1], "End": true}}}`: ir.TmplArray,
		`{"StartAt": "A", "States": {"A": {"Type": "Map", "Parameters": "p", "End": true,
"ItemProcessor": {"StartAt": "B", "States": {"B": {"Type": "Succeed"}}}}}}`: ir.TmplValue,
	} {
		w, ds := compiler.Compile("m.asl.json", []byte(def), compiler.Options{NoPackage: true})
		require.NotNil(t, w, ds.Lines())
		assert.Equal(t, kind, w.States[0].ASL.Parameters.Kind, def)
	}
	def := `{"Imports": {"t": "t.asl.json"}, "StartAt": "A", "States": {"A": {"Type": "Include", "Template": "t", "Parameters": "x", "End": true}}}`
	_, ds := compiler.Compile("m.asl.json", []byte(def), compiler.Options{NoPackage: true})
	assert.True(t, strings.Contains(ds.Lines(), "Parameters must be an object"), ds.Lines())
}

// A template's state named `end` is renamed with the others when it is
// compiled in, and so are the transitions to it.
func TestIncludedStateNamedEnd(t *testing.T) {
	dir := t.TempDir()
	tmpl := `{"StartAt": "T", "States": {"T": {"Type": "Pass", "Next": "end"}, "end": {"Type": "Succeed"}}}`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "t.asl.json"), []byte(tmpl), 0o644))
	main := `{"Imports": {"t": "t.asl.json"}, "StartAt": "A", "States": {"A": {"Type": "Include", "Template": "t", "End": true}}}`
	w, ds := compiler.Compile(filepath.Join(dir, "m.asl.json"), []byte(main), compiler.Options{NoPackage: true})
	require.NotNil(t, w, ds.Lines())
	inner := w.States[0].ASL.Branches[0]
	assert.Equal(t, "A/end", inner.States[0].Next.To.ID)
	assert.Equal(t, "A/end", inner.States[1].ID)
}
