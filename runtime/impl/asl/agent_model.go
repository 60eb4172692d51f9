package asl

import (
	"context"
	"strings"
)

// The Agent State Language's error names for a failing agent (its specification's
// "Error Handling" chapter).
const (
	AgentModelError         = "Agent.ModelError"         // the model's endpoint failed or answered nothing usable
	AgentContextOverflow    = "Agent.ContextOverflow"    // the request is larger than the model's context
	AgentInvalidOutput      = "Agent.InvalidOutput"      // the answer is not of the shape the task asks for
	StatesRateLimitExceeded = "States.RateLimitExceeded" // the endpoint refused for the rate of requests
)

// ModelFallback is an agent task's Model.Fallback and the errors that
// switch to it.
type ModelFallback struct {
	Model string
	// On are the error names of FallbackOn as written: a short name such
	// as "RateLimitExceeded" stands for States.RateLimitExceeded and
	// Agent.RateLimitExceeded too. Empty: every error.
	On []string
}

// Generation is an agent task's Generation; a nil or zero field is unset.
type Generation struct {
	Temperature   *float64
	TopP          *float64
	MaxTokens     int
	StopSequences []string
}

// switches reports whether err makes the agent ask the fallback model. A
// cancelled run and States.Runtime never do.
func (f *ModelFallback) switches(ctx context.Context, err error) bool {
	if f == nil || ctx.Err() != nil {
		return false
	}
	names := []string{statesALL}
	if len(f.On) > 0 {
		names = nil
		for _, n := range f.On {
			names = append(names, n)
			if !strings.Contains(n, ".") {
				names = append(names, "States."+n, "Agent."+n)
			}
		}
	}
	return matchASL(err, names, true)
}

// withFallback runs attempt with the agent's model and, when it fails with
// an error its fallback switches on, once more with the fallback model.
func withFallback(ctx context.Context, agent Agent, attempt func(Agent) (any, error)) (any, error) {
	out, err := attempt(agent)
	if err == nil || !agent.Fallback.switches(ctx, err) {
		return out, err
	}
	agent.Model, agent.Fallback = agent.Fallback.Model, nil
	return attempt(agent)
}

// ModelSwitch is a step of the workflow Budget's Fallback: from the point
// the run has spent At (a fraction; 0 is "Always") of its limit, agents
// ask Model. Tokens measures against MaxTokens, else the measure is
// MaxCost, or MaxTokens when there is no MaxCost.
type ModelSwitch struct {
	At     float64
	Tokens bool
	Model  string
}

// switched is the model of the furthest switch that the spend has
// reached, "" for none.
func (b *Budget) switched(tokens, cost float64) string {
	if b == nil {
		return ""
	}
	model, at := "", -1.0
	for _, s := range b.Switches {
		if s.At >= at && b.reached(s, tokens, cost) {
			model, at = s.Model, s.At
		}
	}
	return model
}

func (b *Budget) reached(s ModelSwitch, tokens, cost float64) bool {
	switch {
	case s.At == 0:
		return true
	case !s.Tokens && b.MaxCost > 0:
		return cost >= s.At*b.MaxCost
	case b.MaxTokens > 0:
		return tokens >= s.At*b.MaxTokens
	}
	return false
}

// stops reports whether running over b fails the run.
func (b *Budget) stops() bool {
	return !b.Continue && !(b.UseFallback && len(b.Switches) > 0)
}
