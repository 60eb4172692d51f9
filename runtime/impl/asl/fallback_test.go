package asl

import (
	"context"
	"errors"
	"testing"

	"github.com/flowc-dev/flowc/runtime/impl"
	flowcagent "github.com/flowc-dev/flowc/runtime/impl/asl/agent"
	"github.com/stretchr/testify/assert"
)

// A fallback switches on the errors of FallbackOn as a Task state's
// ErrorEquals reads them, short names standing for States.<name> and
// Agent.<name> (the Agent State Language's "Model" field).
func TestFallbackSwitches(t *testing.T) {
	rate := impl.NewError(flowcagent.StatesRateLimitExceeded, "slow down")
	model := impl.NewError(flowcagent.AgentModelError, "500")
	ctx := context.Background()
	short := &ModelFallback{Model: "small", On: []string{"RateLimitExceeded"}}
	assert.True(t, short.Switches(ctx, rate, taskErrorIs), "a short name matches States.<name>")
	assert.False(t, short.Switches(ctx, model, taskErrorIs))
	assert.True(t, (&ModelFallback{On: []string{"ModelError"}}).Switches(ctx, model, taskErrorIs), "and Agent.<name>")
	assert.True(t, (&ModelFallback{On: []string{"States.ALL"}}).Switches(ctx, model, taskErrorIs))

	all := &ModelFallback{Model: "small"}
	assert.True(t, all.Switches(ctx, model, taskErrorIs), "without FallbackOn every error switches")
	assert.False(t, all.Switches(ctx, impl.NewError(impl.StatesRuntime, "bad input"), taskErrorIs))
	assert.False(t, all.Switches(ctx, errors.New("not named"), taskErrorIs), "aslError names a handler's errors first")
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	assert.False(t, all.Switches(cancelled, model, taskErrorIs), "a cancelled run does not switch")
	assert.False(t, (*ModelFallback)(nil).Switches(ctx, model, taskErrorIs))
}
