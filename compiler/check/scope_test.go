package check_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/compiler/asl"
	"github.com/flowc-dev/flowc/compiler/check"
	"github.com/flowc-dev/flowc/compiler/yamlx"
	"github.com/flowc-dev/flowc/ir"
)

// lowerASL lowers the States Language file at path without checking it.
func lowerASL(t *testing.T, path, src string) *ir.Workflow {
	t.Helper()
	r := &yamlx.Reader{File: path}
	root, _ := r.ParseSource([]byte(src))
	require.NotNil(t, root, r.Diags.Lines())
	w := asl.Lower(r, root, "m", "m")
	require.False(t, r.Diags.HasErrors(), r.Diags.Lines())
	return w
}

// Each machine is a scope: the States Language specification (Parallel
// State, Map State) lets a state in a branch or an iterator go only to
// states of its own `States`, and no state outside go into them.
func TestASLMachinesAreScopes(t *testing.T) {
	w := lowerASL(t, "m.asl.json", `{"StartAt": "Fan", "States": {
"Fan": {"Type": "Parallel", "Next": "Each", "Branches": [
  {"StartAt": "Left", "States": {"Left": {"Type": "Pass", "Next": "Each"}}},
  {"StartAt": "Fan", "States": {"Right": {"Type": "Pass", "End": true}}}]},
"Each": {"Type": "Map", "Next": "Right", "ItemProcessor": {"StartAt": "Item",
  "States": {"Item": {"Type": "Task", "Resource": "arn:x", "End": true, "Catch": [{"ErrorEquals": ["States.ALL"], "Next": "Fan"}]}}}}}}`)
	_, ds := check.Check(w, check.Options{NoPackage: true})
	assert.Equal(t, `m.asl.json:3:68: unknown state "Each"
m.asl.json:4:16: unknown state "Fan"
m.asl.json:5:34: unknown state "Right"
m.asl.json:6:124: unknown state "Fan"
`, ds.Lines())
}

// Reachability is per machine too: a branch's states are entered from the
// branch's StartAt, not from the state machine's.
func TestASLReachabilityPerMachine(t *testing.T) {
	w := lowerASL(t, "m.asl.json", `{"StartAt": "Fan", "States": {
"Fan": {"Type": "Parallel", "End": true, "Branches": [
  {"StartAt": "Start", "States": {
    "Start": {"Type": "Choice", "Choices": [{"Variable": "$.x", "IsPresent": true, "Next": "Done"}], "Default": "Spin"},
    "Done": {"Type": "Succeed"},
    "Spin": {"Type": "Pass", "Next": "Spin"}}}]}}}`)
	_, ds := check.Check(w, check.Options{NoPackage: true})
	assert.Equal(t, `m.asl.json:6:5: warning: no run that enters state "Spin" can finish: every path loops forever
`, ds.Lines())
}

// A definition compiled into a startExecution state keeps its own state
// names in diagnostics, at positions in its own file, though the front-end
// renamed its states after the state that runs it; compiled in twice, it
// is reported once.
func TestASLCompiledInChildNamesItsOwnStates(t *testing.T) {
	dir := t.TempDir()
	child := `{"StartAt": "One", "States": {"One": {"Type": "Pass", "Next": "Tow"}, "Two": {"Type": "Pass", "End": true}}}`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "child.asl.json"), []byte(child), 0o644))
	run := `{"Type": "Task", "Resource": "arn:aws:states:::states:startExecution.sync",
 "Parameters": {"StateMachineArn": "arn:aws:states:us-east-1:1:stateMachine:child"}, `
	parent := lowerASL(t, filepath.Join(dir, "parent.asl.json"), `{"StartAt": "Run", "States": {
"Run": `+run+`"Next": "Again"},
"Again": `+run+`"End": true}}}`)
	require.Equal(t, "Run/One", parent.States[0].ASL.Branches[0].Start.ID, "the front-end renames a compiled-in child's states")

	_, ds := check.Check(parent, check.Options{NoPackage: true})
	assert.Equal(t, filepath.Join(dir, "child.asl.json")+`:1:64: unknown state "Tow" (did you mean `+"`Two`"+`?)
`, ds.Lines())
}
