package impl

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A token says its session and state, and 128 random bits that no two
// tokens share (Step Functions: a task token is opaque and unguessable;
// SendTaskSuccess refuses a malformed one with InvalidToken).
func TestTaskTokenFormat(t *testing.T) {
	seen := map[string]bool{}
	for range 1000 {
		token := newTaskToken("s-1", "Ask")
		require.False(t, seen[token], "tokens repeat")
		seen[token] = true
		c, err := parseTaskToken(token)
		require.NoError(t, err)
		assert.Equal(t, "s-1", c.Session)
		assert.Equal(t, "Ask", c.State)
		assert.Len(t, c.Nonce, 32, "128 bits, hex")
	}
	nonces := map[byte]int{}
	for token := range seen {
		c, _ := parseTaskToken(token)
		nonces[c.Nonce[0]]++
	}
	assert.Len(t, nonces, 16, "the nonce's first digit takes every value over 1000 tokens")
}

func TestTaskTokenRefusedFormats(t *testing.T) {
	enc := func(s string) string { return tokenPrefix + base64.RawURLEncoding.EncodeToString([]byte(s)) }
	for name, token := range map[string]string{
		"empty":         "",
		"other system":  "AAAAKgAAAAIAAAAAAAAAAQ",
		"not base64":    tokenPrefix + "!!!",
		"not JSON":      enc("nope"),
		"no state":      enc(`{"s":"x","n":"00112233445566778899aabbccddeeff"}`),
		"short nonce":   enc(`{"s":"x","t":"A","n":"0011"}`),
		"huge document": tokenPrefix + strings.Repeat("A", 500),
	} {
		t.Run(name, func(t *testing.T) {
			_, err := parseTaskToken(token)
			require.ErrorIs(t, err, ErrTaskTokenInvalid)
			assert.Less(t, len(err.Error()), 200, "the message stays short")
		})
	}
}

// A wait's deadlines: TimeoutSeconds is States.Timeout, HeartbeatSeconds
// States.HeartbeatTimeout, whichever comes first.
func TestCallbackDeadlines(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	w := &CallbackWait{State: "Ask", Until: start.Add(time.Hour), Heartbeat: 10 * time.Minute, Beat: start.Add(10 * time.Minute)}
	assert.Equal(t, w.Beat, w.Next())
	assert.NoError(t, w.Expired(start.Add(9*time.Minute)))
	assert.Equal(t, StatesHeartbeatTimeout, ErrorName(w.Expired(start.Add(10*time.Minute))))
	w.Beat = start.Add(70 * time.Minute)
	assert.Equal(t, w.Until, w.Next())
	assert.Equal(t, StatesTimeout, ErrorName(w.Expired(start.Add(time.Hour))))
	assert.True(t, (&CallbackWait{}).Next().IsZero(), "no deadline: waits for ever")
}

// AWS error handling: States.Timeout also matches a heartbeat timeout, and
// States.TaskFailed matches neither.
func TestHeartbeatTimeoutMatching(t *testing.T) {
	err := &Error{Name: StatesHeartbeatTimeout}
	assert.True(t, matchASL(err, []string{StatesTimeout}, true))
	assert.True(t, matchASL(err, []string{StatesHeartbeatTimeout}, true))
	assert.True(t, matchASL(err, []string{statesALL}, true))
	assert.False(t, matchASL(err, []string{statesTaskFailed}, true))
}

// The registry of in-process waits delivers one answer per token and
// refuses it after, as used or as timed out.
func TestLiveRegistry(t *testing.T) {
	r := &liveRegistry{waits: map[string]*LiveWait{}, ended: map[string]error{}}
	found, err := r.send("nobody", &CallbackAnswer{})
	assert.False(t, found)
	assert.NoError(t, err)

	w := r.add("t1")
	found, err = r.send("t1", nil)
	assert.True(t, found)
	assert.NoError(t, err)
	found, err = r.send("t1", nil)
	assert.True(t, found && err == nil, "a second heartbeat before the first is read is no error")
	assert.Len(t, w.Beats, 1)
	_, err = r.send("t1", &CallbackAnswer{Output: json.RawMessage(`1`)})
	require.NoError(t, err)
	assert.Equal(t, json.RawMessage(`1`), (<-w.Answers).Output)
	_, err = r.send("t1", &CallbackAnswer{})
	assert.ErrorIs(t, err, ErrTaskTokenUsed)
	r.remove("t1")
	_, err = r.send("t1", nil)
	assert.ErrorIs(t, err, ErrTaskTokenUsed, "remembered after the wait ended")

	r.end("t2", ErrTaskTokenTimedOut)
	_, err = r.send("t2", &CallbackAnswer{})
	assert.ErrorIs(t, err, ErrTaskTokenTimedOut)

	for i := range 2 * maxEnded {
		r.end(fmt.Sprint(i), ErrTaskTokenUsed)
	}
	assert.LessOrEqual(t, len(r.ended), maxEnded, "what it remembers is bounded")
}

// Without a session, a wait in the process ends with its context.
func TestInProcessWaitHonoursContext(t *testing.T) {
	cfg := NewConfig()
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
	cfg := NewConfig()
	x, _, err := NewASLExec(&cfg, "m", nil, nil)
	require.NoError(t, err)
	body := x.Callback(&ASLState{Name: "Ask"}, func(context.Context, any) (any, error) {
		return nil, &Error{Name: "QueueMissing", Cause: "no queue"}
	}, time.Second, false)
	ctx := context.Background()
	_, err = body(ctx, x.EnterCallback(ctx, "Ask"), newObject(0))
	assert.Equal(t, "QueueMissing", ErrorName(err))
}

// $$.Task.Token is a real token only in a callback state; the result line
// of a waiting run names the state and its token.
func TestContextTokenAndResultLine(t *testing.T) {
	cfg := NewConfig()
	x, _, err := NewASLExec(&cfg, "m", nil, nil)
	require.NoError(t, err)
	ctx := context.Background()
	cx := x.EnterCallback(ctx, "Ask")
	task, _ := cx.value().(*Object).Get("Task")
	v, _ := task.(*Object).Get("Token")
	token := v.(string)
	c, err := parseTaskToken(token)
	require.NoError(t, err)
	assert.Equal(t, "Ask", c.State)
	assert.Equal(t, token, cx.taskToken(), "one token per attempt")
	_, err = parseTaskToken(x.Enter(ctx, "Other").taskToken())
	assert.ErrorIs(t, err, ErrTaskTokenInvalid)

	line := ResultLine(nil, StateFailed("Ask", &TaskTokenWait{Session: "s", State: "Ask", Token: token}))
	assert.JSONEq(t, `{"status": "WAITING", "state": "Ask", "task_token": "`+token+`"}`, string(line))
}

// A checkpoint's copy does not share the wait with the original.
func TestCheckpointCloneCallback(t *testing.T) {
	c := &Checkpoint{Position: Position{State: "Ask", Callback: &CallbackWait{State: "Ask", Answer: &CallbackAnswer{Error: "E"}}}}
	out := c.clone()
	out.Position.Callback.Answer.Error = "F"
	assert.Equal(t, "E", c.Position.Callback.Answer.Error)
}

// A heartbeat for a wait without HeartbeatSeconds changes nothing; the
// success sent after it completes the state (in the process, no session).
func TestInProcessHeartbeatWithoutHeartbeatSeconds(t *testing.T) {
	cfg := NewConfig()
	x, _, err := NewASLExec(&cfg, "m", nil, nil)
	require.NoError(t, err)
	tokens := make(chan string, 1)
	body := x.Callback(&ASLState{Name: "Ask"}, func(ctx context.Context, in any) (any, error) {
		tokens <- in.(map[string]any)["token"].(string)
		return nil, nil
	}, 0, false)
	s := &Sessions[any, any]{}
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
	cfg := NewConfig(WithClock(NewFakeClock(time.Now())))
	x, _, err := NewASLExec(&cfg, "m", nil, nil)
	require.NoError(t, err)
	st := &ASLState{Name: "Ask", HeartbeatPath: &JSONPath{Src: "$.beat", Segs: []PathSeg{Field("beat")}}}
	body := x.Callback(st, func(context.Context, any) (any, error) { return nil, nil }, 0, false)
	ctx := context.Background()
	in, err := DecodeASLInput([]byte(`{"beat": 7}`))
	require.NoError(t, err)
	_, err = body(ctx, x.EnterCallback(ctx, "Ask"), in)
	assert.Equal(t, StatesHeartbeatTimeout, ErrorName(err))
	assert.ErrorContains(t, err, "within 7s")

	in, err = DecodeASLInput([]byte(`{"beat": 0.5}`))
	require.NoError(t, err)
	_, err = body(ctx, x.EnterCallback(ctx, "Ask"), in)
	assert.Equal(t, StatesRuntime, ErrorName(err))
}

// The tokens of a checkpoint that stopped inside fan-outs are found in
// their branches' stops, nested ones keyed by their path, in branch order
// (asl_callback_branch.go); a token no stop holds and the checkpoint does
// not remember is refused as unknown.
func TestTokensInFanOutStops(t *testing.T) {
	inner := &FanOutProgress{Stopped: map[int]*BranchStop{1: {State: "Ask", Callback: &CallbackWait{State: "Ask", Token: "t-inner"}}}}
	pos := Position{State: "Outer", FanOut: &FanOutProgress{
		Done: map[int]json.RawMessage{0: json.RawMessage(`1`)},
		Stopped: map[int]*BranchStop{
			2: {State: "Wait", Callback: &CallbackWait{State: "Wait", Token: "t-2"}},
			1: {State: "Inner", FanOut: inner},
		},
	}}
	keys, waits := pos.FanOut.Tokens("Outer/")
	assert.Equal(t, []string{"Outer/1/Inner/1/Ask", "Outer/2/Wait"}, keys)
	require.Len(t, waits, 2)
	assert.Equal(t, "t-inner", waits[0].Token)
	assert.Same(t, inner.Stopped[1].Callback, pos.WaitFor("t-inner"), "the wait itself, which the answer is saved in")
	assert.Nil(t, pos.WaitFor("t-3"))

	claims := tokenClaims{Session: "s", State: "Wait"}
	_, err := checkOutstanding(&Checkpoint{Position: pos}, claims, "t-3", NewFakeClock(time.Now()))
	assert.ErrorIs(t, err, ErrTaskTokenUnknown)
	w, err := checkOutstanding(&Checkpoint{Position: pos}, claims, "t-2", NewFakeClock(time.Now()))
	require.NoError(t, err)
	assert.Equal(t, "Wait", w.State)
}
