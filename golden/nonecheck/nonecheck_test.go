package nonecheck

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// handlers: Check changes nothing; Route names the state it runs in.
type handlers struct{}

func (handlers) Check(ctx context.Context, s NoneCheckState) (NoneCheckUpdate, error) {
	return NoneCheckUpdate{}, nil
}

func (handlers) Route(ctx context.Context, s NoneCheckState) (NoneCheckUpdate, error) {
	return NoneCheckUpdate{}.WithRoute(flowcrt.StateFromContext(ctx)), nil
}

func TestNone(t *testing.T) {
	tests := []struct {
		in   NoneCheckState
		want string
	}{
		{NoneCheckState{}, "missing"},
		{NoneCheckState{Tags: []string{"a"}}, "missing"},
		{NoneCheckState{Labels: map[string]string{}}, "labelled"}, // empty is not None
		{NoneCheckState{Labels: map[string]string{}, Tags: []string{}}, "tagged"},
	}
	for _, tt := range tests {
		out, err := NewNoneCheck(handlers{}, flowcrt.WithStateContext()).Run(context.Background(), tt.in)
		require.NoError(t, err)
		assert.Equal(t, tt.want, out.Route, "%+v", tt.in)
	}
}
