package aslmaxconc

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/checkpoint/sqlite"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// crew does the work of Each, counting every call by handler and item and
// keeping the task token each item was handed.
type crew struct {
	mu     sync.Mutex
	calls  map[string]int
	tokens map[string]string // by item
}

func newCrew() *crew { return &crew{calls: map[string]int{}, tokens: map[string]string{}} }

func (c *crew) count(name string, in any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls[fmt.Sprintf("%s %v", name, in.(map[string]any)["id"])]++
}

func (c *crew) Start(_ context.Context, in any) (any, error) {
	c.count("start", in)
	return in, nil
}

func (c *crew) SendMessageWaitForTaskToken(_ context.Context, in any) (any, error) {
	c.count("ask", in)
	m := in.(map[string]any)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.tokens[m["id"].(string)] = m["TaskToken"].(string)
	return nil, nil
}

func (c *crew) Finish(_ context.Context, in any) (any, error) {
	c.count("finish", in)
	return in.(map[string]any)["id"], nil
}

func (c *crew) snapshot() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return maps.Clone(c.calls)
}

// itemsOf lists the items a token was handed to.
func (c *crew) itemsOf(tokens []string) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var items []string
	for item, token := range c.tokens {
		if slices.Contains(tokens, token) {
			items = append(items, item)
		}
	}
	slices.Sort(items)
	return items
}

// stopKeys lists the keys of the stops an interrupted run waits at.
func stopKeys(t *testing.T, err error) []string {
	t.Helper()
	var wait *flowcrt.Interrupted
	require.ErrorAs(t, err, &wait)
	var out []string
	for _, p := range wait.Stops {
		out = append(out, p.Key)
	}
	return out
}

func input(wait string, limit int) map[string]any {
	return map[string]any{"items": []any{"a", "b", "c"}, "wait": wait, "limit": float64(limit)}
}

func openStore(t *testing.T) flowcrt.Checkpointer {
	t.Helper()
	store, err := sqlite.Open(filepath.Join(t.TempDir(), "each.db"))
	require.NoError(t, err)
	t.Cleanup(func() { store.Close() })
	return store
}

// allOnce is what every handler of a whole run over a, b and c is called,
// for items that wait for a decision and for a task token.
var (
	allOnce = map[string]int{
		"start a": 1, "start b": 1, "start c": 1, "finish a": 1, "finish b": 1, "finish c": 1,
	}
	allOnceAsked = map[string]int{
		"start a": 1, "start b": 1, "start c": 1, "ask a": 1, "ask b": 1, "ask c": 1, "finish a": 1, "finish b": 1, "finish c": 1,
	}
)

// An item that waits for a person still runs, as far as MaxConcurrency is
// concerned: with a bound of 1 a session stops at item 0 alone, and each
// decision, given by a new workflow value over the same SQLite store as a
// new process would, finishes one item and starts the next, which stops.
// No handler runs twice. Source: Step Functions counts a Map iteration as
// running until it ends ("MaxConcurrency", https://docs.aws.amazon.com/
// step-functions/latest/dg/state-map-inline.html); the Approval state of
// the Agent State Language spec.
func TestOneApprovalAtATime(t *testing.T) {
	ctx := context.Background()
	store := openStore(t)
	c := newCrew()
	process := func() *Each { return NewEach(c, flowcrt.WithCheckpointer(store)) }

	_, err := process().Invoke(ctx, "one", input("approval", 1))
	assert.Equal(t, []string{"Each/0/Review"}, stopKeys(t, err))
	assert.Equal(t, map[string]int{"start a": 1}, c.snapshot(), "items b and c have not started")
	cp, err := store.Load(ctx, "one")
	require.NoError(t, err)
	assert.Len(t, cp.Position.FanOut.Stopped, 1)
	assert.Empty(t, cp.Position.FanOut.Done)

	_, err = process().Resume(ctx, "one")
	assert.Equal(t, []string{"Each/0/Review"}, stopKeys(t, err), "resuming asks again and starts nothing")
	assert.Equal(t, map[string]int{"start a": 1}, c.snapshot())

	_, err = process().Decide(ctx, "one", "yes")
	assert.Equal(t, []string{"Each/1/Review"}, stopKeys(t, err))
	assert.Equal(t, map[string]int{"start a": 1, "finish a": 1, "start b": 1}, c.snapshot())

	_, err = process().Decide(ctx, "one", "yes")
	assert.Equal(t, []string{"Each/2/Review"}, stopKeys(t, err))

	out, err := process().Decide(ctx, "one", "yes")
	require.NoError(t, err)
	assert.Equal(t, []any{"a", "b", "c"}, out)
	assert.Equal(t, allOnce, c.snapshot())
}

// With a bound of 2, items 0 and 1 stop; answering item 1 finishes it and
// starts item 2, which stops beside item 0, still waiting.
func TestTwoApprovalsAtATime(t *testing.T) {
	ctx := context.Background()
	store := openStore(t)
	c := newCrew()
	process := func() *Each { return NewEach(c, flowcrt.WithCheckpointer(store)) }

	_, err := process().Invoke(ctx, "two", input("approval", 2))
	assert.Equal(t, []string{"Each/0/Review", "Each/1/Review"}, stopKeys(t, err))
	assert.Equal(t, map[string]int{"start a": 1, "start b": 1}, c.snapshot())

	_, err = process().DecideAt(ctx, "two", "Each/1/Review", "yes")
	assert.Equal(t, []string{"Each/0/Review", "Each/2/Review"}, stopKeys(t, err))
	assert.Equal(t, map[string]int{"start a": 1, "start b": 1, "finish b": 1, "start c": 1}, c.snapshot())

	_, err = process().DecideAt(ctx, "two", "Each/2/Review", "yes")
	assert.Equal(t, []string{"Each/0/Review"}, stopKeys(t, err))
	out, err := process().Decide(ctx, "two", "yes")
	require.NoError(t, err)
	assert.Equal(t, []any{"a", "b", "c"}, out)
	assert.Equal(t, allOnce, c.snapshot())
}

// Without a bound, or with one of at least the number of items, every
// item starts at once and all three stop together.
func TestUnboundedStopsAll(t *testing.T) {
	for _, limit := range []int{0, 3, 5} {
		c := newCrew()
		_, err := NewEach(c, flowcrt.WithCheckpointer(flowcrt.NewMemoryCheckpointer())).Invoke(context.Background(), "all", input("approval", limit))
		assert.Equal(t, []string{"Each/0/Review", "Each/1/Review", "Each/2/Review"}, stopKeys(t, err), "MaxConcurrency %d", limit)
		assert.Equal(t, map[string]int{"start a": 1, "start b": 1, "start c": 1}, c.snapshot())
	}
}

// An item that waits for a task token holds its place too: with a bound of
// 2 over three items two tokens are handed out, and completing one
// finishes its item and hands the third its token. Source: Step Functions'
// callback pattern (.waitForTaskToken) in a Map, whose iteration runs
// until the token is answered.
func TestTwoTokensAtATime(t *testing.T) {
	ctx := context.Background()
	store := openStore(t)
	c := newCrew()
	process := func() *Each { return NewEach(c, flowcrt.WithCheckpointer(store)) }

	_, err := process().Invoke(ctx, "tok", input("token", 2))
	var wait *flowcrt.TaskTokenWait
	require.ErrorAs(t, err, &wait)
	assert.Len(t, wait.Tokens, 2)
	assert.Equal(t, []string{"a", "b"}, c.itemsOf(wait.Tokens))
	assert.Equal(t, map[string]int{"start a": 1, "start b": 1, "ask a": 1, "ask b": 1}, c.snapshot())

	_, err = process().Resume(ctx, "tok")
	require.ErrorAs(t, err, &wait)
	assert.Equal(t, []string{"a", "b"}, c.itemsOf(wait.Tokens), "resuming hands out no token")

	_, err = process().SendTaskSuccess(ctx, c.tokens["a"], json.RawMessage(`"done"`))
	require.ErrorAs(t, err, &wait)
	assert.Equal(t, []string{"b", "c"}, c.itemsOf(wait.Tokens), "item c got its token once a finished")
	assert.Equal(t, map[string]int{"start a": 1, "start b": 1, "ask a": 1, "ask b": 1, "finish a": 1, "start c": 1, "ask c": 1}, c.snapshot())

	_, err = process().SendTaskSuccess(ctx, c.tokens["c"], json.RawMessage(`"done"`))
	require.ErrorAs(t, err, &wait)
	assert.Equal(t, []string{"b"}, c.itemsOf(wait.Tokens))
	out, err := process().SendTaskSuccess(ctx, c.tokens["b"], json.RawMessage(`"done"`))
	require.NoError(t, err)
	assert.Equal(t, []any{"a", "b", "c"}, out)
	assert.Equal(t, allOnceAsked, c.snapshot())
}

// A checkpoint written before stops held their place may hold more stops
// than the bound: every one waits on, and each answer goes on with its own
// item. The checkpoint is made by a run without a bound and then resumed
// under a bound of 1, as an old checkpoint is resumed by this runtime.
func TestMoreStopsThanTheBound(t *testing.T) {
	ctx := context.Background()
	store := openStore(t)
	c := newCrew()
	_, err := NewEach(c, flowcrt.WithCheckpointer(store)).Invoke(ctx, "old", input("approval", 0))
	require.Len(t, stopKeys(t, err), 3)
	cp, err := store.Load(ctx, "old")
	require.NoError(t, err)
	cp.State, cp.Step = json.RawMessage(`{"items":["a","b","c"],"wait":"approval","limit":1}`), cp.Step+1
	require.NoError(t, store.Save(ctx, cp))

	_, err = NewEach(c, flowcrt.WithCheckpointer(store)).DecideAt(ctx, "old", "Each/2/Review", "yes")
	assert.Equal(t, []string{"Each/0/Review", "Each/1/Review"}, stopKeys(t, err))
	_, err = NewEach(c, flowcrt.WithCheckpointer(store)).DecideAt(ctx, "old", "Each/0/Review", "yes")
	assert.Equal(t, []string{"Each/1/Review"}, stopKeys(t, err))
	out, err := NewEach(c, flowcrt.WithCheckpointer(store)).Decide(ctx, "old", "yes")
	require.NoError(t, err)
	assert.Equal(t, []any{"a", "b", "c"}, out)
	assert.Equal(t, allOnce, c.snapshot())
}
