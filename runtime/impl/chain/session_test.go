package chain_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/runtime/impl"
	"github.com/flowc-dev/flowc/runtime/impl/chain"
)

// chainOfTwo runs the chain "a" -> "b" as generated code does (codegen's
// step.go and session.go of codegen/internal/chain): runAt attaches the session, each
// task runs through RunTask, the edge it takes is counted, and Save follows
// every task. calls records the tasks whose handler ran; the handler of a
// task in fail fails once.
type chainOfTwo struct {
	calls []string
	fail  map[string]bool
}

var twoTasks = []*chain.ChainTask{{ID: "a"}, {ID: "b"}}

func (c *chainOfTwo) handler(_ context.Context, call chain.ChainCall) (chain.ChainResult, error) {
	c.calls = append(c.calls, call.Task)
	if c.fail[call.Task] {
		delete(c.fail, call.Task)
		return chain.ChainResult{}, errors.New("down")
	}
	return chain.ChainResult{Output: map[string]any{call.Task: call.Input}}, nil
}

func (c *chainOfTwo) runAt(ctx context.Context, sess *impl.Session, s chain.ChainState, state string) (chain.ChainState, error) {
	i := slices.IndexFunc(twoTasks, func(t *chain.ChainTask) bool { return t.ID == state })
	if i < 0 {
		return s, sess.UnknownState(state)
	}
	s.Attach(sess)
	cfg := impl.NewConfig()
	for ; i < len(twoTasks); i++ {
		_, err := s.RunTask(ctx, &cfg, twoTasks[i], c.handler)
		next := ""
		if err == nil && i+1 < len(twoTasks) {
			next = twoTasks[i+1].ID
			s.Traverse(twoTasks[i].ID, next)
		}
		if err == nil && i == 0 {
			err = s.Compose("a", "seen", chain.ComposeOverride)
		}
		if err = s.Save(ctx, next, err); err != nil {
			return s, err
		}
	}
	return s, nil
}

func (c *chainOfTwo) sessions() *impl.Sessions[chain.ChainState, any] {
	return &impl.Sessions[chain.ChainState, any]{
		Workflow: "two", Schema: "json", Start: "a",
		Fresh: chain.FreshChainState, Decode: chain.DecodeChainState, Merge: chain.MergeChainInput, Run: c.runAt,
	}
}

func chainInput(t *testing.T, text string) *any {
	t.Helper()
	in, err := chain.ChainSessionInput(value(t, text))
	require.NoError(t, err)
	return in
}

// A task that fails saves the session failed at that task, on the state
// saved after the task before it, and Resume (a redrive) runs only the
// failed task, from the state it began with, to the state an uninterrupted
// run ends in (output, input, variables, task outputs and edge counts
// alike).
func TestChainSessionResumesAtTheFailedTask(t *testing.T) {
	ctx := context.Background()
	store := impl.NewMemoryCheckpointer()
	cfg := impl.NewConfig(impl.WithCheckpointer(store))
	c := &chainOfTwo{fail: map[string]bool{"b": true}}
	_, err := c.sessions().Invoke(ctx, &cfg, "s", chainInput(t, `{"n": 1.50}`))
	require.ErrorContains(t, err, "down")
	cp, err := store.Load(ctx, "s")
	require.NoError(t, err)
	assert.Equal(t, impl.StatusFailed, cp.Status)
	assert.Equal(t, "b", cp.Position.State)
	assert.Equal(t, 2, cp.Step, "after task a, and the failure at b")
	require.NotNil(t, cp.Position.Failure)
	assert.Contains(t, cp.Position.Failure.Cause, "down")

	got, err := c.sessions().Resume(ctx, &cfg, "s")
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "b", "b"}, c.calls, "a ran once; b, which failed, ran again")

	start, err := chain.NewChainState(value(t, `{"n": 1.50}`))
	require.NoError(t, err)
	want, err := (&chainOfTwo{}).runAt(ctx, nil, start, "a")
	require.NoError(t, err)
	assert.Equal(t, jsonText(t, want), jsonText(t, got))
	assert.Equal(t, want.Input, got.Input)
	assert.Equal(t, want.Results, got.Results)
	assert.Equal(t, want.Edges, got.Edges)
	assert.Equal(t, "1.50", jsonText(t, got.Input.(map[string]any)["n"]), "numbers keep their text")

	cp, err = store.Load(ctx, "s")
	require.NoError(t, err)
	assert.Equal(t, impl.StatusFinished, cp.Status)
	again, err := c.sessions().Resume(ctx, &cfg, "s")
	require.NoError(t, err)
	assert.Equal(t, jsonText(t, got), jsonText(t, again), "a finished session returns its final state")
	assert.Len(t, c.calls, 3, "and runs nothing")
}

// Input to an unfinished session becomes {{.input}} only: the next task
// keeps the input it had. A finished session's next run is a new one: on
// its input, with no task outputs or edges from the last run, and with the
// composed variables kept.
func TestChainSessionInput(t *testing.T) {
	ctx := context.Background()
	cfg := impl.NewConfig(impl.WithCheckpointer(impl.NewMemoryCheckpointer()))
	c := &chainOfTwo{fail: map[string]bool{"b": true}}
	_, err := c.sessions().Invoke(ctx, &cfg, "s", chainInput(t, `"first"`))
	require.Error(t, err)
	s, err := c.sessions().Invoke(ctx, &cfg, "s", chainInput(t, `"second"`))
	require.NoError(t, err)
	assert.Equal(t, "second", s.Input)
	assert.Equal(t, `{"b":{"a":"first"}}`, jsonText(t, s.Output), "b's input is a's output, as before")

	s, err = c.sessions().Invoke(ctx, &cfg, "s", nil)
	require.NoError(t, err)
	assert.Equal(t, `{"b":{"a":"second"}}`, jsonText(t, s.Output), "a new run on the session's input")
	assert.Equal(t, map[string]int{"a->b": 1}, s.Edges, "edges count this run's traversals only")
	assert.Equal(t, `{"seen":{"a":"second"}}`, jsonText(t, s.Vars))

	s, err = c.sessions().Invoke(ctx, &cfg, "t", nil)
	require.NoError(t, err)
	assert.Equal(t, `{"b":{"a":{}}}`, jsonText(t, s.Output), "a new session given no input runs on {}")
}

func TestDecodeChainState(t *testing.T) {
	s, err := chain.DecodeChainState([]byte(`{"output": 7, "input": null, "vars": null}`))
	require.NoError(t, err)
	assert.Equal(t, json.Number("7"), s.Output)
	assert.NotNil(t, s.Vars)
	_, err = chain.DecodeChainState([]byte(`{"output": 7, "vars": {}, "extra": 1}`))
	assert.ErrorContains(t, err, "extra")
	_, err = chain.ChainSessionInput(make(chan int))
	assert.ErrorContains(t, err, "chain input")

	var none chain.ChainState
	boom := errors.New("boom")
	assert.Equal(t, boom, none.Save(context.Background(), "a", boom), "a run without a session saves nothing")
	assert.NoError(t, none.Save(context.Background(), "a", nil))
}
