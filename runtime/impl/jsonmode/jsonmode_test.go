package jsonmode_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/runtime/impl"
	"github.com/flowc-dev/flowc/runtime/impl/jsonmode"
)

func jsonState(t *testing.T, input any) jsonmode.JSONState {
	t.Helper()
	s, err := jsonmode.NewJSONState(input)
	require.NoError(t, err)
	return s
}

func encodeJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

func answer(text string) jsonmode.JSONHandler {
	return func(context.Context, jsonmode.JSONCall) (string, error) { return text, nil }
}

func TestNewJSONState(t *testing.T) {
	s := jsonState(t, map[string]any{"user": "Alice", "n": 1})
	assert.Equal(t, `{"n":1,"user":"Alice"}`, encodeJSON(t, s.Context))
	s.Context["user"] = "Bob"
	assert.Equal(t, `{"n":1,"user":"Alice"}`, encodeJSON(t, s.Input), "the task input is not the store")

	s = jsonState(t, "review the repo")
	assert.Empty(t, s.Context)
	assert.Equal(t, "review the repo", s.Input)

	_, err := jsonmode.NewJSONState(func() {})
	assert.Error(t, err)
}

// Do renders the task, calls the handler, merges an object output into the
// store and adds the output, not the task, to the history (base_node.py,
// _prepare_message_history_update).
func TestDoRendersCallsAndRecords(t *testing.T) {
	s := jsonState(t, "the input")
	s.Context["id"] = json.Number("7")
	s.Context["meta"] = map[string]any{"a": "b"}
	task := &jsonmode.JSONTask{
		Policy: impl.Policy{State: "process"},
		Task: []jsonmode.Piece{{Text: "Process "}, {Text: "{{id}}", Ref: "id"}, {Text: " "}, {Text: "{{meta}}", Ref: "meta"},
			{Text: " of "}, {Text: "{{ task }}", Ref: "task"}, {Text: " "}, {Text: "{{nope}}", Ref: "nope"}},
		ToolArgs: []jsonmode.JSONArg{{Name: "endpoint", Value: []jsonmode.Piece{{Text: "/api/"}, {Text: "{{id}}", Ref: "id"}}}},
		Resolve:  true,
	}
	var got jsonmode.JSONCall
	out, err := s.Do(context.Background(), &impl.Config{}, task, func(_ context.Context, c jsonmode.JSONCall) (string, error) {
		got = c
		c.Context["id"] = "changed" // the handler's own copy
		return `{"result": "done", "id": 8}`, nil
	})
	require.NoError(t, err)
	assert.Equal(t, "process", got.State)
	assert.Equal(t, `Process 7 {'a': 'b'} of  `, got.Task, "Jinja2 prints values as Python does; a key the store lacks renders empty")
	assert.Equal(t, map[string]string{"endpoint": "/api/7"}, got.ToolArgs)
	assert.Equal(t, "the input", got.Input)
	assert.Equal(t, `{"id":8,"meta":{"a":"b"},"result":"done"}`, encodeJSON(t, s.Context))
	assert.Equal(t, impl.Messages{{Role: "user", Content: "the input"}, {Role: "assistant", Content: `{"result": "done", "id": 8}`}}, s.History,
		"the user input, then the output (workflow.py on_workflow_start, base_node.py)")
	assert.Equal(t, `{"result": "done", "id": 8}`, out.Text)
	assert.True(t, out.Vars().Holds("id == 8"))
}

// An output that is not an object changes no key; text that is not JSON is
// a string. A state without a task adds only the output to the history.
func TestDoKeepsOtherOutputsOutOfTheStore(t *testing.T) {
	s := jsonState(t, map[string]any{"k": "v"})
	for _, text := range []string{`["a", "b"]`, `42`, `not json`, ``} {
		out, err := s.Do(context.Background(), &impl.Config{}, &jsonmode.JSONTask{}, answer(text))
		require.NoError(t, err)
		assert.Equal(t, text, out.Text)
	}
	assert.Equal(t, map[string]any{"k": "v"}, s.Context)
	assert.Len(t, s.History, 5, "the user input and the four outputs")
	assert.Equal(t, "assistant", s.History[1].Role)
}

// A failing state leaves the run's state alone; retries get fresh copies.
func TestDoRetriesOnFreshCopies(t *testing.T) {
	s := jsonState(t, map[string]any{"k": "v"})
	task := &jsonmode.JSONTask{Policy: impl.Policy{State: "flaky", Retry: []impl.Retrier{{Errors: []string{"Flaky"}, MaxAttempts: 2, Interval: time.Second}}}}
	clock := impl.NewFakeClock(time.Unix(0, 0))
	calls := 0
	_, err := s.Do(context.Background(), &impl.Config{Clock: clock}, task, func(_ context.Context, c jsonmode.JSONCall) (string, error) {
		calls++
		assert.Equal(t, "v", c.Context["k"], "attempt %d", calls)
		c.Context["k"] = "dirty"
		return "", impl.NewError("Flaky", "again")
	})
	require.Error(t, err)
	assert.Equal(t, "Flaky", impl.ErrorName(err))
	assert.Equal(t, 2, calls)
	assert.Equal(t, map[string]any{"k": "v"}, s.Context)
	assert.Len(t, s.History, 1, "only the user input: a failed attempt records nothing")

	_, err = s.Do(context.Background(), &impl.Config{}, task, func(context.Context, jsonmode.JSONCall) (string, error) {
		panic("boom")
	})
	assert.ErrorContains(t, err, `panic in state "flaky": boom`)
}

func TestItems(t *testing.T) {
	users := output(t, `{"status": "ok", "data": {"users": [{"id": 1}, {"id": 2}], "a/b": {"~": 3}}}`)
	items, err := users.ItemsAt("/data/users", "data", "users")
	require.NoError(t, err)
	assert.Equal(t, `[{"id":1},{"id":2}]`, encodeJSON(t, items))
	items, err = users.ItemsAt("/data/users/1/id", "data", "users", "1", "id")
	require.NoError(t, err)
	assert.Equal(t, `[2]`, encodeJSON(t, items), "a value that is not a list is the only item")
	items, err = users.ItemsAt("/data/a~1b/~0", "data", "a/b", "~")
	require.NoError(t, err)
	assert.Equal(t, `[3]`, encodeJSON(t, items))
	_, err = users.ItemsAt("/data/users/01", "data", "users", "01")
	assert.EqualError(t, err, `iter_key "/data/users/01": there is no value at /data/users/01`)
	_, err = users.ItemsAt("/data/nope/x", "data", "nope", "x")
	assert.EqualError(t, err, `iter_key "/data/nope/x": there is no value at /data/nope`)

	items, err = users.ItemsKey("status")
	require.NoError(t, err)
	assert.Equal(t, []any{"ok"}, items)
	_, err = users.ItemsKey("errors")
	assert.EqualError(t, err, `iter_key "errors": there is no value at /errors`)

	list := output(t, `["a", "b"]`)
	items, err = list.ItemsKey("items")
	require.NoError(t, err)
	assert.Equal(t, []any{"a", "b"}, items, "a list output is used as a whole")
	assert.Equal(t, []any{"a", "b"}, list.Items())
	assert.Equal(t, []any{"text"}, output(t, "text").Items())
	assert.Len(t, users.Items(), 1, "`.` of an object is the object alone")
}

// Each iteration starts from a copy, with its item as the task input and
// an object item's keys in its store. Join merges, in item order, what
// each one set (the last one winning) and the messages each one added: the
// item, as Python's repr() prints it, then the output (base_node.py,
// _prepare_iter_task_messages).
func TestIterationsAndJoin(t *testing.T) {
	s := jsonState(t, map[string]any{"user": "Alice", "result": "none", "kept": "parent"})
	s.History = impl.Messages{{Role: "user", Content: "start"}}
	its := s.Iterations([]any{map[string]any{"id": json.Number("1")}, "plain", map[string]any{"id": json.Number("3")}})
	require.Len(t, its, 3)
	assert.Equal(t, "plain", its[1].Input)
	assert.Equal(t, json.Number("3"), its[2].Context["id"])
	assert.NotContains(t, its[1].Context, "id")

	ctx, cfg := context.Background(), &impl.Config{}
	task := &jsonmode.JSONTask{Task: []jsonmode.Piece{{Text: "item "}, {Text: "{{task}}", Ref: "task"}}}
	for i := range its {
		result := fmt.Sprintf(`{"result": "processed-%d", "only%d": true}`, i+1, i+1)
		if i == 1 {
			result = `{"kept": "parent"}` // sets kept to the value it had: still a write
		}
		_, err := its[i].Do(ctx, cfg, task, answer(result))
		require.NoError(t, err)
	}
	its[2].Context["user"] = "changed in place" // not through set: not merged
	s.Join(its)
	assert.Equal(t, `{"id":3,"kept":"parent","only1":true,"only3":true,"result":"processed-3","user":"Alice"}`, encodeJSON(t, s.Context))
	var contents []string
	for _, m := range s.History {
		contents = append(contents, m.Content)
	}
	assert.Equal(t, []string{"start",
		`{'id': 1}`, `{"result": "processed-1", "only1": true}`,
		"'plain'", `{"kept": "parent"}`,
		`{'id': 3}`, `{"result": "processed-3", "only3": true}`}, contents)
}

// A branch's history is its own: appending to it never writes into the
// parent's array or a sibling's.
func TestBranchesDoNotShareHistory(t *testing.T) {
	s := jsonState(t, nil)
	s.History = make(impl.Messages, 1, 10)
	s.History[0] = impl.Message{Role: "user", Content: "start"}
	bs := s.Branches(2)
	for i := range bs {
		_, err := bs[i].Do(context.Background(), &impl.Config{}, &jsonmode.JSONTask{}, answer(fmt.Sprint("branch ", i)))
		require.NoError(t, err)
	}
	assert.Equal(t, "branch 0", bs[0].History[1].Content)
	assert.Equal(t, "branch 1", bs[1].History[1].Content)
	s.Join(bs)
	assert.Len(t, s.History, 3)
}

// Under FanOut the iterations run at once; the join does not depend on
// which finished first.
func TestJoinIsInItemOrderWhateverTheSchedule(t *testing.T) {
	s := jsonState(t, nil)
	items := make([]any, 40)
	for i := range items {
		items[i] = map[string]any{"n": json.Number(fmt.Sprint(i))}
	}
	its := s.Iterations(items)
	task := &jsonmode.JSONTask{Task: []jsonmode.Piece{{Text: "{{n}}", Ref: "n"}}, Resolve: true}
	err := impl.FanOut(context.Background(), "split", len(its), 0, func(ctx context.Context, i int) error {
		time.Sleep(time.Duration(rand.IntN(200)) * time.Microsecond)
		_, err := its[i].Do(ctx, &impl.Config{}, task, func(_ context.Context, c jsonmode.JSONCall) (string, error) {
			return fmt.Sprintf(`{"last": %q}`, c.Task), nil
		})
		return err
	})
	require.NoError(t, err)
	s.Join(its)
	assert.Equal(t, "39", s.Context["last"])
	assert.Equal(t, json.Number("39"), s.Context["n"])
	assert.Equal(t, "{'n': 0}", s.History[0].Content)
	assert.Len(t, s.History, 80)
}

type inOrder struct{}

func (inOrder) AnswersInOrder() {}

func TestFanOutLimit(t *testing.T) {
	assert.Equal(t, 1, jsonmode.FanOutLimit(inOrder{}, 0))
	assert.Equal(t, 1, jsonmode.FanOutLimit(inOrder{}, 8))
	assert.Equal(t, 8, jsonmode.FanOutLimit(struct{}{}, 8))
}

// A cancelled run stops its fan-out; no goroutine is left behind (see
// TestMain).
func TestIterationsStopWhenCancelled(t *testing.T) {
	s := jsonState(t, nil)
	its := s.Iterations(make([]any, 16))
	ctx, cancel := context.WithCancel(context.Background())
	err := impl.FanOut(ctx, "split", len(its), 4, func(ctx context.Context, i int) error {
		_, err := its[i].Do(ctx, &impl.Config{}, &jsonmode.JSONTask{}, func(ctx context.Context, _ jsonmode.JSONCall) (string, error) {
			if i == 2 {
				cancel()
			}
			<-ctx.Done()
			return "", ctx.Err()
		})
		return err
	})
	assert.True(t, errors.Is(err, context.Canceled), "%v", err)
}
