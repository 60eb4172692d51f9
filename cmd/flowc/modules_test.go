package main

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestRunComposition runs the Agent State Language composition golden
// through `flowc run`: the mocks name the compiled-in states
// Include/State, the Override's Retry gets the checker's second answer,
// and the run-time parameters reach the notification.
func TestRunComposition(t *testing.T) {
	if testing.Short() {
		t.Skip("flowc run builds with the go tool")
	}
	def := filepath.Join("..", "..", "golden", "aslmodules", "review.asl.json")
	dir := t.TempDir()
	input := writeFile(t, dir, "input.json", `{"code": "x", "repo": "flowc", "config": {"reviewers": ["ana"], "blocking": "reject"}}`)
	mocks := writeFile(t, dir, "mocks.json", `{"StateMachines": {"review": {"TestCases": {"flaky-check": {
	  "Review/ReviewCode": "Reviewed", "Review/SummarizeReview": "Approved", "Resummarize/SummarizeReview": "Approved",
	  "Resummarize/Archive": "Archived", "Check/RunChecks": "FlakyThenClean", "Lint/Run/Lint": "Clean", "Notify/Send": "Sent"}}}},
	 "MockedResponses": {
	  "Reviewed": {"0": {"Return": {"severity": "low"}}},
	  "Approved": {"0-1": {"Return": {"verdict": "approve"}}},
	  "Archived": {"0": {"Return": "archived"}},
	  "FlakyThenClean": {"0": {"Throw": {"Error": "Checks.Flaky", "Cause": "lost"}}, "1": {"Return": {"findings": 1}}},
	  "Clean": {"0": {"Return": {"lint": "clean"}}},
	  "Sent": {"0": {"Return": "sent"}}}}`)
	code, stdout, stderr := cli(t, "", "run", def, "--input", input, "--mock-config", mocks, "--test-case", "flaky-check")
	assert.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stdout, `"checks":{"findings":1}`, "the retried check's second answer")
	assert.Contains(t, stdout, `"notified":{"by":"email","note":"sent about flowc","sent":1}`)
	assert.Contains(t, stdout, `"second":{"archived":"archived"`)
	assert.Empty(t, stderr, "every compiled-in state has its mock")
}
