package aslchildcallback

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// peers keeps the token each peer was handed and counts the calls.
type peers struct {
	mu     sync.Mutex
	tokens map[string]string
	calls  map[string]int
}

func (p *peers) PublishWaitForTaskToken(_ context.Context, in any) (any, error) {
	m := in.(map[string]any)
	peer := m["Peer"].(string)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.tokens[peer] = m["TaskToken"].(string)
	p.calls["ask "+peer]++
	return nil, nil
}

func (p *peers) Count(_ context.Context, in any) (any, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.calls["count"]++
	return float64(len(in.([]any))), nil
}

// A Map inside a template compiled in by an Include, whose items all
// wait for task tokens: the session waits (not interrupted, not running)
// with the position inside the child holding both tokens; each answer is
// taken on its own, and the child goes on once both are in.
func TestTokensOfAFanOutInsideAChild(t *testing.T) {
	ctx := context.Background()
	store := flowcrt.NewMemoryCheckpointer()
	p := &peers{tokens: map[string]string{}, calls: map[string]int{}}
	w := NewRelay(p, flowcrt.WithCheckpointer(store))
	_, err := w.Invoke(ctx, "r1", map[string]any{"peers": []any{"ann", "bob"}})
	wait := tokenWait(t, err)
	assert.Equal(t, "Broadcast/Each/0/Broadcast/Ask", wait.State)
	assert.Equal(t, []string{p.tokens["ann"], p.tokens["bob"]}, wait.Tokens)
	cp, err := store.Load(ctx, "r1")
	require.NoError(t, err)
	assert.Equal(t, flowcrt.StatusWaiting, cp.Status)
	assert.Equal(t, "Broadcast", cp.Position.State)

	_, err = w.SendTaskSuccess(ctx, p.tokens["bob"], json.RawMessage(`"no"`))
	assert.Equal(t, []string{p.tokens["ann"]}, tokenWait(t, err).Tokens)
	_, err = w.SendTaskSuccess(ctx, p.tokens["bob"], json.RawMessage(`"yes"`))
	assert.ErrorIs(t, err, flowcrt.ErrTaskTokenUsed)

	out, err := NewRelay(p, flowcrt.WithCheckpointer(store)).SendTaskSuccess(ctx, p.tokens["ann"], json.RawMessage(`"yes"`))
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"peers": []any{"ann", "bob"}, "answers": 2.0}, out)
	assert.Equal(t, map[string]int{"ask ann": 1, "ask bob": 1, "count": 1}, p.calls)
}
