package jsonmode

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// A CodeMie branch's copy survives its checkpoint with what Join takes
// from it: the keys it set, those it removed, where its messages start.
func TestBranchStateRoundTrip(t *testing.T) {
	s := FreshJSONState()
	s.set("a", 1.0)
	b := s.Iterations([]any{map[string]any{"k": "v"}})[0]
	b.set("x", "y")
	b.remove("a")
	b.History = append(b.History, impl.Message{Role: "assistant", Content: "hi"})
	raw, err := encodeBranch(&b)
	require.NoError(t, err)
	var back JSONState
	require.NoError(t, decodeBranch(raw, &back))
	assert.Equal(t, b.branch, back.branch)
	assert.Equal(t, b.iterating, back.iterating)
	assert.Equal(t, b.History, back.History)

	joined, again := FreshJSONState(), FreshJSONState()
	joined.set("a", 1.0)
	again.set("a", 1.0)
	joined.Join([]JSONState{b})
	again.Join([]JSONState{back})
	assert.Equal(t, joined.Context, again.Context)
	assert.Equal(t, joined.History, again.History)
}
