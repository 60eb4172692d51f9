package asl

import (
	"context"
	"testing"

	"github.com/flowc-dev/flowc/runtime/impl"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Inside a Parallel or Map an Approval cannot wait: that is an error.
func TestNestedApprovalCannotWait(t *testing.T) {
	cfg := impl.NewConfig()
	x, in, err := NewASLExec(&cfg, "m", struct{}{}, map[string]any{})
	require.NoError(t, err)
	req := impl.ApprovalRequest{State: "inner", Prompt: "OK?"}
	_, err = x.Approval(req, false)(context.Background(), nil, in)
	assert.Equal(t, impl.StatesRuntime, impl.ErrorName(err))
	_, err = x.Approval(req, true)(context.Background(), nil, in)
	assert.True(t, impl.IsInterrupted(err))
}

func TestMergeASLInput(t *testing.T) {
	saved, err := DecodeASLInput([]byte(`{"a": 1, "b": {"c": 2}}`))
	require.NoError(t, err)
	MergeASLInput(&saved, map[string]any{"b": "x", "d": true})
	assert.Equal(t, map[string]any{"a": 1.0, "b": "x", "d": true}, Plain(saved))
	MergeASLInput(&saved, []any{1.0})
	assert.Equal(t, []any{1.0}, saved, "a non-object replaces")
}
