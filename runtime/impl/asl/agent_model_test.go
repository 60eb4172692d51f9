package asl

import (
	"context"
	"errors"
	"testing"

	"github.com/flowc-dev/flowc/runtime/impl"
	"github.com/stretchr/testify/assert"
)

func TestFallbackSwitches(t *testing.T) {
	rate := impl.NewError(StatesRateLimitExceeded, "slow down")
	model := impl.NewError(AgentModelError, "500")
	ctx := context.Background()
	short := &ModelFallback{Model: "small", On: []string{"RateLimitExceeded"}}
	assert.True(t, short.switches(ctx, rate), "a short name matches States.<name>")
	assert.False(t, short.switches(ctx, model))
	assert.True(t, (&ModelFallback{On: []string{"ModelError"}}).switches(ctx, model), "and Agent.<name>")
	assert.True(t, (&ModelFallback{On: []string{"States.ALL"}}).switches(ctx, model))

	all := &ModelFallback{Model: "small"}
	assert.True(t, all.switches(ctx, model), "without FallbackOn every error switches")
	assert.False(t, all.switches(ctx, impl.NewError(impl.StatesRuntime, "bad input")))
	assert.False(t, all.switches(ctx, errors.New("not named")), "aslError names a handler's errors first")
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	assert.False(t, all.switches(cancelled, model), "a cancelled run does not switch")
	assert.False(t, (*ModelFallback)(nil).switches(ctx, model))
}

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
		assert.Equal(t, tc.want, b.switched(tc.tokens, tc.cost), "%g tokens, cost %g", tc.tokens, tc.cost)
	}
	always := &Budget{Switches: []ModelSwitch{{Model: "always"}, {At: 0.5, Model: "never: no limit"}}}
	assert.Equal(t, "always", always.switched(1e9, 1e9))
	assert.Equal(t, "", (*Budget)(nil).switched(1, 1))
	assert.True(t, (&Budget{UseFallback: true}).stops(), "UseFallback without a model to switch to stops")
	onward := *b
	onward.UseFallback = true
	assert.False(t, onward.stops())
}
