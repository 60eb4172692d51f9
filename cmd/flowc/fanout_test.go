package main

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestRunFanOut runs typed fan-out workflows with mocks through `flowc run`:
// an iteration chain of two states, one item at a time, whose mocks answer
// the items in list order; and a failing item, which fails the run.
func TestRunFanOut(t *testing.T) {
	if testing.Short() {
		t.Skip("flowc run builds with the go tool")
	}
	dir := filepath.Join("..", "..", "golden", "mapchain")
	def, mocks := filepath.Join(dir, "mapchain.flow.yaml"), filepath.Join(dir, "mocks.json")
	code, stdout, stderr := cli(t, "", "run", def, "--mock-config", mocks, "--test-case", "ordered", "--skip-waits")
	assert.Equal(t, exitOK, code, stderr)
	assert.Equal(t, `{"status":"SUCCEEDED","output":{"chunks":["c0","c1","c2","c3"],"processed":["p0","p1","p3"],"valid":111}}`+"\n", stdout)

	input := writeFile(t, t.TempDir(), "input.json", `{"processed": ["in"]}`)
	unmocked := writeFile(t, t.TempDir(), "mocks.json", `{"StateMachines": {"Chunks": {"TestCases": {"fails": {"split": "Split", "validate": "Broken"}}}},
	  "MockedResponses": {"Split": {"0": {"Return": {"chunks": ["a", "b"]}}}, "Broken": {"0": {"Throw": {"Error": "Invalid", "Cause": "bad chunk"}}}}}`)
	code, stdout, stderr = cli(t, "", "run", def, "--input", input, "--mock-config", unmocked, "--test-case", "fails")
	assert.Equal(t, exitFailed, code, stderr)
	assert.Equal(t, `{"status":"FAILED","error":"Invalid","cause":"bad chunk"}`+"\n", stdout)
}
