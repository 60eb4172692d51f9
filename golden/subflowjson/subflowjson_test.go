package subflowjson

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/golden/jsontest"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// team answers every handler with JSON built from what it is given.
type team struct{ seen map[string]any }

func (team) Intake(_ context.Context, c flowcrt.JSONCall) (string, error) {
	return `{"topic": "go"}`, nil
}

func (team) Splitter(_ context.Context, c flowcrt.JSONCall) (string, error) {
	return `{"chunks": ["syntax", "tools"]}`, nil
}

func (team) Processor(_ context.Context, c flowcrt.JSONCall) (string, error) {
	out, err := json.Marshal(map[string]any{"last": c.Input})
	return string(out), err
}

func (h team) Summarizer(_ context.Context, c flowcrt.JSONCall) (string, error) {
	h.seen["summary"] = c.Task
	return "done", nil
}

func (team) Summarize(_ context.Context, h flowcrt.Messages) (flowcrt.Messages, error) {
	return jsontest.Unsummarized(h)
}

// The child reads what the parent stored, and the parent reads what the
// child stored; every state's messages land in the one history, in order.
func TestChildSharesStoreAndHistory(t *testing.T) {
	h := team{seen: map[string]any{}}
	s, err := flowcrt.NewJSONState("a topic")
	require.NoError(t, err)
	require.NoError(t, NewReport(h).RunState(context.Background(), &s))
	assert.Equal(t, "Summarize go from tools", h.seen["summary"])
	assert.Equal(t, "tools", s.Context["last"])
	assert.Equal(t, []string{
		// The user input (workflow.py on_workflow_start); the child's
		// messages join the parent's history: outputs, and each item, as
		// repr() prints it, before its chain's first output (base_node.py,
		// _prepare_iter_task_messages).
		"a topic",
		`{"topic": "go"}`, `{"chunks": ["syntax", "tools"]}`,
		"'syntax'", `{"last":"syntax"}`,
		"'tools'", `{"last":"tools"}`,
		"done",
	}, jsontest.Contents(s.History))
}
