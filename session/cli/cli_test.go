package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/session"
)

// show of a failed session says what its run failed with (as Step
// Functions' DescribeExecution gives error and cause) and how often it
// was redriven, on one line each however the cause is written.
func TestShowFailure(t *testing.T) {
	ctx := context.Background()
	store := session.NewMemoryCheckpointer()
	require.NoError(t, store.Save(ctx, &session.Checkpoint{Session: "b1", Workflow: "batch", Step: 1, Status: session.StatusFailed,
		State: json.RawMessage(`{}`), Time: time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC),
		Position: session.Position{State: "Each", Failure: &session.Failure{Error: "Flaky", Cause: "c is down\nat\tnoon"}, Redrives: 2}}))

	var out, errs bytes.Buffer
	require.Equal(t, exitOK, Main(ctx, store, []string{"show", "b1"}, &out, &errs), errs.String())
	assert.Regexp(t, `(?m)^STATUS\s+failed\nSTATE\s+Each\n(.*\n){2}ERROR\s+Flaky\nCAUSE\s+c is down\\nat\\tnoon\nREDRIVES\s+2\n$`, out.String())

	out.Reset()
	require.Equal(t, exitOK, Main(ctx, store, []string{"show", "b1", "--json"}, &out, &errs), errs.String())
	var shown map[string]any
	require.NoError(t, json.Unmarshal(out.Bytes(), &shown))
	assert.Equal(t, map[string]any{"error": "Flaky", "cause": "c is down\nat\tnoon"}, shown["failure"])
	assert.Equal(t, 2.0, shown["redrive_count"])
}
