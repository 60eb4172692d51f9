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
	flowcimpl "github.com/flowc-dev/flowc/runtime/impl"
)

// asker hands each recipient's token on, keyed by recipient.
type asker struct {
	mu     sync.Mutex
	tokens map[string]string
	sent   chan struct{}
}

func (a *asker) InvokeWaitForTaskToken(_ context.Context, in any) (any, error) {
	p := in.(map[string]any)["Payload"].(map[string]any)
	a.mu.Lock()
	a.tokens[p["to"].(string)] = p["token"].(string)
	a.mu.Unlock()
	a.sent <- struct{}{}
	return nil, nil
}

// Inside a Map each iteration waits in the process for its own token, read
// through JSONata's $states.context.Task.Token, even in a session; each
// answer completes its own iteration.
func TestMapWaitsInProcess(t *testing.T) {
	ctx := context.Background()
	recipients := []any{"ana", "bo", "cy"}
	a := &asker{tokens: map[string]string{}, sent: make(chan struct{}, len(recipients))}
	w := NewNotify(a, flowcrt.WithCheckpointer(flowcrt.NewMemoryCheckpointer()))
	go func() {
		for range recipients {
			<-a.sent
		}
		a.mu.Lock()
		defer a.mu.Unlock()
		assert.Len(t, a.tokens, 3, "three distinct tokens")
		for to, token := range a.tokens {
			_, err := w.SendTaskSuccess(ctx, token, json.RawMessage(`{"answer": "yes from `+to+`"}`))
			assert.NoError(t, err)
		}
	}()
	out, err := w.Invoke(ctx, "n-1", map[string]any{"recipients": recipients})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"answers": []any{"yes from ana", "yes from bo", "yes from cy"}}, out)
}

// With no heartbeat within HeartbeatSeconds (a fake clock, whose sleeps
// pass at once), the in-process wait fails the state; its token is then
// refused as timed out.
func TestInProcessHeartbeatTimeout(t *testing.T) {
	ctx := context.Background()
	a := &asker{tokens: map[string]string{}, sent: make(chan struct{}, 1)}
	w := NewNotify(a, flowcrt.WithClock(flowcrt.NewFakeClock(time.Now())))
	_, err := w.Run(ctx, map[string]any{"recipients": []any{"ana"}})
	assert.Equal(t, flowcrt.StatesHeartbeatTimeout, flowcrt.ErrorName(err))
	assert.ErrorContains(t, err, "within 5s", "the JSONata HeartbeatSeconds applies")
	_, err = w.SendTaskSuccess(ctx, a.tokens["ana"], json.RawMessage(`{}`))
	assert.ErrorIs(t, err, flowcrt.ErrTaskTokenTimedOut)
}

// Where nothing in the process could send the token (flowc run), a wait
// inside a Map stops the run; its token cannot be answered later, and the
// session's checkpoint does not name the state inside the Map.
func TestMapStopsWhereNothingAnswers(t *testing.T) {
	ctx := flowcimpl.StopAtTaskTokens(context.Background())
	a := &asker{tokens: map[string]string{}, sent: make(chan struct{}, 1)}
	store := flowcrt.NewMemoryCheckpointer()
	_, err := NewNotify(a, flowcrt.WithCheckpointer(store)).Invoke(ctx, "n-2", map[string]any{"recipients": []any{"ana"}})
	var wait *flowcrt.TaskTokenWait
	require.ErrorAs(t, err, &wait)
	assert.Equal(t, "Ask", wait.State)
	cp, err := store.Load(ctx, "n-2")
	if err == nil {
		assert.NotEqual(t, "Ask", cp.Position.State)
		assert.Nil(t, cp.Position.Callback)
	}
}
