package temporal_test

import (
	"log/slog"
	"testing"

	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/flowc-dev/flowc/temporal/golden/review"
)

// TestReplay replays the history TestWorkerKilled recorded on a dev
// server (regenerate it with FLOWC_RECORD_HISTORY=$PWD/testdata/review_history.json
// go test -run TestWorkerKilled): the generated workflow, as it is now,
// must make the same decisions, or a run in flight would break on deploy.
func TestReplay(t *testing.T) {
	r := worker.NewWorkflowReplayer()
	r.RegisterWorkflowWithOptions(review.ReviewWorkflow, workflow.RegisterOptions{Name: review.ReviewWorkflowName})
	logger := log.NewStructuredLogger(slog.New(slog.DiscardHandler))
	if err := r.ReplayWorkflowHistoryFromJSONFile(logger, "testdata/review_history.json"); err != nil {
		t.Fatal(err)
	}
}
