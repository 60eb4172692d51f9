package agent

import (
	"context"
	"strings"
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

// Matches reports whether err is one of names, as a Task state's
// ErrorEquals reads them; the executor, which owns those rules, gives it.
type Matches func(err error, names []string) bool

// Switches reports whether err makes the agent ask the fallback model. A
// cancelled run never does, nor an error that matches does not name.
func (f *ModelFallback) Switches(ctx context.Context, err error, matches Matches) bool {
	if f == nil || ctx.Err() != nil {
		return false
	}
	names := []string{"States.ALL"}
	if len(f.On) > 0 {
		names = nil
		for _, n := range f.On {
			names = append(names, n)
			if !strings.Contains(n, ".") {
				names = append(names, "States."+n, "Agent."+n)
			}
		}
	}
	return matches(err, names)
}

// WithFallback runs attempt with the agent's model and, when it fails with
// an error its fallback switches on, once more with the fallback model.
func WithFallback(ctx context.Context, agent Agent, matches Matches, attempt func(Agent) (any, error)) (any, error) {
	out, err := attempt(agent)
	if err == nil || !agent.Fallback.Switches(ctx, err, matches) {
		return out, err
	}
	agent.Model, agent.Fallback = agent.Fallback.Model, nil
	return attempt(agent)
}
