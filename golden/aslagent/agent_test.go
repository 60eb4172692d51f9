package aslagent

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrun "github.com/flowc-dev/flowc/flowrun"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// author plays the writer, the critic and the approver.
type author struct {
	agents   []flowcrt.Agent
	decision string
	asked    flowcrt.ApprovalRequest
}

func (a *author) Writer(_ context.Context, in any, agent flowcrt.Agent) (any, error) {
	a.agents = append(a.agents, agent)
	m := in.(map[string]any)
	if _, debating := m["transcript"]; debating {
		return "the writer agrees", nil
	}
	return "a draft about " + m["topic"].(string), nil
}

func (a *author) Critic(_ context.Context, in any, agent flowcrt.Agent) (any, error) {
	m := in.(map[string]any)
	return "round " + json.Number(jsonText(m["round"])).String() + ": too long", nil
}

func (a *author) Approve(_ context.Context, req flowcrt.ApprovalRequest) (string, error) {
	a.asked = req
	return a.decision, nil
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// The agent task gets its agent fields; the debate calls the agents in
// turn for each round; the approval routes on its decision.
func TestAgents(t *testing.T) {
	a := &author{decision: "approve"}
	out, err := NewAgent(a).Run(context.Background(), map[string]any{"topic": "Go"})
	require.NoError(t, err)
	m := out.(map[string]any)
	assert.Equal(t, "a draft about Go", m["draft"])
	assert.Equal(t, map[string]any{"approval": "approve"}, m["approval"])
	assert.JSONEq(t, `{"topic": "Go", "transcript": [
		{"agent": "Critic", "round": 1, "message": "round 1: too long"},
		{"agent": "Writer", "round": 1, "message": "the writer agrees"},
		{"agent": "Critic", "round": 2, "message": "round 2: too long"},
		{"agent": "Writer", "round": 2, "message": "the writer agrees"}
	]}`, jsonText(m["debate"]))
	require.NotEmpty(t, a.agents)
	assert.Equal(t, map[string]any{"Allowed": []any{"search"}, "Denied": []any{"shell"}}, a.agents[0].Tools)
	assert.Equal(t, map[string]any{"MaxTokens": 2000.0}, a.agents[0].Budget)
	assert.Equal(t, "Publish the draft?", a.asked.Prompt)
	assert.Equal(t, []string{"approve", "reject"}, a.asked.Options)
}

func TestRejected(t *testing.T) {
	_, err := NewAgent(&author{decision: "reject"}).Run(context.Background(), map[string]any{"topic": "Go"})
	assert.Equal(t, "Rejected", flowcrt.ErrorName(err))
}

// A decision outside Options is a States.Runtime error.
func TestUnknownDecision(t *testing.T) {
	_, err := NewAgent(&author{decision: "maybe"}).Run(context.Background(), map[string]any{"topic": "Go"})
	assert.Equal(t, "States.Runtime", flowcrt.ErrorName(err))
}

// The mock answers the approval from the mock config.
func TestMockedApproval(t *testing.T) {
	cfg, err := flowcrun.ParseMockConfig([]byte(`{
		"StateMachines": {"agent": {"TestCases": {"no": {"Review": "No", "Draft": "Draft", "Discuss": "Turns"}}}},
		"MockedResponses": {
			"No": {"0": {"Return": "reject"}},
			"Draft": {"0": {"Return": "draft"}},
			"Turns": {"0": {"Return": "turn"}}
		}
	}`))
	require.NoError(t, err)
	m, err := cfg.Case("agent", "no")
	require.NoError(t, err)
	_, err = NewAgentMock(m).Run(context.Background(), map[string]any{"topic": "Go"})
	assert.Equal(t, "Rejected", flowcrt.ErrorName(err))
}
