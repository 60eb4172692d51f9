package agent

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// A workflow Budget's Fallback switches to the furthest model the spend
// has reached (the Agent State Language's "Budget" field).
func TestBudgetSwitched(t *testing.T) {
	b := &Budget{MaxCost: 10, MaxTokens: 1000, Switches: []ModelSwitch{
		{At: 0.9, Model: "cheap"}, {At: 0.5, Tokens: true, Model: "tokens-half"}, {At: 0.6, Model: "medium"},
	}}
	for _, tc := range []struct {
		tokens, cost float64
		want         string
	}{
		{0, 0, ""}, {500, 0, "tokens-half"}, {500, 6, "medium"}, {0, 9, "cheap"}, {1000, 20, "cheap"},
	} {
		assert.Equal(t, tc.want, b.Switched(tc.tokens, tc.cost), "%g tokens, cost %g", tc.tokens, tc.cost)
	}
	always := &Budget{Switches: []ModelSwitch{{Model: "always"}, {At: 0.5, Model: "never: no limit"}}}
	assert.Equal(t, "always", always.Switched(1e9, 1e9))
	assert.Equal(t, "", (*Budget)(nil).Switched(1, 1))
	assert.True(t, (&Budget{UseFallback: true}).Stops(), "UseFallback without a model to switch to stops")
	onward := *b
	onward.UseFallback = true
	assert.False(t, onward.Stops())
}
