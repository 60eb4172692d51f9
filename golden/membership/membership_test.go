package membership

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// handlers: Classify changes nothing; Route names the state it runs in.
type handlers struct{}

func (handlers) Classify(ctx context.Context, s MembershipState) (MembershipUpdate, error) {
	return MembershipUpdate{}, nil
}

func (handlers) Route(ctx context.Context, s MembershipState) (MembershipUpdate, error) {
	return MembershipUpdate{}.WithRoute(flowcrt.StateFromContext(ctx)), nil
}

func route(t *testing.T, in MembershipState) string {
	t.Helper()
	out, err := NewMembership(handlers{}, flowcrt.WithStateContext()).Run(context.Background(), in)
	require.NoError(t, err)
	return out.Route
}

func TestMembership(t *testing.T) {
	team := map[string]string{"team": "core"}
	tests := []struct {
		name string
		in   MembershipState
		want string
	}{
		{"key in map", MembershipState{Labels: map[string]string{"urgent": ""}}, "urgent"},
		{"value is not a key", MembershipState{Labels: map[string]string{"team": "urgent"}}, "normal"},
		{"element in slice, len", MembershipState{Tags: []string{"a", "vip", "b"}}, "busy_vip"},
		{"element in slice", MembershipState{Tags: []string{"a", "vip"}}, "vip"},
		{"element match is exact", MembershipState{Tags: []string{"vips", "VIP"}, Labels: team}, "normal"},
		{"contains() on a slice", MembershipState{Tags: []string{"spam"}}, "spam"},
		{"substring of lowered string", MembershipState{Title: "Buy SPAM now", Labels: team}, "spam"},
		{"not in", MembershipState{Labels: map[string]string{"owner": "ann"}}, "unowned"},
		{"len of a string", MembershipState{Title: strings.Repeat("x", 21), Labels: team}, "long"},
		{"len at the bound", MembershipState{Title: strings.Repeat("x", 20), Labels: team}, "normal"},
		{"len of a map", MembershipState{Labels: map[string]string{"team": "a", "b": "", "c": ""}}, "long"},
		{"nil map and slice", MembershipState{}, "normal"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, route(t, tt.in), tt.name)
	}
}

// len() counts characters, as Python's len of a str does: 15 "é" are 15
// characters (30 bytes in UTF-8), not more than 20.
func TestLenCountsCharacters(t *testing.T) {
	in := MembershipState{Title: strings.Repeat("é", 15), Labels: map[string]string{"team": "core"}}
	assert.Equal(t, "normal", route(t, in))
}
