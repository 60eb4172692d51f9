package program_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/codegen/program"
	"github.com/flowc-dev/flowc/ir"
)

const buildAgents = `{
  "StartAt": "Draft",
  "States": {
    "Draft": {"Type": "Task", "Agent": "Writer", "Model": {"Preferred": "big"}, "Next": "Check"},
    "Check": {"Type": "Task", "Agent": "Checker", "Next": "Argue"},
    "Argue": {"Type": "Debate", "Agents": ["Critic", "Checker"], "Topic": "t", "Next": "Again"},
    "Again": {"Type": "Task", "Agent": "Critic", "Model": "small", "End": true}
  }
}`

// An agent every task of which names a model runs the built-in; one a task
// leaves without a model, or a debate calls, is missing.
func TestBuildMainAgents(t *testing.T) {
	_, missing := buildMain(t, "desk.asl.json", buildAgents, nil)
	assert.Equal(t, []program.Missing{
		{Method: "Checker", Needs: []program.Need{
			{Pos: ir.Pos{File: "desk.asl.json", Line: 5, Col: 5}, What: `state "Check"`},
			{Pos: ir.Pos{File: "desk.asl.json", Line: 6, Col: 5}, What: `state "Argue"`},
		}},
		{Method: "Critic", Needs: []program.Need{
			{Pos: ir.Pos{File: "desk.asl.json", Line: 6, Col: 5}, What: `state "Argue"`},
			{Pos: ir.Pos{File: "desk.asl.json", Line: 7, Col: 5}, What: `state "Again"`},
		}},
	}, missing)

	user := &program.UserHandlers{Import: "example.com/mine/agents", Type: "Agents",
		Methods: map[string]bool{"Checker": true, "Critic": true}}
	mains, missing := buildMain(t, "desk.asl.json", buildAgents, user)
	require.Empty(t, missing)
	assert.Contains(t, string(mains[1].Content),
		"func (h handlers) Writer(ctx context.Context, in any, agent flowcrt.Agent) (any, error) {\n\treturn h.env.LLM.Agent(ctx, in, agent)")
}
