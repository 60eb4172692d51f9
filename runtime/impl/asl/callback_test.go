package asl

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/flowc-dev/flowc/runtime/impl"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// AWS error handling: States.Timeout also matches a heartbeat timeout, and
// States.TaskFailed matches neither.
func TestHeartbeatTimeoutMatching(t *testing.T) {
	err := &impl.Error{Name: impl.StatesHeartbeatTimeout}
	assert.True(t, matchASL(err, []string{impl.StatesTimeout}, true))
	assert.True(t, matchASL(err, []string{impl.StatesHeartbeatTimeout}, true))
	assert.True(t, matchASL(err, []string{statesALL}, true))
	assert.False(t, matchASL(err, []string{statesTaskFailed}, true))
}

// Without a session, a wait in the process ends with its context.
func TestInProcessWaitHonoursContext(t *testing.T) {
	cfg := impl.NewConfig()
	x, _, err := NewASLExec(&cfg, "m", nil, nil)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	body := x.Callback(&ASLState{Name: "Ask"}, func(context.Context, any) (any, error) {
		cancel()
		return nil, nil
	}, 0, true)
	cx := x.EnterCallback(ctx, "Ask")
	_, err = body(ctx, cx, newObject(0))
	assert.ErrorIs(t, err, context.Canceled)
	assert.Empty(t, cx.token, "a retry would get a new token")
}

// A handler's failure fails the state at once: nothing waits.
func TestCallbackHandlerFails(t *testing.T) {
	cfg := impl.NewConfig()
	x, _, err := NewASLExec(&cfg, "m", nil, nil)
	require.NoError(t, err)
	body := x.Callback(&ASLState{Name: "Ask"}, func(context.Context, any) (any, error) {
		return nil, &impl.Error{Name: "QueueMissing", Cause: "no queue"}
	}, time.Second, false)
	ctx := context.Background()
	_, err = body(ctx, x.EnterCallback(ctx, "Ask"), newObject(0))
	assert.Equal(t, "QueueMissing", impl.ErrorName(err))
}

// $$.Task.Token is a real token only in a callback state; the result line
// of a waiting run names the state and its token.
func TestContextTokenAndResultLine(t *testing.T) {
	cfg := impl.NewConfig()
	x, _, err := NewASLExec(&cfg, "m", nil, nil)
	require.NoError(t, err)
	ctx := context.Background()
	cx := x.EnterCallback(ctx, "Ask")
	task, _ := cx.value().(*Object).Get("Task")
	v, _ := task.(*Object).Get("Token")
	token := v.(string)
	_, state, err := impl.TaskTokenOwner(token)
	require.NoError(t, err)
	assert.Equal(t, "Ask", state)
	assert.Equal(t, token, cx.taskToken(), "one token per attempt")
	_, _, err = impl.TaskTokenOwner(x.Enter(ctx, "Other").taskToken())
	assert.ErrorIs(t, err, impl.ErrTaskTokenInvalid)

	line := impl.ResultLine(nil, StateFailed("Ask", &impl.TaskTokenWait{Session: "s", State: "Ask", Token: token}))
	assert.JSONEq(t, `{"status": "WAITING", "state": "Ask", "task_token": "`+token+`"}`, string(line))
}

// A heartbeat for a wait without HeartbeatSeconds changes nothing; the
// success sent after it completes the state (in the process, no session).
func TestInProcessHeartbeatWithoutHeartbeatSeconds(t *testing.T) {
	cfg := impl.NewConfig()
	x, _, err := NewASLExec(&cfg, "m", nil, nil)
	require.NoError(t, err)
	tokens := make(chan string, 1)
	body := x.Callback(&ASLState{Name: "Ask"}, func(ctx context.Context, in any) (any, error) {
		tokens <- in.(map[string]any)["token"].(string)
		return nil, nil
	}, 0, false)
	s := &impl.Sessions[any, any]{}
	go func() {
		token := <-tokens
		assert.NoError(t, s.SendTaskHeartbeat(context.Background(), &cfg, token))
		_, err := s.SendTaskSuccess(context.Background(), &cfg, token, json.RawMessage(`"done"`))
		assert.NoError(t, err)
	}()
	ctx := context.Background()
	cx := x.EnterCallback(ctx, "Ask")
	out, err := body(ctx, cx, map[string]any{"token": cx.taskToken()})
	require.NoError(t, err)
	assert.Equal(t, "done", out)
}

// HeartbeatSecondsPath reads the heartbeat from the effective input; a
// value that is not a whole number of at least 1 is States.Runtime.
func TestHeartbeatSecondsPath(t *testing.T) {
	cfg := impl.NewConfig(impl.WithClock(impl.NewFakeClock(time.Now())))
	x, _, err := NewASLExec(&cfg, "m", nil, nil)
	require.NoError(t, err)
	st := &ASLState{Name: "Ask", HeartbeatPath: &JSONPath{Src: "$.beat", Segs: []PathSeg{Field("beat")}}}
	body := x.Callback(st, func(context.Context, any) (any, error) { return nil, nil }, 0, false)
	ctx := context.Background()
	in, err := DecodeASLInput([]byte(`{"beat": 7}`))
	require.NoError(t, err)
	_, err = body(ctx, x.EnterCallback(ctx, "Ask"), in)
	assert.Equal(t, impl.StatesHeartbeatTimeout, impl.ErrorName(err))
	assert.ErrorContains(t, err, "within 7s")

	in, err = DecodeASLInput([]byte(`{"beat": 0.5}`))
	require.NoError(t, err)
	_, err = body(ctx, x.EnterCallback(ctx, "Ask"), in)
	assert.Equal(t, impl.StatesRuntime, impl.ErrorName(err))
}
