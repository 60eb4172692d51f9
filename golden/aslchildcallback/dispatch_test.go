package aslchildcallback

import (
	"context"
	"encoding/json"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/checkpoint/sqlite"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// The callback pattern ("Wait for a Callback with Task Token" in the Step
// Functions developer guide) inside state machines compiled into their
// parent: a nested execution started with startExecution.sync:2, and a
// template an Include compiles into each item of a Map. In a session each
// wait stops the run durably, its token in the checkpoint, as a top-level
// callback state does (golden/aslcallback).

// depot does the work, keeps the token each callback handler was handed,
// and counts every call.
type depot struct {
	mu     sync.Mutex
	calls  map[string]int
	tokens map[string]string // by stop, and "courier"
}

func newDepot() *depot { return &depot{calls: map[string]int{}, tokens: map[string]string{}} }

func (d *depot) count(name string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.calls[name]++
}

func (d *depot) Pack(context.Context, any) (any, error) {
	d.count("pack")
	return true, nil
}

func (d *depot) Quote(context.Context, any) (any, error) {
	d.count("quote")
	return 12.5, nil
}

func (d *depot) SendMessageWaitForTaskToken(_ context.Context, in any) (any, error) {
	body := in.(map[string]any)["MessageBody"].(map[string]any)
	d.mu.Lock()
	defer d.mu.Unlock()
	d.calls["confirm"]++
	d.tokens["courier"] = body["TaskToken"].(string)
	return nil, nil
}

func (d *depot) InvokeWaitForTaskToken(_ context.Context, in any) (any, error) {
	p := in.(map[string]any)["Payload"].(map[string]any)
	stop := p["Stop"].(string)
	d.mu.Lock()
	defer d.mu.Unlock()
	d.calls["ring "+stop]++
	d.tokens[stop] = p["TaskToken"].(string)
	return nil, nil
}

func (d *depot) Log(_ context.Context, in any) (any, error) {
	d.count("log " + in.(map[string]any)["stop"].(string))
	return in, nil
}

func (d *depot) Close(_ context.Context, in any) (any, error) {
	d.count("close")
	return in, nil
}

func (d *depot) token(name string) string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.tokens[name]
}

var parcel = map[string]any{"parcel": "p-9", "stops": []any{"mill", "quay"}}

// tokenWait is the *TaskTokenWait err is.
func tokenWait(t *testing.T, err error) *flowcrt.TaskTokenWait {
	t.Helper()
	var wait *flowcrt.TaskTokenWait
	require.ErrorAs(t, err, &wait)
	return wait
}

// A session stops at the callback state of the courier machine that
// "Book" runs compiled in: durably, its checkpoint at "Book" with the
// position inside the child and the token. Resuming waits again without
// asking again; a success sent from another workflow value completes the
// child, and the run stops at both stops of the Map, inside the template
// each item's Include runs, with a token each. Each is answered on its
// own; a used token is refused and runs nothing; nothing that finished
// runs again.
func TestCallbacksInsideCompiledInChildren(t *testing.T) {
	ctx := context.Background()
	store, err := sqlite.Open(filepath.Join(t.TempDir(), "dispatch.db"))
	require.NoError(t, err)
	defer store.Close()
	d := newDepot()
	process := func() *Dispatch { return NewDispatch(d, flowcrt.WithCheckpointer(store)) }

	_, err = process().Invoke(ctx, "d1", parcel)
	wait := tokenWait(t, err)
	assert.Equal(t, "Book/Confirm", wait.State)
	assert.Equal(t, "d1", wait.Session)
	assert.Equal(t, d.token("courier"), wait.Token)
	cp, err := store.Load(ctx, "d1")
	require.NoError(t, err)
	assert.Equal(t, flowcrt.StatusWaiting, cp.Status)
	assert.Equal(t, "Book", cp.Position.State)
	require.Len(t, cp.Position.Inside, 1)
	assert.Equal(t, "Book/Confirm", cp.Position.Inside[0].State)

	_, err = process().Resume(ctx, "d1")
	assert.Equal(t, d.token("courier"), tokenWait(t, err).Token, "the same token waits")
	assert.Equal(t, map[string]int{"pack": 1, "quote": 1, "confirm": 1}, d.calls, "resuming asked nobody again")

	_, err = process().SendTaskSuccess(ctx, d.token("courier"), json.RawMessage(`{"courier": "ann"}`))
	wait = tokenWait(t, err)
	assert.Equal(t, "Deliver/0/Sign/Ring", wait.State)
	assert.Equal(t, []string{d.token("mill"), d.token("quay")}, wait.Tokens)
	cp, err = store.Load(ctx, "d1")
	require.NoError(t, err)
	assert.Equal(t, flowcrt.StatusWaiting, cp.Status)
	assert.Equal(t, "Deliver", cp.Position.State)

	_, err = process().SendTaskSuccess(ctx, d.token("courier"), json.RawMessage(`{}`))
	assert.ErrorIs(t, err, flowcrt.ErrTaskTokenUsed)

	_, err = process().SendTaskSuccess(ctx, d.token("quay"), json.RawMessage(`"bob"`))
	wait = tokenWait(t, err)
	assert.Equal(t, []string{d.token("mill")}, wait.Tokens, "the other stop waits still")
	assert.Equal(t, 1, d.calls["log quay"])
	assert.Equal(t, 0, d.calls["log mill"])

	_, err = process().SendTaskSuccess(ctx, d.token("quay"), json.RawMessage(`"eve"`))
	assert.ErrorIs(t, err, flowcrt.ErrTaskTokenUsed)

	out, err := process().SendTaskSuccess(ctx, d.token("mill"), json.RawMessage(`"cy"`))
	require.NoError(t, err)
	assert.Equal(t, map[string]any{
		"parcel": "p-9", "stops": []any{"mill", "quay"}, "packed": true,
		"booking":    map[string]any{"confirmation": map[string]any{"courier": "ann"}},
		"signatures": []any{map[string]any{"stop": "mill", "signature": "cy"}, map[string]any{"stop": "quay", "signature": "bob"}},
	}, out, "each child's result, through the parent's ResultSelector and ResultPath")
	assert.Equal(t, map[string]int{"pack": 1, "quote": 1, "confirm": 1, "ring mill": 1, "ring quay": 1,
		"log mill": 1, "log quay": 1, "close": 1}, d.calls)
	cp, err = store.Load(ctx, "d1")
	require.NoError(t, err)
	assert.Equal(t, flowcrt.StatusFinished, cp.Status)
}

// The TimeoutSeconds of a callback state inside a compiled-in child runs
// from when the state first waited, in the checkpoint: once it has passed
// the token is refused, and resuming fails the state with States.Timeout.
func TestChildCallbackTimesOut(t *testing.T) {
	ctx := context.Background()
	clock := flowcrt.NewFakeClock(time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC))
	store := flowcrt.NewMemoryCheckpointer()
	d := newDepot()
	process := func() *Dispatch {
		return NewDispatch(d, flowcrt.WithCheckpointer(store), flowcrt.WithClock(clock))
	}
	_, err := process().Invoke(ctx, "d2", parcel)
	tokenWait(t, err)
	clock.Sleep(ctx, 2*time.Hour)
	_, err = process().SendTaskSuccess(ctx, d.token("courier"), json.RawMessage(`{}`))
	assert.ErrorIs(t, err, flowcrt.ErrTaskTokenTimedOut)
	_, err = process().Resume(ctx, "d2")
	assert.Equal(t, "States.TaskFailed", flowcrt.ErrorName(err), "the child failed with States.Timeout, and so the nested execution")
	assert.ErrorContains(t, err, "States.Timeout")
	assert.Equal(t, 1, d.calls["confirm"])
}
