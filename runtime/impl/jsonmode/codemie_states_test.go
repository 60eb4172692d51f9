package jsonmode

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// processorRun runs three states that a state_processor_node may read:
// review-a and review-b succeed, review-c fails and is caught.
func processorRun(t *testing.T) (*JSONState, *JSONSettings) {
	t.Helper()
	settings := &JSONSettings{KeepStates: true}
	s, err := NewJSONState(nil)
	require.NoError(t, err)
	for _, id := range []string{"review-a", "review-b", "review-c", "other"} {
		task := &JSONTask{Policy: impl.Policy{State: id}, Task: []Piece{{Text: "Review " + id}}, Settings: settings}
		_, err := s.Do(context.Background(), &impl.Config{}, task, func(_ context.Context, c JSONCall) (string, error) {
			if c.State == "review-c" {
				return "", &impl.Error{Name: "ValueError", Cause: "no diff"}
			}
			return "verdict of " + c.State, nil
		})
		if id == "review-c" {
			require.Error(t, err)
		}
	}
	return &s, settings
}

func processorTask(settings *JSONSettings, config string) *JSONTask {
	node := DecodeConfig[JSONCustomNode](`{"id": "p", "custom_node_id": "state_processor_node", "model": "m", "config": ` + config + `}`)
	return &JSONTask{Policy: impl.Policy{State: "summary"}, Task: []Piece{{Text: "Give the verdict as JSON"}}, CustomNode: node, Settings: settings}
}

// state_processor_node.py, StateProcessorNode.execute: each state whose id
// starts with state_id and whose status the filter lists, with an output,
// goes to the model (the handler) as "TASK: ... OUTPUT: ..." with the
// node's task; the JSON of each answer is an item of output_template.
func TestStateProcessorReadsTheRunsStates(t *testing.T) {
	s, settings := processorRun(t)
	var asked []JSONCall
	model := func(_ context.Context, c JSONCall) (string, error) {
		asked = append(asked, c)
		return fmt.Sprintf("Sure: ```json\n{\"file\": %q, \"ok\": true}\n```", c.History[0].Content[len("TASK: Review "):len("TASK: Review review-a")]), nil
	}
	task := processorTask(settings, `{"state_id": "review", "output_template": "{% for item in items %}{{ item.file }}={{ item.ok }};{% endfor %}"}`)
	out, err := s.Do(context.Background(), &impl.Config{}, task, model)
	require.NoError(t, err)
	require.Len(t, asked, 2, "the failed state is not in the default filter, nor is `other` named")
	assert.Equal(t, impl.Messages{{Role: "assistant", Content: "TASK: Review review-a. OUTPUT: verdict of review-a"}}, asked[0].History)
	assert.Equal(t, "Give the verdict as JSON", asked[1].Task)
	assert.Equal(t, "m", asked[1].CustomNode.Model)
	assert.Equal(t, "review-a=True;review-b=True;", out.Text)
	assert.Equal(t, "summary", s.Executed[len(s.Executed)-1].State, "the node is a state run too")

	// A filter of FAILED reads the failed state, its error as its output;
	// an answer with no JSON is no item, and no item renders "".
	task = processorTask(settings, `{"state_id": "review-c", "states_status_filter": ["FAILED"], "output_template": "x"}`)
	out, err = s.Do(context.Background(), &impl.Config{}, task, func(_ context.Context, c JSONCall) (string, error) {
		assert.Equal(t, "TASK: Review review-c. OUTPUT: ValueError: no diff", c.History[0].Content)
		return "no JSON here", nil
	})
	require.NoError(t, err)
	assert.Equal(t, "", out.Text)
}

// jinja_template_renderer.py, render_template_batch: with no
// output_template, each item's keys and values.
func TestStateProcessorDefaultTemplate(t *testing.T) {
	s, settings := processorRun(t)
	task := processorTask(settings, `{"state_id": "review-b"}`)
	out, err := s.Do(context.Background(), &impl.Config{}, task, func(context.Context, JSONCall) (string, error) {
		return `{"score": 7}`, nil
	})
	require.NoError(t, err)
	assert.Equal(t, "# Summary\n\nscore: 7\n", out.Text)
}

// StateProcessorNode._fetch_states: no state, or one not done, is a
// ValueError. With no state_id the node reads itself, in progress.
func TestStateProcessorNeedsDoneStates(t *testing.T) {
	s, settings := processorRun(t)
	never := func(context.Context, JSONCall) (string, error) { return "", errors.New("not asked") }
	for _, config := range []string{`{}`, `{"state_id": "nothing"}`} {
		_, err := s.Do(context.Background(), &impl.Config{}, processorTask(settings, config), never)
		assert.Equal(t, "ValueError", impl.ErrorName(err), config)
		assert.ErrorContains(t, err, "No Completed States")
	}
	_, err := s.Do(context.Background(), &impl.Config{}, processorTask(settings, `{"workflow_execution_id": "e1"}`), never)
	assert.ErrorContains(t, err, "its own run only")
}

// Executed states join like messages: a fan-out's items add theirs in
// order.
func TestExecutedStatesJoin(t *testing.T) {
	settings := &JSONSettings{KeepStates: true}
	s, err := NewJSONState(nil)
	require.NoError(t, err)
	items := s.Iterations([]any{"x", "y"})
	for i := range items {
		task := &JSONTask{Policy: impl.Policy{State: "item"}, Settings: settings}
		_, err := items[i].Do(context.Background(), &impl.Config{}, task, func(_ context.Context, c JSONCall) (string, error) {
			return fmt.Sprint(c.Input), nil
		})
		require.NoError(t, err)
	}
	s.Join(items)
	assert.Equal(t, []executedState{{State: "item", Output: "x", Status: statusSucceeded}, {State: "item", Output: "y", Status: statusSucceeded}}, s.Executed)

	// Each node's get_task: a tool's call, a transform's default task.
	tool := &JSONTask{Policy: impl.Policy{State: "fetch"}, Tool: &JSONTool{ID: "f", Tool: "search_issues"}, Task: []Piece{{Text: "ignored"}}, Settings: settings}
	_, err = s.Do(context.Background(), &impl.Config{}, tool, answerWith("[]"))
	require.NoError(t, err)
	shape := &JSONTask{Policy: impl.Policy{State: "shape"}, CustomNode: &JSONCustomNode{CustomNodeID: "transform_node"}, Settings: settings}
	_, err = s.Do(context.Background(), &impl.Config{}, shape, nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"Call search_issues", "Transform data using configured mappings"}, []string{s.Executed[2].Task, s.Executed[3].Task})

	plain, err := NewJSONState(nil)
	require.NoError(t, err)
	_, err = plain.Do(context.Background(), &impl.Config{}, &JSONTask{Policy: impl.Policy{State: "a"}}, answerWith("ok"))
	require.NoError(t, err)
	assert.Empty(t, plain.Executed, "kept only when a state processor reads them")
}

// base_node.py, _prepare_iter_task_messages: only the first state of an
// item's chain records the item; an empty item is not recorded.
func TestItemRecordedOnceInItsChain(t *testing.T) {
	s, err := NewJSONState(nil)
	require.NoError(t, err)
	items := s.Iterations([]any{"first", ""})
	for i := range items {
		for _, id := range []string{"a", "b"} {
			_, err := items[i].Do(context.Background(), &impl.Config{}, &JSONTask{Policy: impl.Policy{State: id}, HumanMessage: id == "a"}, answerWith(id))
			require.NoError(t, err)
		}
	}
	assert.Equal(t, impl.Messages{{Role: "user", Content: "'first'"}, {Role: "user", Content: "a"}, {Role: "assistant", Content: "b"}}, items[0].History)
	assert.Equal(t, impl.Messages{{Role: "user", Content: "a"}, {Role: "assistant", Content: "b"}}, items[1].History)
}

func answerWith(text string) JSONHandler {
	return func(context.Context, JSONCall) (string, error) { return text, nil }
}

type summarizing struct{ calls *int }

func (h summarizing) Summarize(_ context.Context, history impl.Messages) (impl.Messages, error) {
	*h.calls++
	return impl.Messages{{Role: "assistant", Content: fmt.Sprint(len(history), " messages")}}, nil
}

// agent_node.py, before_execution: only an assistant's state summarizes
// a history past the limits; tools and custom nodes do not.
func TestOnlyAssistantStatesSummarize(t *testing.T) {
	settings := &JSONSettings{Summarize: true, MessagesLimit: 1}
	s, err := NewJSONState(nil)
	require.NoError(t, err)
	s.History = impl.Messages{{Role: "user", Content: "a"}, {Role: "assistant", Content: "b"}}
	calls := 0
	h := summarizing{&calls}
	for _, task := range []*JSONTask{
		{Policy: impl.Policy{State: "tool"}, Tool: &JSONTool{Tool: "t"}, Settings: settings},
		{Policy: impl.Policy{State: "node"}, CustomNode: &JSONCustomNode{CustomNodeID: "generate_documents_tree"}, Settings: settings},
	} {
		_, err := s.Do(context.Background(), &impl.Config{}, task, answerWith("out"), h)
		require.NoError(t, err)
	}
	assert.Zero(t, calls)
	assert.Len(t, s.History, 4)
	_, err = s.Do(context.Background(), &impl.Config{}, &JSONTask{Policy: impl.Policy{State: "agent"}, Settings: settings}, answerWith("done"), h)
	require.NoError(t, err)
	assert.Equal(t, 1, calls)
	assert.Equal(t, impl.Messages{{Role: "assistant", Content: "4 messages"}, {Role: "assistant", Content: "done"}}, s.History)
}
