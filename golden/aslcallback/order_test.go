package aslcallback

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
	flowcrun "github.com/flowc-dev/flowc/flowrun"
	flowcrt "github.com/flowc-dev/flowc/runtime"
	flowcasl "github.com/flowc-dev/flowc/runtime/impl/asl"
)

// The callback pattern as the Step Functions developer guide describes it
// ("Wait for a Callback with Task Token"): the state hands its integration
// $$.Task.Token and completes only when SendTaskSuccess or SendTaskFailure
// arrives for it; HeartbeatSeconds and TimeoutSeconds bound the wait
// (States.HeartbeatTimeout, States.Timeout).

// shop reserves and ships, and sends approval requests: it keeps the task
// token each request carried, and counts its calls.
type shop struct {
	mu                       sync.Mutex
	reserves, asks, shipping int
	tokens                   []string
	sent                     chan string // when set, each token is sent here too
}

func (s *shop) Reserve(context.Context, any) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reserves++
	return "r-1", nil
}

func (s *shop) SendMessageWaitForTaskToken(_ context.Context, in any) (any, error) {
	body := in.(map[string]any)["MessageBody"].(map[string]any)
	token := body["TaskToken"].(string)
	s.mu.Lock()
	s.asks++
	s.tokens = append(s.tokens, token)
	s.mu.Unlock()
	if s.sent != nil {
		s.sent <- token
	}
	return map[string]any{"MessageId": "m-1"}, nil // dropped, as AWS drops the integration's response
}

func (s *shop) Ship(context.Context, any) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.shipping++
	return true, nil
}

func openStore(t *testing.T) *sqlite.Store {
	t.Helper()
	store, err := sqlite.Open(filepath.Join(t.TempDir(), "orders.db"))
	require.NoError(t, err)
	t.Cleanup(func() { store.Close() })
	return store
}

var order = map[string]any{"order": map[string]any{"id": "o-7"}}

// waitFor starts session id and returns the token its run stops for.
func waitFor(t *testing.T, w *Order, id string) string {
	t.Helper()
	_, err := w.Invoke(context.Background(), id, order)
	var wait *flowcrt.TaskTokenWait
	require.ErrorAs(t, err, &wait)
	assert.Equal(t, "AskApproval", wait.State)
	assert.Equal(t, id, wait.Session)
	return wait.Token
}

// The run stops at the callback state, durably; another workflow value
// over the same store sends the success, and the run finishes with the
// output as the state's result, through ResultSelector and ResultPath.
func TestSuccessFromAnotherWorkflowValue(t *testing.T) {
	ctx := context.Background()
	store := openStore(t)
	first := &shop{}
	token := waitFor(t, NewOrder(first, flowcrt.WithCheckpointer(store)), "o-7")
	assert.Equal(t, []string{token}, first.tokens, "the handler got the token of the wait")

	cp, err := store.Load(ctx, "o-7")
	require.NoError(t, err)
	assert.Equal(t, flowcrt.StatusWaiting, cp.Status)
	assert.Equal(t, "AskApproval", cp.Position.State)
	assert.JSONEq(t, `{"order": {"id": "o-7"}, "reservation": "r-1"}`, string(cp.State))

	// Resuming without an answer waits again for the same token, without
	// asking again.
	_, err = NewOrder(first, flowcrt.WithCheckpointer(store)).Resume(ctx, "o-7")
	var wait *flowcrt.TaskTokenWait
	require.ErrorAs(t, err, &wait)
	assert.Equal(t, token, wait.Token)
	assert.Equal(t, 1, first.asks)

	second := &shop{}
	out, err := NewOrder(second, flowcrt.WithCheckpointer(store)).SendTaskSuccess(ctx, token, json.RawMessage(`{"approver": "ana"}`))
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"order": map[string]any{"id": "o-7"}, "reservation": "r-1",
		"approval": map[string]any{"approvedBy": "ana"}, "shipped": true}, out)
	assert.Equal(t, 0, second.reserves+second.asks, "nothing before the callback ran again")
	assert.Equal(t, 1, second.shipping)

	_, err = NewOrder(second, flowcrt.WithCheckpointer(store)).SendTaskSuccess(ctx, token, json.RawMessage(`{}`))
	assert.ErrorIs(t, err, flowcrt.ErrTaskTokenUsed)
	assert.Equal(t, 1, second.shipping, "a refused token runs nothing")
}

// A failure sent for the token goes through the state's Catch.
func TestFailureCaught(t *testing.T) {
	w := NewOrder(&shop{}, flowcrt.WithCheckpointer(openStore(t)))
	token := waitFor(t, w, "o-7")
	out, err := w.SendTaskFailure(context.Background(), token, "Rejected", "out of stock")
	require.NoError(t, err)
	assert.Equal(t, "cancelled", out.(map[string]any)["status"])
	assert.Equal(t, map[string]any{"Error": "Rejected", "Cause": "out of stock"}, out.(map[string]any)["error"])
}

// A failure a retrier matches runs the state again: the handler is asked
// again with a fresh token, and the old one is refused.
func TestFailureRetried(t *testing.T) {
	ctx := context.Background()
	h := &shop{}
	w := NewOrder(h, flowcrt.WithCheckpointer(openStore(t)), flowcrt.WithClock(flowcrt.NewFakeClock(time.Now())))
	token := waitFor(t, w, "o-7")
	_, err := w.SendTaskFailure(ctx, token, "Busy", "try later")
	var wait *flowcrt.TaskTokenWait
	require.ErrorAs(t, err, &wait)
	assert.NotEqual(t, token, wait.Token)
	assert.Equal(t, []string{token, wait.Token}, h.tokens)

	_, err = w.SendTaskSuccess(ctx, token, json.RawMessage(`{"approver": "bo"}`))
	assert.ErrorIs(t, err, flowcrt.ErrTaskTokenUsed)
	out, err := w.SendTaskSuccess(ctx, wait.Token, json.RawMessage(`{"approver": "bo"}`))
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"approvedBy": "bo"}, out.(map[string]any)["approval"])
}

// HeartbeatSeconds bounds the time between heartbeats and TimeoutSeconds
// the whole wait; a token past either is refused, and resuming the
// session fails the state with the timeout, which Catch takes.
func TestHeartbeatAndTimeout(t *testing.T) {
	ctx := context.Background()
	clock := flowcrt.NewFakeClock(time.Date(2026, 1, 2, 9, 0, 0, 0, time.UTC))
	store := openStore(t)
	w := NewOrder(&shop{}, flowcrt.WithCheckpointer(store), flowcrt.WithClock(clock))

	token := waitFor(t, w, "beats")
	for range 7 { // 63 minutes of heartbeats every 9
		require.NoError(t, clock.Sleep(ctx, 9*time.Minute))
		if err := w.SendTaskHeartbeat(ctx, token); err != nil {
			assert.ErrorIs(t, err, flowcrt.ErrTaskTokenTimedOut)
			break
		}
	}
	_, err := w.SendTaskSuccess(ctx, token, json.RawMessage(`{"approver": "late"}`))
	assert.ErrorIs(t, err, flowcrt.ErrTaskTokenTimedOut)
	out, err := w.Resume(ctx, "beats")
	require.NoError(t, err)
	assert.Equal(t, "States.Timeout", out.(map[string]any)["error"].(map[string]any)["Error"])

	token = waitFor(t, w, "silent")
	require.NoError(t, clock.Sleep(ctx, 11*time.Minute))
	err = w.SendTaskHeartbeat(ctx, token)
	assert.ErrorIs(t, err, flowcrt.ErrTaskTokenTimedOut)
	out, err = w.Resume(ctx, "silent")
	require.NoError(t, err, "States.Timeout catches a heartbeat timeout")
	assert.Equal(t, map[string]any{"Error": "States.HeartbeatTimeout", "Cause": `no heartbeat was sent for the task token of state "AskApproval" within 10m0s`},
		out.(map[string]any)["error"])
}

// Tokens that are no token, or that name a session that does not exist,
// are refused.
func TestRefused(t *testing.T) {
	ctx := context.Background()
	store := openStore(t)
	w := NewOrder(&shop{}, flowcrt.WithCheckpointer(store))
	_, err := w.SendTaskSuccess(ctx, "abc", json.RawMessage(`{}`))
	assert.ErrorIs(t, err, flowcrt.ErrTaskTokenInvalid)

	token := waitFor(t, w, "o-7")
	require.NoError(t, store.Delete(ctx, "o-7"))
	_, err = w.SendTaskSuccess(ctx, token, json.RawMessage(`{}`))
	assert.ErrorIs(t, err, flowcrt.ErrTaskTokenUnknown)

	token = waitFor(t, w, "o-8")
	_, err = w.SendTaskSuccess(ctx, token, json.RawMessage(`{not json`))
	assert.ErrorContains(t, err, "not JSON")
	assert.ErrorIs(t, w.SendTaskHeartbeat(ctx, token+"x"), flowcrt.ErrTaskTokenInvalid)
}

// Without a session the run waits in its process; the Go API answers it
// from another goroutine.
func TestInProcess(t *testing.T) {
	ctx := context.Background()
	h := &shop{sent: make(chan string, 1)}
	w := NewOrder(h)
	answered := make(chan error, 1)
	go func() {
		out, err := w.SendTaskSuccess(ctx, <-h.sent, json.RawMessage(`{"approver": "cy"}`))
		assert.Nil(t, out, "the run goes on in its own goroutine")
		answered <- err
	}()
	out, err := w.Run(ctx, order)
	require.NoError(t, err)
	require.NoError(t, <-answered)
	assert.Equal(t, map[string]any{"approvedBy": "cy"}, out.(map[string]any)["approval"])
	_, err = w.SendTaskSuccess(ctx, h.tokens[0], json.RawMessage(`{}`))
	assert.ErrorIs(t, err, flowcrt.ErrTaskTokenUsed)
}

// As in Step Functions Local, a mocked callback task never reaches the
// service that would send its token back: its mocked response is its
// result. Without a mock for it the run waits for the token; in a process
// where nothing could send it (flowc run, a built program) it stops.
func TestMockedCallback(t *testing.T) {
	cfg, err := flowcrun.ParseMockConfig([]byte(`{
		"StateMachines": {"order": {"TestCases": {
			"approved": {"AskApproval": "Approved"},
			"unmocked": {}
		}}},
		"MockedResponses": {"Approved": {"0": {"Return": {"approver": "mock"}}}}
	}`))
	require.NoError(t, err)
	m, err := cfg.Case("order", "approved")
	require.NoError(t, err)
	out, err := NewOrderMock(m).Run(context.Background(), order)
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"approvedBy": "mock"}, out.(map[string]any)["approval"])

	m, err = cfg.Case("order", "unmocked")
	require.NoError(t, err)
	_, err = NewOrderMock(m).Run(flowcasl.StopAtTaskTokens(context.Background()), order)
	var wait *flowcrt.TaskTokenWait
	require.ErrorAs(t, err, &wait)
	assert.Equal(t, "AskApproval", wait.State)
	assert.Empty(t, wait.Session, "no session: it cannot be continued")
}
