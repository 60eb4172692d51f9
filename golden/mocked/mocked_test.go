package mocked

import (
	"bytes"
	"context"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrun "github.com/flowc-dev/flowc/flowrun"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

func mocks(t *testing.T, testCase string) *flowcrun.Mocks {
	t.Helper()
	data, err := os.ReadFile("mocks.json")
	require.NoError(t, err)
	cfg, err := flowcrun.ParseMockConfig(data)
	require.NoError(t, err)
	m, err := cfg.Case("Mocked", testCase)
	require.NoError(t, err)
	return m
}

// fetch's invocations: 0 returns "first"; 1 and 2 throw Flaky, which the
// retry rule retries after 1s each; 3 returns "later"; 4 repeats the last
// entry. decide's invocations: "again", "again" with count 10, "done",
// then "done" again (the last entry repeats). report's evals: "again", back
// to fetch; then "finished", which matches no branch and ends the run.
func TestHappy(t *testing.T) {
	clock := flowcrt.NewFakeClock(time.Unix(0, 0))
	out, err := NewMockedMock(mocks(t, "happy"), flowcrt.WithClock(clock)).Run(context.Background(), MockedState{})
	require.NoError(t, err)
	assert.Equal(t, []string{"first", "later", "later", "later"}, out.Items)
	assert.Equal(t, 1+1+10+1+1+100, out.Count)
	assert.Equal(t, []time.Duration{time.Second, time.Second}, clock.Sleeps())
}

func TestThrow(t *testing.T) {
	out, err := NewMockedMock(mocks(t, "broken")).Run(context.Background(), MockedState{Count: 5})
	require.Error(t, err)
	assert.Equal(t, "Fatal", flowcrt.ErrorName(err))
	var se *flowcrt.StateError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, "fetch", se.State)
	assert.JSONEq(t, `{"status":"FAILED","error":"Fatal","cause":"backend down"}`, string(flowcrt.ResultLine(out, err)))
}

// A state without a mock returns an empty update, and says so on the log:
// decide's action is "", which has no transition, so the run ends.
func TestUnmocked(t *testing.T) {
	m := mocks(t, "undecided")
	var log bytes.Buffer
	m.Log = &log
	out, err := NewMockedMock(m).Run(context.Background(), MockedState{Items: []string{"input"}})
	require.NoError(t, err)
	assert.Equal(t, []string{"input", "first"}, out.Items)
	assert.Equal(t, 1, out.Count)
	assert.Contains(t, log.String(), `"decide" has no mock`)
}

// With a single state machine in the config, its name need not match.
func TestMachineName(t *testing.T) {
	data, err := os.ReadFile("mocks.json")
	require.NoError(t, err)
	cfg, err := flowcrun.ParseMockConfig(data)
	require.NoError(t, err)
	_, err = cfg.Case("SomethingElse", "happy")
	require.NoError(t, err)
	_, err = cfg.Case("Mocked", "nosuchcase")
	assert.ErrorContains(t, err, `no test case "nosuchcase"`)
}
