package jsonsimple

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/golden/jsontest"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// recorded answers from the generated mock and records every call.
type recorded struct {
	SimpleMock
	calls *jsontest.Calls
}

func (h recorded) Writer(ctx context.Context, c flowcrt.JSONCall) (string, error) {
	h.calls.Add(c)
	return h.SimpleMock.Writer(ctx, c)
}

func (h recorded) Reviewer(ctx context.Context, c flowcrt.JSONCall) (string, error) {
	h.calls.Add(c)
	return h.SimpleMock.Reviewer(ctx, c)
}

func run(t *testing.T, testCase string) (*jsontest.Calls, flowcrt.JSONState) {
	t.Helper()
	calls := &jsontest.Calls{}
	s, err := flowcrt.NewJSONState(map[string]any{"name": "Ada"})
	require.NoError(t, err)
	h := recorded{NewSimpleMockHandlers(jsontest.Mocks(t, "simple", testCase)), calls}
	require.NoError(t, NewSimple(h).RunState(context.Background(), &s))
	return calls, s
}

// The first state's output object reaches the context store, which the
// next state's task reads; a text output changes no key.
func TestDirectTransition(t *testing.T) {
	calls, s := run(t, "greet")
	assert.Equal(t, []string{"first-state", "next-state-id"}, calls.States())
	assert.Equal(t, []string{"Write a greeting for Ada"}, calls.Tasks("first-state"))
	assert.Equal(t, []string{`Review the greeting "Hello Ada" for Ada`}, calls.Tasks("next-state-id"))
	assert.Equal(t, map[string]any{"name": "Ada", "greeting": "Hello Ada"}, s.Context)
	// The history holds the user input (workflow.py on_workflow_start),
	// then the outputs, not the tasks (base_node.py,
	// _prepare_message_history_update).
	assert.Equal(t, []string{`{"name":"Ada"}`, `{"greeting":"Hello Ada"}`, "Looks good."}, jsontest.Contents(s.History))
	assert.Equal(t, []string{"user", "assistant", "assistant"}, []string{s.History[0].Role, s.History[1].Role, s.History[2].Role})
}

// A state without a mock answers with its rendered task.
func TestUnmockedStateAnswersItsTask(t *testing.T) {
	_, s := run(t, "unmocked-review")
	assert.Equal(t, `Review the greeting "Hello Ada" for Ada`, s.History[2].Content)
}

// Run takes any JSON value and returns the final context store.
func TestRun(t *testing.T) {
	out, err := NewSimpleMock(jsontest.Mocks(t, "simple", "greet")).Run(context.Background(), map[string]any{"name": "Ada"})
	require.NoError(t, err)
	assert.Equal(t, `{"status":"SUCCEEDED","output":{"greeting":"Hello Ada","name":"Ada"}}`, string(flowcrt.ResultLine(out, nil)))
}

// The workflow writes no summarization setting, yet its history is
// summarized, as CodeMie's is: every assistant node is built with
// summarize_history=True (workflow.py, init_agent_node), and
// agent_node.py's before_execution sends the run to the summarizing node
// once should_summarize_memory (utils.py) finds more than 25 messages,
// its default MESSAGES_LIMIT. The summary replaces the history the next
// assistant reads.
func TestHistoryPast25MessagesIsSummarized(t *testing.T) {
	summary := "Earlier greetings, summarized."
	for _, tt := range []struct {
		earlier              int
		writerSaw, reviewSaw []string // the histories the two states get
		final                []string
	}{
		// 24 then 25 messages: neither state crosses the limit.
		{24, nil, nil, nil},
		// 25 messages are within the limit; the writer's output makes 26,
		// which the reviewer's state summarizes first.
		{25, nil, []string{summary}, []string{summary, "Looks good."}},
		// 26 messages: summarized before the first state.
		{26, []string{summary}, []string{summary, `{"greeting":"Hello Ada"}`}, []string{summary, `{"greeting":"Hello Ada"}`, "Looks good."}},
	} {
		earlier := make(flowcrt.Messages, tt.earlier)
		for i := range earlier {
			earlier[i] = flowcrt.Message{Role: "user", Content: fmt.Sprint("greeting ", i)}
		}
		calls := &jsontest.Calls{}
		s, err := flowcrt.NewJSONState(map[string]any{"name": "Ada"})
		require.NoError(t, err)
		s.History = slices.Clone(earlier)
		h := recorded{NewSimpleMockHandlers(jsontest.Mocks(t, "simple", "long-history")), calls}
		require.NoError(t, NewSimple(h).RunState(context.Background(), &s))

		kept := jsontest.Contents(earlier)
		orKept := func(want []string, more ...string) []string {
			if want == nil {
				return append(slices.Clone(kept), more...)
			}
			return want
		}
		assert.Equal(t, orKept(tt.writerSaw), jsontest.Contents(calls.Of("first-state")[0].History), "%d earlier messages", tt.earlier)
		assert.Equal(t, orKept(tt.reviewSaw, `{"greeting":"Hello Ada"}`), jsontest.Contents(calls.Of("next-state-id")[0].History), "%d earlier messages", tt.earlier)
		assert.Equal(t, orKept(tt.final, `{"greeting":"Hello Ada"}`, "Looks good."), jsontest.Contents(s.History), "%d earlier messages", tt.earlier)
	}
}
