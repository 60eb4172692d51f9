package chaintools

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrun "github.com/flowc-dev/flowc/flowrun"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

func runMocked(t *testing.T, testCase string) (flowcrt.ChainState, error) {
	t.Helper()
	data, err := os.ReadFile("mocks.json")
	require.NoError(t, err)
	cfg, err := flowcrun.ParseMockConfig(data)
	require.NoError(t, err)
	m, err := cfg.Case("deploy-check", testCase)
	require.NoError(t, err)
	return NewDeployCheckMock(m).Run(context.Background(), "v1.2")
}

// The probe fails once and is retried (retry_on_failure); output_template
// turns its JSON result into the eval string that in_range tests.
func TestHealthy(t *testing.T) {
	s, err := runMocked(t, "healthy")
	require.NoError(t, err)
	assert.Equal(t, "status 200, score 8 for v1.2", s.Output)
	assert.Equal(t, map[string]any{"status": "200"}, s.Vars)
}

// prompt_to_int with an execute_config asks the model; its answer feeds
// the `<` operator of contenox's earlier documentation.
func TestLowScore(t *testing.T) {
	_, err := runMocked(t, "low-score")
	require.Error(t, err)
	assert.Equal(t, flowcrt.ErrRaised, flowcrt.ErrorName(err))
	assert.Contains(t, err.Error(), "score 3 is too low")
}

func TestServerError(t *testing.T) {
	_, err := runMocked(t, "server-error")
	assert.ErrorContains(t, err, "outage: HTTP 503")
}

// After the retries the failure goes to on_failure, whose task reads the
// error through input_var, capped by input_max_bytes.
func TestUnreachable(t *testing.T) {
	s, err := runMocked(t, "unreachable")
	require.NoError(t, err)
	assert.Equal(t, `state "probe`, s.Output)
}

// ops is a hand-written DeployCheckHandlers.
type ops struct {
	tool  flowcrt.ToolCall
	judge flowcrt.LLMCall
	fails int
}

func (o *ops) Tools(ctx context.Context, call flowcrt.ToolCall) (flowcrt.ChainResult, error) {
	o.tool = call
	if o.fails > 0 {
		o.fails--
		return flowcrt.ChainResult{}, errors.New("connection reset")
	}
	return flowcrt.ChainResult{Output: map[string]any{"code": 201}}, nil
}

func (o *ops) PromptToInt(ctx context.Context, call flowcrt.LLMCall) (int, error) {
	o.judge = call
	return 7, nil
}

func TestTypedHandlers(t *testing.T) {
	o := &ops{fails: 1}
	s, err := NewDeployCheck(o).Run(context.Background(), "notes")
	require.NoError(t, err)
	assert.Equal(t, "status 201, score 7 for notes", s.Output)
	assert.Equal(t, "http", o.tool.Name)
	assert.Equal(t, "get", o.tool.Tool)
	assert.Equal(t, map[string]string{"url": "https://status.example"}, o.tool.Args)
	assert.Equal(t, "Rate the release notes from 0 to 10.", o.judge.System)
	assert.Equal(t, flowcrt.Messages{{Role: "user", Content: "notes"}}, o.judge.Messages, "input_var: input")
	assert.Equal(t, "judge", o.judge.Config.Model)
	require.NotNil(t, o.judge.Config.Temperature)
	assert.Zero(t, *o.judge.Config.Temperature)
}
