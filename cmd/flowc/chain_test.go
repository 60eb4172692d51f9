package main

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestRunChainContenox runs the contenox-style golden chains through
// `flowc run` with their mocks: the result line is what a user sees.
func TestRunChainContenox(t *testing.T) {
	if testing.Short() {
		t.Skip("flowc run builds with the go tool")
	}
	golden := filepath.Join("..", "..", "golden")
	input := writeFile(t, t.TempDir(), "in.json", `"Weather in Paris?"`)
	for _, c := range []struct {
		def, testCase string
		code          int
		stdout        string
	}{
		{"chainagent/agent.chain.json", "one-round", exitOK,
			`{"status":"SUCCEEDED","output":{"output":"Q: Weather in Paris? / A: It is sunny. / rounds: 1","vars":{}}}`},
		{"chainagent/agent.chain.json", "budget", exitOK,
			`{"status":"SUCCEEDED","output":{"output":"Q: Weather in Paris? / A: again / rounds: 2","vars":{}}}`},
		{"chainagent/agent.chain.json", "smalltalk", exitOK,
			`{"status":"SUCCEEDED","output":{"output":"Weather in Paris?","vars":{}}}`},
		{"chaintools/deploy.chain.yaml", "healthy", exitOK,
			`{"status":"SUCCEEDED","output":{"output":"status 200, score 8 for Weather in Paris?","vars":{"status":"200"}}}`},
		{"chaintools/deploy.chain.yaml", "unreachable", exitOK,
			`{"status":"SUCCEEDED","output":{"output":"state \"probe","vars":{}}}`},
		{"chaintools/deploy.chain.yaml", "low-score", exitFailed,
			`{"status":"FAILED","error":"RaiseError","cause":"score 3 is too low"}`},
		{"../examples/weather-agent/weather.chain.json", "over-budget", exitOK,
			`{"status":"SUCCEEDED","output":{"output":[{"content":"Probably sunny.","role":"assistant"}],"vars":{}}}`},
	} {
		def := filepath.Join(golden, c.def)
		mocks := filepath.Join(filepath.Dir(def), "mocks.json")
		code, stdout, stderr := cli(t, "", "run", def, "--input", input, "--mock-config", mocks, "--test-case", c.testCase)
		assert.Equal(t, c.code, code, "%s %s: %s", c.def, c.testCase, stderr)
		assert.Equal(t, c.stdout+"\n", stdout, "%s %s", c.def, c.testCase)
	}
}
