package codemieautonomous

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/golden/jsontest"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// recorded answers from the generated mock and records every call.
type recorded struct {
	TeamMock
	calls *jsontest.Calls
}

func (h recorded) Supervisor(ctx context.Context, c flowcrt.JSONCall) (string, error) {
	h.calls.Add(c)
	return h.TeamMock.Supervisor(ctx, c)
}

func (h recorded) Writer(ctx context.Context, c flowcrt.JSONCall) (string, error) {
	h.calls.Add(c)
	return h.TeamMock.Writer(ctx, c)
}

func (h recorded) Reviewer(ctx context.Context, c flowcrt.JSONCall) (string, error) {
	h.calls.Add(c)
	return h.TeamMock.Reviewer(ctx, c)
}

func run(t *testing.T, testCase string) (*jsontest.Calls, any, error) {
	calls := &jsontest.Calls{}
	h := recorded{NewTeamMockHandlers(jsontest.Mocks(t, "team", testCase)), calls}
	out, err := NewTeam(h).Run(context.Background(), "Publish release 2.0")
	return calls, out, err
}

// The supervisor loop of supervisor_workflow.py (build_workflow): the run
// starts at Supervisor (get_workflow_entry_point), each member goes back
// to it (add_edge), and FINISH ends the run (supervisor_node.py,
// evaluate_route).
func TestSupervisorLoop(t *testing.T) {
	calls, out, err := run(t, "both")
	require.NoError(t, err)
	assert.Len(t, calls.Of("Supervisor"), 3)
	assert.Len(t, calls.Of("ReleaseWriter"), 1, "a member is named by its name without spaces")
	assert.Len(t, calls.Of("reviewer"), 1, "an assistant without a name is named by its id")

	// supervisor_node.py, get_task: the supervisor's task; agent_node.py,
	// get_task: a member's empty task is "-".
	assert.Equal(t, []string{"Decide about next step", "Decide about next step", "Decide about next step"}, calls.Tasks("Supervisor"))
	writer := calls.Of("ReleaseWriter")[0]
	assert.Equal(t, "-", writer.Task)
	assert.Equal(t, "writer", writer.Assistant.ID)

	// The member sees the supervisor's choice and its task in the history,
	// and the supervisor then sees the member's answer.
	assert.Contains(t, history(writer.History), "Write the notes of 2.0")
	assert.Contains(t, history(calls.Of("Supervisor")[1].History), "2.0 adds sessions")

	// The supervisor's decision adds no key to the context store; the
	// members' outputs do, as any state's.
	assert.Equal(t, map[string]any{"approved": true}, out)
}

// The supervisor's choice is typed: NextAction (models.py) with `next` one
// of FINISH and the members; anything else fails the run, as LangGraph
// fails on a node it does not have.
func TestSupervisorChoiceOutsideTheTeam(t *testing.T) {
	_, _, err := run(t, "stranger")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "OutputSchemaMismatch")

	var choice TeamSupervisorOutput
	require.NoError(t, json.Unmarshal([]byte(`{"next": "FINISH", "reasoning": "done"}`), &choice))
	assert.Equal(t, "FINISH", choice.Next)
}

func history(ms flowcrt.Messages) string {
	var text string
	for _, m := range ms {
		text += m.Content + "\n"
	}
	return text
}
