package jsonchain

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/golden/jsontest"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// The generated mocks run the items one after another in list order, so
// the k-th response of a state goes to the k-th item; the recorded types
// answer from them and record the calls.

func newState(t *testing.T, input any) flowcrt.JSONState {
	t.Helper()
	s, err := flowcrt.NewJSONState(input)
	require.NoError(t, err)
	return s
}

type multistageRecorded struct {
	MultistageMock
	calls *jsontest.Calls
}

func (h multistageRecorded) Processor(ctx context.Context, c flowcrt.JSONCall) (string, error) {
	h.calls.Add(c)
	return h.MultistageMock.Processor(ctx, c)
}

func (h multistageRecorded) Validator(ctx context.Context, c flowcrt.JSONCall) (string, error) {
	h.calls.Add(c)
	return h.MultistageMock.Validator(ctx, c)
}

func (h multistageRecorded) Merger(ctx context.Context, c flowcrt.JSONCall) (string, error) {
	h.calls.Add(c)
	return h.MultistageMock.Merger(ctx, c)
}

// Example 6: each chunk goes through process-chunk and validate-chunk with
// its data and metadata as context variables, in a context of its own;
// merge-results gets the merged context and both histories.
func TestMultiStageIteration(t *testing.T) {
	calls, s := &jsontest.Calls{}, newState(t, nil)
	h := multistageRecorded{NewMultistageMockHandlers(jsontest.Mocks(t, "multistage", "chunks")), calls}
	require.NoError(t, NewMultistage(h).RunState(context.Background(), &s))
	assert.Equal(t, []string{"process-chunk", "validate-chunk", "process-chunk", "validate-chunk", "merge-results"}, calls.States())
	// Each state of the chain ends its task with the item (agent_node.py, get_task).
	assert.Equal(t, []string{
		"Process chunk with data: chunk1\nUsing metadata: info1\n\nCurrent task: {'data': 'chunk1', 'metadata': 'info1'}",
		"Process chunk with data: chunk2\nUsing metadata: info2\n\nCurrent task: {'data': 'chunk2', 'metadata': 'info2'}",
	}, calls.Tasks("process-chunk"))
	assert.Equal(t, []string{
		"Validate the processed chunk chunk1\nCheck metadata consistency: info1\n\nCurrent task: {'data': 'chunk1', 'metadata': 'info1'}",
		"Validate the processed chunk chunk2\nCheck metadata consistency: info2\n\nCurrent task: {'data': 'chunk2', 'metadata': 'info2'}",
	}, calls.Tasks("validate-chunk"))

	validate := calls.Of("validate-chunk")
	assert.Equal(t, "chunk1 done", validate[0].Context["processed"], "an item sees what its own chain set")
	assert.Equal(t, "chunk2 done", validate[1].Context["processed"])
	assert.NotContains(t, validate[1].Context, "valid_chunk1", "and nothing of another item")
	assert.Len(t, validate[1].History, 3, "its history: split-work's output, then its item and its own")

	merge := calls.Of("merge-results")
	require.Len(t, merge, 1)
	want := map[string]any{
		"chunks": []any{
			map[string]any{"data": "chunk1", "metadata": "info1"},
			map[string]any{"data": "chunk2", "metadata": "info2"},
		},
		"data": "chunk2", "metadata": "info2", "processed": "chunk2 done", "valid_chunk1": true, "valid_chunk2": true,
	}
	assert.Equal(t, want, merge[0].Context)
	// The history holds the outputs, and each item, as repr() prints it,
	// before the first output of its chain (base_node.py,
	// _prepare_iter_task_messages); not the tasks.
	assert.Equal(t, []string{
		`{"chunks":[{"data":"chunk1","metadata":"info1"},{"data":"chunk2","metadata":"info2"}]}`,
		"{'data': 'chunk1', 'metadata': 'info1'}", `{"processed":"chunk1 done"}`, `{"valid_chunk1":true}`,
		"{'data': 'chunk2', 'metadata': 'info2'}", `{"processed":"chunk2 done"}`, `{"valid_chunk2":true}`,
	}, jsontest.Contents(merge[0].History))
}

// The "Correct" multi-stage example: three states per item, each seeing the
// item as {{task}} and what the item's previous stage set.
func TestEveryStateOfTheChainCarriesIterKey(t *testing.T) {
	s := newState(t, nil)
	require.NoError(t, NewStagesMock(jsontest.Mocks(t, "stages", "items")).RunState(context.Background(), &s))
	assert.Equal(t, []string{
		`{"items":["a","b"]}`,
		"'a'", `{"stage":"2a"}`, `{"stage":"3a"}`, `{"stage":"4a"}`,
		"'b'", `{"stage":"2b"}`, `{"stage":"3b"}`, `{"stage":"4b"}`,
	}, jsontest.Contents(s.History))
	assert.Equal(t, map[string]any{"items": []any{"a", "b"}, "stage": "4b"}, s.Context)
}

type chunksRecorded struct {
	ChunksMock
	calls *jsontest.Calls
}

func (h chunksRecorded) Consumer(ctx context.Context, c flowcrt.JSONCall) (string, error) {
	h.calls.Add(c)
	return h.ChunksMock.Consumer(ctx, c)
}

// Task input and context population: a dict item is the task input, and
// its keys are context variables that {{key}} reads.
func TestDictItemsPopulateTheContext(t *testing.T) {
	calls, s := &jsontest.Calls{}, newState(t, nil)
	h := chunksRecorded{NewChunksMockHandlers(jsontest.Mocks(t, "chunks", "chunks")), calls}
	require.NoError(t, NewChunks(h).RunState(context.Background(), &s))
	assert.Equal(t, []string{"Use chunk1: important info\nCurrent task: {'data': 'chunk1', 'info': 'important info'}",
		"Use chunk2: very important info\nCurrent task: {'data': 'chunk2', 'info': 'very important info'}"}, calls.Tasks("use-chunk"))
	uses := calls.Of("use-chunk")
	assert.Equal(t, map[string]any{"data": "chunk1", "info": "important info"}, uses[0].Input)
	assert.Equal(t, "chunk1", uses[0].Context["data"])
	assert.Equal(t, "important info", uses[0].Context["info"])
	assert.Equal(t, "very important info", uses[1].Context["info"])
}

type isolationRecorded struct {
	IsolationMock
	calls *jsontest.Calls
}

func (h isolationRecorded) Processor(ctx context.Context, c flowcrt.JSONCall) (string, error) {
	h.calls.Add(c)
	return h.IsolationMock.Processor(ctx, c)
}

func (h isolationRecorded) Merger(ctx context.Context, c flowcrt.JSONCall) (string, error) {
	h.calls.Add(c)
	return h.IsolationMock.Merger(ctx, c)
}

// The context isolation example: each iteration starts from a copy of the
// parent's context ({user: Alice, mode: production}) and does not see the
// result the other one set; after the merge only the last result remains.
func TestContextIsolationAndMerging(t *testing.T) {
	calls, s := &jsontest.Calls{}, newState(t, map[string]any{"user": "Alice", "mode": "production"})
	h := isolationRecorded{NewIsolationMockHandlers(jsontest.Mocks(t, "isolation", "results")), calls}
	require.NoError(t, NewIsolation(h).RunState(context.Background(), &s))
	assert.Equal(t, []string{"Process chunk 1 and generate result\nCurrent task: {'id': 1}", "Process chunk 2 and generate result\nCurrent task: {'id': 2}"}, calls.Tasks("process-chunk"))
	for i, c := range calls.Of("process-chunk") {
		assert.Equal(t, map[string]any{
			"user": "Alice", "mode": "production", "id": json.Number(fmt.Sprint(i + 1)),
			"chunks": []any{map[string]any{"id": json.Number("1")}, map[string]any{"id": json.Number("2")}},
		}, c.Context, "iteration %d sees no result", i+1)
	}
	merge := calls.Of("merge-results")
	require.Len(t, merge, 1)
	assert.Equal(t, "processed-2", merge[0].Context["result"])
	assert.Equal(t, json.Number("2"), merge[0].Context["id"])
	assert.Equal(t, "Alice", merge[0].Context["user"])
}

// The first failure fails the run with that item's error, once CodeMie's
// default retry (10 attempts) is spent.
func TestFailingIteration(t *testing.T) {
	clock := flowcrt.NewFakeClock(time.Unix(0, 0))
	out, err := NewIsolationMock(jsontest.Mocks(t, "isolation", "failing-item"), flowcrt.WithClock(clock)).Run(context.Background(), nil)
	assert.Len(t, clock.Sleeps(), 9)
	assert.Equal(t, `{"status":"FAILED","error":"ChunkFailed","cause":"chunk 2 is corrupt"}`, string(flowcrt.ResultLine(out, err)))
}

// racing handlers run the iterations at once: the first item's waits
// until the second's has finished.
type racing struct {
	second chan struct{}
}

func (racing) Splitter(context.Context, flowcrt.JSONCall) (string, error) {
	return `{"chunks": [{"id": 1}, {"id": 2}]}`, nil
}

func (h racing) Processor(_ context.Context, c flowcrt.JSONCall) (string, error) {
	if c.Context["id"] == json.Number("1") {
		<-h.second
	} else {
		defer close(h.second)
	}
	return fmt.Sprintf(`{"result": "processed-%s"}`, c.Context["id"]), nil
}

func (racing) Merger(context.Context, flowcrt.JSONCall) (string, error) { return "merged", nil }

func (racing) Summarize(_ context.Context, h flowcrt.Messages) (flowcrt.Messages, error) {
	return jsontest.Unsummarized(h)
}

// Whichever item finishes last, the last item's value wins and its
// messages come last.
func TestMergeDoesNotDependOnTheSchedule(t *testing.T) {
	s := newState(t, nil)
	require.NoError(t, NewIsolation(racing{make(chan struct{})}).RunState(context.Background(), &s))
	assert.Equal(t, "processed-2", s.Context["result"])
	assert.Equal(t, []string{
		`{"chunks": [{"id": 1}, {"id": 2}]}`,
		"{'id': 1}", `{"result": "processed-1"}`,
		"{'id': 2}", `{"result": "processed-2"}`,
		"merged",
	}, jsontest.Contents(s.History))
}
