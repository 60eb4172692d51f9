package aslcallback

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrt "github.com/flowc-dev/flowc/runtime"
	flowcasl "github.com/flowc-dev/flowc/runtime/impl/asl"
)

// asker hands each recipient's token on, keyed by recipient.
type asker struct {
	mu     sync.Mutex
	tokens map[string]string
	calls  map[string]int
	sent   chan struct{}
}

func (a *asker) InvokeWaitForTaskToken(_ context.Context, in any) (any, error) {
	p := in.(map[string]any)["Payload"].(map[string]any)
	a.mu.Lock()
	a.tokens[p["to"].(string)] = p["token"].(string)
	a.calls[p["to"].(string)]++
	a.mu.Unlock()
	a.sent <- struct{}{}
	return nil, nil
}

// Without a session each iteration of a Map waits in the process for its
// own token, read through JSONata's $states.context.Task.Token; each
// answer completes its own iteration, and a failure is caught by the
// iteration's Catch.
func TestMapWaitsInProcess(t *testing.T) {
	out := runInProcess(t)
	assert.Equal(t, map[string]any{"answers": []any{"yes from ana", "declined: busy", "yes from cy"}}, out)
}

// runInProcess runs the Map over ana, bo and cy without a session,
// answering each from another goroutine: bo with the failure Declined.
func runInProcess(t *testing.T) any {
	t.Helper()
	ctx := context.Background()
	recipients := []any{"ana", "bo", "cy"}
	a := newAsker()
	w := NewNotify(a)
	go func() {
		for range recipients {
			<-a.sent
		}
		a.mu.Lock()
		defer a.mu.Unlock()
		assert.Len(t, a.tokens, 3, "three distinct tokens")
		for to, token := range a.tokens {
			_, err := answer(ctx, w, to, token)
			assert.NoError(t, err)
		}
	}()
	out, err := w.Run(ctx, map[string]any{"recipients": recipients})
	require.NoError(t, err)
	return out
}

func newAsker() *asker {
	return &asker{tokens: map[string]string{}, calls: map[string]int{}, sent: make(chan struct{}, 16)}
}

// answer sends to's answer: bo declines, the others say yes. It returns
// what the run then does.
func answer(ctx context.Context, w *Notify, to, token string) (any, error) {
	if to == "bo" {
		return w.SendTaskFailure(ctx, token, "Declined", "busy")
	}
	return w.SendTaskSuccess(ctx, token, json.RawMessage(`{"answer": "yes from `+to+`"}`))
}

// In a session each iteration stops at its callback state, durably, as a
// stop of its item (docs/sessions.md, "Task tokens inside fan-outs"): the
// run stops once all three wait, listing their tokens. Each answer, sent
// from a new workflow value over the same SQLite store, completes only its
// item; the others wait again, and none asks twice. The output is the
// uninterrupted run's.
func TestMapStopsPerItem(t *testing.T) {
	ctx := context.Background()
	store := openStore(t)
	a := newAsker()
	_, err := NewNotify(a, flowcrt.WithCheckpointer(store)).Invoke(ctx, "n-3", map[string]any{"recipients": []any{"ana", "bo", "cy"}})
	var wait *flowcrt.TaskTokenWait
	require.ErrorAs(t, err, &wait)
	assert.Equal(t, "n-3", wait.Session)
	assert.Equal(t, "Confirm/0/Ask", wait.State)
	assert.Equal(t, []string{a.tokens["ana"], a.tokens["bo"], a.tokens["cy"]}, wait.Tokens)
	assert.Equal(t, wait.Tokens[0], wait.Token)

	var out any
	for n, to := range []string{"cy", "bo", "ana"} {
		w := NewNotify(a, flowcrt.WithCheckpointer(store))
		require.NoError(t, w.SendTaskHeartbeat(ctx, a.tokens[to]))
		res, err := answer(ctx, w, to, a.tokens[to])
		if n < 2 {
			require.ErrorAs(t, err, &wait, "answering %s", to)
			assert.Len(t, wait.Tokens, 2-n, "the others still wait")
			assert.NotContains(t, wait.Tokens, a.tokens[to])
			continue
		}
		require.NoError(t, err)
		out = res
	}
	assert.Equal(t, map[string]int{"ana": 1, "bo": 1, "cy": 1}, a.calls, "each item asked once")
	assert.Equal(t, runInProcess(t), out)

	_, err = NewNotify(a, flowcrt.WithCheckpointer(store)).SendTaskSuccess(ctx, a.tokens["cy"], json.RawMessage(`{}`))
	assert.ErrorIs(t, err, flowcrt.ErrTaskTokenUsed)
}

// An item's HeartbeatSeconds keeps across the run's stop: a token answered
// after it has passed is refused, and resuming fails that item with
// States.HeartbeatTimeout.
func TestMapItemDeadlineKeeps(t *testing.T) {
	ctx := context.Background()
	clock := flowcrt.NewFakeClock(time.Now())
	store := openStore(t)
	a := newAsker()
	w := NewNotify(a, flowcrt.WithCheckpointer(store), flowcrt.WithClock(clock))
	_, err := w.Invoke(ctx, "n-4", map[string]any{"recipients": []any{"ana", "bo"}})
	require.ErrorAs(t, err, new(*flowcrt.TaskTokenWait))
	require.NoError(t, clock.Sleep(ctx, 6*time.Second))
	_, err = w.SendTaskSuccess(ctx, a.tokens["ana"], json.RawMessage(`{"answer": "late"}`))
	assert.ErrorIs(t, err, flowcrt.ErrTaskTokenTimedOut)
	_, err = w.Resume(ctx, "n-4")
	assert.Equal(t, flowcrt.StatesHeartbeatTimeout, flowcrt.ErrorName(err))
}

// With no heartbeat within HeartbeatSeconds (a fake clock, whose sleeps
// pass at once), the in-process wait fails the state; its token is then
// refused as timed out.
func TestInProcessHeartbeatTimeout(t *testing.T) {
	ctx := context.Background()
	a := newAsker()
	w := NewNotify(a, flowcrt.WithClock(flowcrt.NewFakeClock(time.Now())))
	_, err := w.Run(ctx, map[string]any{"recipients": []any{"ana"}})
	assert.Equal(t, flowcrt.StatesHeartbeatTimeout, flowcrt.ErrorName(err))
	assert.ErrorContains(t, err, "within 5s", "the JSONata HeartbeatSeconds applies")
	_, err = w.SendTaskSuccess(ctx, a.tokens["ana"], json.RawMessage(`{}`))
	assert.ErrorIs(t, err, flowcrt.ErrTaskTokenTimedOut)
}

// Where nothing in the process could send the token (flowc run) and no
// session could keep it, a wait inside a Map stops the run, which cannot
// be continued.
func TestMapStopsWhereNothingAnswers(t *testing.T) {
	ctx := flowcasl.StopAtTaskTokens(context.Background())
	_, err := NewNotify(newAsker()).Run(ctx, map[string]any{"recipients": []any{"ana"}})
	var wait *flowcrt.TaskTokenWait
	require.ErrorAs(t, err, &wait)
	assert.Equal(t, "Ask", wait.State)
	assert.Empty(t, wait.Session)
}
