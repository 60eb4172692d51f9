package aslcallback

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// sides keeps the token each Parallel branch was handed, by side, and
// counts the calls.
type sides struct {
	mu     sync.Mutex
	tokens map[string]string
	calls  int
}

func (s *sides) SendMessageWaitForTaskToken(_ context.Context, in any) (any, error) {
	p := in.(map[string]any)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tokens[p["Side"].(string)] = p["TaskToken"].(string)
	s.calls++
	return nil, nil
}

// In a session both Parallel branches stop at their callback states; the
// right one answered first goes on alone, the left one waits again
// without its handler being called, and the second answer finishes the
// run with both results in branch order.
func TestParallelBranchesStop(t *testing.T) {
	ctx := context.Background()
	store := openStore(t)
	s := &sides{tokens: map[string]string{}}
	_, err := NewPair(s, flowcrt.WithCheckpointer(store)).Invoke(ctx, "p-1", map[string]any{})
	var wait *flowcrt.TaskTokenWait
	require.ErrorAs(t, err, &wait)
	assert.Equal(t, "Both/0/Left", wait.State)
	assert.Equal(t, []string{s.tokens["left"], s.tokens["right"]}, wait.Tokens)

	_, err = NewPair(s, flowcrt.WithCheckpointer(store)).SendTaskSuccess(ctx, s.tokens["right"], json.RawMessage(`"R"`))
	require.ErrorAs(t, err, &wait)
	assert.Equal(t, []string{s.tokens["left"]}, wait.Tokens)
	out, err := NewPair(s, flowcrt.WithCheckpointer(store)).SendTaskSuccess(ctx, s.tokens["left"], json.RawMessage(`"L"`))
	require.NoError(t, err)
	assert.Equal(t, []any{"L", "R"}, out)
	assert.Equal(t, 2, s.calls, "each branch asked once")
}
