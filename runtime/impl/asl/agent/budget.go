package agent

import (
	"fmt"
	"sync"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// Budget is a token and cost limit; zero is no limit. Continue (the
// workflow's OnExceed "Continue") lets the run go on past it, and so does
// UseFallback when there are Switches, whose last model the agents then ask.
type Budget struct {
	MaxTokens   float64
	MaxCost     float64
	Continue    bool
	UseFallback bool
	Switches    []ModelSwitch
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

// Over reports how b is exceeded by tokens and cost, "" when it is not.
func (b *Budget) Over(tokens, cost float64) string {
	switch {
	case b == nil:
		return ""
	case b.MaxTokens > 0 && tokens > b.MaxTokens:
		return fmt.Sprintf("%g tokens used, the limit is %g", tokens, b.MaxTokens)
	case b.MaxCost > 0 && cost > b.MaxCost:
		return fmt.Sprintf("cost %.4f, the limit is %.4f", cost, b.MaxCost)
	}
	return ""
}

// Switched is the model of the furthest switch that the spend has
// reached, "" for none.
func (b *Budget) Switched(tokens, cost float64) string {
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

// Stops reports whether running over b fails the run.
func (b *Budget) Stops() bool {
	return !b.Continue && !(b.UseFallback && len(b.Switches) > 0)
}

// Usage is what the agents of one run have spent: each agent's result may
// report its `_tokens` and `_cost`, as the Agent State Language's agents
// do. It also keeps the run's own memory store, when the run was given
// none.
type Usage struct {
	mu     sync.Mutex
	tokens float64
	cost   float64
	mem    impl.MemoryStore
}

// Add adds what an agent spent and returns the run's totals.
func (u *Usage) Add(tokens, cost float64) (float64, float64) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.tokens += tokens
	u.cost += cost
	return u.tokens, u.cost
}

// Totals returns what the run has spent.
func (u *Usage) Totals() (float64, float64) { return u.Add(0, 0) }

// Memory is the run's own memory store, made on first use.
func (u *Usage) Memory() impl.MemoryStore {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.mem == nil {
		u.mem = impl.NewMemory()
	}
	return u.mem
}

// Spent reads `_tokens` and `_cost` of an agent's result, a JSON object
// as the executor holds it.
func Spent(result any) (tokens, cost float64) {
	o, ok := result.(interface{ Get(string) (any, bool) })
	if !ok {
		return 0, 0
	}
	if v, ok := o.Get("_tokens"); ok {
		tokens, _ = v.(float64)
	}
	if v, ok := o.Get("_cost"); ok {
		cost, _ = v.(float64)
	}
	return tokens, cost
}
