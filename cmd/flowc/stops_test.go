package main

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

// README's CodeMie example as a session: `fix`, inside the iteration over
// the issues, waits at its interrupt_before while the other issue is
// logged; --decision continue goes on from there and ends as the run whose
// mock confirms at once (test case one-fix).
func TestRunReadmeCodeMieSession(t *testing.T) {
	if testing.Short() {
		t.Skip("flowc run builds with the go tool")
	}
	dir := filepath.Join("..", "..", "examples", "codemie-review")
	def, mocks := filepath.Join(dir, "review.flow.yaml"), filepath.Join(dir, "mocks.json")
	input := filepath.Join(dir, "team.json")
	session := []string{def, "--mock-config", mocks, "--test-case", "waits-for-fix",
		"--checkpoint-db", filepath.Join(t.TempDir(), "s.db"), "--session", "s1"}
	stop := `{"key":"fetch/0/fix","state":"fix","prompt":"continue with state fix?","options":["continue","cancel"]}`
	assert.Equal(t, `{"status":"INTERRUPTED","prompt":"continue with state fix?","options":["continue","cancel"],"stops":[`+stop+`]}`+"\n",
		runOK(t, append(session, "--input", input)...))

	code, _, stderr := cli(t, "", append([]string{"run"}, append(session, "--decision", "continue", "--at", "fetch/1/fix")...)...)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, `no stop "fetch/1/fix" waits for a decision; the stops that wait are "fetch/0/fix"`)

	want := runOK(t, def, "--input", input, "--mock-config", mocks, "--test-case", "one-fix")
	assert.Equal(t, `{"status":"SUCCEEDED","output":{"summary":"1 fixed, 1 logged"}}`+"\n", want)
	assert.Equal(t, want, runOK(t, append(session, "--decision", "continue")...), "README's command: the only stop")
}

// --at names the stop a --decision answers, and needs one.
func TestRunAtNeedsDecision(t *testing.T) {
	code, _, stderr := cli(t, "", "run", "x.flow.yaml", "--checkpoint-db", "s.db", "--session", "s", "--at", "m/0/a")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "--at names the stop a --decision answers")
}
