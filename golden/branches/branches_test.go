package branches

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// script answers Eval with the next of its eval strings; both Eval and
// Visit record the state that calls them.
type script struct{ evals []string }

func (h *script) Eval(ctx context.Context, s BranchesState) (BranchesUpdate, string, error) {
	eval := h.evals[0]
	h.evals = h.evals[1:]
	return BranchesUpdate{}.WithTrail([]string{flowcrt.StateFromContext(ctx)}), eval, nil
}

func (h *script) Visit(ctx context.Context, s BranchesState) (BranchesUpdate, error) {
	return BranchesUpdate{}.WithTrail([]string{flowcrt.StateFromContext(ctx)}), nil
}

func TestOperators(t *testing.T) {
	tests := []struct {
		evals []string
		want  []string
	}{
		{[]string{"500"}, []string{"check", "server_error"}},
		{[]string{"499.5"}, []string{"check", "server_error"}},
		{[]string{"499"}, []string{"check"}}, // > is strict; no match and no default ends the run
		{[]string{"-0.5"}, []string{"check", "negative"}},
		{[]string{"0"}, []string{"check"}}, // < is strict
		{[]string{"200"}, []string{"check", "success"}},
		{[]string{"201"}, []string{"check", "success"}},
		{[]string{"299"}, []string{"check", "success"}}, // in_range is inclusive
		{[]string{"300"}, []string{"check"}},
		{[]string{"199"}, []string{"check"}},
		{[]string{"tool-call", "stop"}, []string{"check", "tools", "done"}}, // default
		{[]string{"tool-call", "again", "250"}, []string{"check", "tools", "check", "success"}},
		{[]string{"Tool-Call"}, []string{"check"}}, // equals is exact
		{[]string{"api_failure"}, []string{"check", "failed"}},
		{[]string{"error_timeout"}, []string{"check", "errored"}},
		{[]string{"write_ok"}, []string{"check", "written"}},
		{[]string{"fail_ok"}, []string{"check", "failed"}}, // first match wins
		{[]string{"err_ok"}, []string{"check", "errored"}},
		{[]string{"abc"}, []string{"check"}}, // numeric operators are false on a non-number
		{[]string{""}, []string{"check"}},
	}
	for _, tt := range tests {
		h := &script{evals: tt.evals}
		out, err := NewBranches(h, flowcrt.WithStateContext()).Run(context.Background(), BranchesState{})
		require.NoError(t, err)
		assert.Equal(t, tt.want, out.Trail, "evals %q", tt.evals)
		assert.Empty(t, h.evals, "evals %q: not all used", tt.evals)
	}
}
