package codemieswitch

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/golden/jsontest"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// recorded answers from the generated mock and records every call.
type recorded struct {
	TriageMock
	calls *jsontest.Calls
}

func (h recorded) Fixer(ctx context.Context, c flowcrt.JSONCall) (string, error) {
	h.calls.Add(c)
	return h.TriageMock.Fixer(ctx, c)
}

func (h recorded) Reporter(ctx context.Context, c flowcrt.JSONCall) (string, error) {
	h.calls.Add(c)
	return h.TriageMock.Reporter(ctx, c)
}

func run(t *testing.T, testCase string) (*jsontest.Calls, flowcrt.JSONState) {
	t.Helper()
	calls := &jsontest.Calls{}
	s, err := flowcrt.NewJSONState("backlog")
	require.NoError(t, err)
	h := recorded{NewTriageMockHandlers(jsontest.Mocks(t, "triage", testCase)), calls}
	require.NoError(t, NewTriage(h).RunState(context.Background(), &s))
	return calls, s
}

// Each item takes the path its switch case picks: a bug is fixed, the
// other item noted (its Python-literal and fenced outputs parse); both
// paths meet at report.
func TestSwitchInsideIteration(t *testing.T) {
	calls, s := run(t, "routed")
	assert.Equal(t, []string{"Fix a"}, calls.Tasks("fix"))
	assert.Equal(t, []string{"Note b"}, calls.Tasks("note"))
	assert.Equal(t, []string{"Report on a and b"}, calls.Tasks("report"))
	assert.Equal(t, true, s.Context["ok"])
}

// Past four messages the history is summarized before the next state.
func TestSummarization(t *testing.T) {
	calls, _ := run(t, "routed")
	report := calls.Of("report")[0]
	assert.Equal(t, flowcrt.Messages{{Role: "assistant", Content: "Two items triaged."}}, report.History)

	// With no summary mocked, the history stays whole: the user input
	// (workflow.py on_workflow_start), then the outputs, each item's before
	// the first output of its chain, as repr() prints it (base_node.py,
	// _prepare_iter_task_messages).
	calls, _ = run(t, "no-summary")
	assert.Equal(t, []string{"backlog", `{"items":[{"name":"a"},{"name":"b"}]}`, "{'name': 'a'}", `{"kind":"bug"}`, `{"fixed":"a"}`,
		"{'name': 'b'}", "{'kind': 'doc', 'ok': True}", "Noted.\n~~~json\n{\"noted\": \"b\"}\n~~~"}, jsontest.Contents(calls.Of("report")[0].History))
}
