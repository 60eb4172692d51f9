package impl

import (
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
	assert.Equal(t, w.Beat, NextDeadline(w))
	assert.NoError(t, Expired(w, start.Add(9*time.Minute)))
	assert.Equal(t, StatesHeartbeatTimeout, ErrorName(Expired(w, start.Add(10*time.Minute))))
	w.Beat = start.Add(70 * time.Minute)
	assert.Equal(t, w.Until, NextDeadline(w))
	assert.Equal(t, StatesTimeout, ErrorName(Expired(w, start.Add(time.Hour))))
	assert.True(t, NextDeadline(&CallbackWait{}).IsZero(), "no deadline: waits for ever")
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

// A checkpoint's copy does not share the wait with the original.
func TestCheckpointCloneCallback(t *testing.T) {
	c := &Checkpoint{Position: Position{State: "Ask", Callback: &CallbackWait{State: "Ask", Answer: &CallbackAnswer{Error: "E"}}}}
	out := c.Clone()
	out.Position.Callback.Answer.Error = "F"
	assert.Equal(t, "E", c.Position.Callback.Answer.Error)
}

// The tokens of a checkpoint that stopped inside fan-outs are found in
// their branches' stops, nested ones keyed by their path, in branch order
// (asl/callback_branch.go); a token no stop holds and the checkpoint does
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
	assert.Same(t, inner.Stopped[1].Callback, waitFor(&pos, "t-inner"), "the wait itself, which the answer is saved in")
	assert.Nil(t, waitFor(&pos, "t-3"))

	claims := tokenClaims{Session: "s", State: "Wait"}
	_, err := checkOutstanding(&Checkpoint{Position: pos}, claims, "t-3", NewFakeClock(time.Now()))
	assert.ErrorIs(t, err, ErrTaskTokenUnknown)
	w, err := checkOutstanding(&Checkpoint{Position: pos}, claims, "t-2", NewFakeClock(time.Now()))
	require.NoError(t, err)
	assert.Equal(t, "Wait", w.State)
}
