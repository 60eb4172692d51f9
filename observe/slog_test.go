package observe_test

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/golden/observed"
	"github.com/flowc-dev/flowc/observe"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// textLog returns a logger writing text lines to buf at level, without the
// time and the run's duration, which change from run to run.
func textLog(buf *bytes.Buffer, level slog.Level) *slog.Logger {
	return slog.New(slog.NewTextHandler(buf, &slog.HandlerOptions{
		Level: level,
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey || a.Key == "duration" {
				return slog.Attr{}
			}
			return a
		},
	}))
}

// A retried state logs each attempt, the failed ones at WARN with the
// error and its name, and every event names the workflow.
func TestSlogRetriedState(t *testing.T) {
	var buf bytes.Buffer
	obs := observe.Slog(textLog(&buf, slog.LevelInfo))
	require.NoError(t, observed.Retry(1, flowcrt.WithObserver(obs)))
	assert.Equal(t, []string{
		`level=WARN msg="attempt finished" workflow=Retry state=call attempt=1 error="RateLimited: slow down" error_name=RateLimited`,
		`level=INFO msg="attempt finished" workflow=Retry state=call attempt=2`,
		`level=INFO msg="state finished" workflow=Retry state=call`,
		`level=INFO msg="run finished" workflow=Retry`,
	}, strings.Split(strings.TrimSpace(buf.String()), "\n"))
}

// At DEBUG the starts and the items show too; a failed run logs at ERROR.
func TestSlogItemsAndFailure(t *testing.T) {
	var buf bytes.Buffer
	obs := observe.Slog(textLog(&buf, slog.LevelDebug))
	require.Error(t, observed.Map(flowcrt.WithObserver(obs), "bad"))
	assert.Equal(t, []string{
		`level=DEBUG msg="run started" workflow=MapReduce`,
		`level=DEBUG msg="state started" workflow=MapReduce state=load`,
		`level=DEBUG msg="item started" workflow=MapReduce state=load index=0 total=1`,
		`level=DEBUG msg="state started" workflow=MapReduce state=score`,
		`level=ERROR msg="state finished" workflow=MapReduce state=score error="state \"score\": Unscorable: bad" error_name=Unscorable`,
		`level=WARN msg="item finished" workflow=MapReduce state=load index=0 total=1 error="state \"score\": Unscorable: bad" error_name=Unscorable`,
		`level=ERROR msg="state finished" workflow=MapReduce state=load error="state \"score\": Unscorable: bad" error_name=Unscorable`,
		`level=ERROR msg="run finished" workflow=MapReduce error="state \"score\": Unscorable: bad" error_name=Unscorable`,
	}, strings.Split(strings.TrimSpace(buf.String()), "\n"))
}

// Multi reports to each observer, and a nil one is left out.
func TestMulti(t *testing.T) {
	a, b := &tree{}, &tree{}
	assert.Nil(t, observe.Multi(nil, nil))
	assert.Same(t, a, observe.Multi(nil, a))
	require.NoError(t, observed.Map(flowcrt.WithObserver(observe.Multi(a, nil, observe.Multi(b))), "x", "y"))
	assert.Equal(t, a.lines(), b.lines())
	assert.Len(t, a.lines(), 7)
}
