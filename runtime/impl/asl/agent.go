package asl

import (
	"context"
	"fmt"
	"math"
	"sync"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// Agent State Language run-time: budgets, memory and composition.

// statesBudgetExceeded is the error of an agent task that runs over its
// Budget or the workflow's.
const statesBudgetExceeded = "States.BudgetExceeded"

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

// usage is what the agents of one run have spent: each agent's result may
// report its `_tokens` and `_cost`, as the Agent State Language's agents
// do.
type usage struct {
	mu     sync.Mutex
	tokens float64
	cost   float64
	mem    impl.MemoryStore // the run's own store when the Config has none
}

func (u *usage) add(tokens, cost float64) (float64, float64) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.tokens += tokens
	u.cost += cost
	return u.tokens, u.cost
}

func (u *usage) totals() (float64, float64) { return u.add(0, 0) }

// spent reads `_tokens` and `_cost` of an agent's result.
func spent(result any) (tokens, cost float64) {
	o, ok := result.(*Object)
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

// over reports how b is exceeded by tokens and cost, "" when it is not.
func (b *Budget) over(tokens, cost float64) string {
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

// AgentTask is the body of an agent task: the input guardrails, the call
// under the state's timeout, the task's budget checked against what the
// agent reports it spent (both again with the fallback model when the
// task's Model falls back on the error), the workflow's budget, then the
// output guardrails. Once the run has spent enough of the workflow's
// budget for one of its Switches, the agent asks that model.
func (x *ASLExec) AgentTask(st *ASLState, h agentHandler, agent *Agent) stateBody {
	return func(ctx context.Context, cx *aslContext, in any) (any, error) {
		var err error
		if g := agent.Guards; g != nil {
			if in, err = guard(st.Name, "input", g.Input, in); err != nil {
				return nil, err
			}
		}
		a := *agent
		if m := agent.RunLimit.switched(x.spend.totals()); m != "" {
			a.Model = m
		}
		out, err := withFallback(ctx, a, func(a Agent) (any, error) {
			return x.agentAttempt(ctx, cx, st, h, a, in)
		})
		if err != nil {
			return nil, err
		}
		allTokens, allCost := x.spend.add(spent(out))
		if why := agent.RunLimit.over(allTokens, allCost); why != "" && agent.RunLimit.stops() {
			return nil, &impl.Error{Name: statesBudgetExceeded, Cause: "the workflow ran over its budget: " + why}
		}
		if g := agent.Guards; g != nil {
			return guard(st.Name, "output", g.Output, out)
		}
		return out, nil
	}
}

// agentAttempt is one call of an agent and the check of its task's budget.
func (x *ASLExec) agentAttempt(ctx context.Context, cx *aslContext, st *ASLState, h agentHandler, agent Agent, in any) (any, error) {
	out, err := x.Task(st, agentTask(h, agent))(ctx, cx, in)
	if err != nil {
		return nil, err
	}
	if why := agent.Limit.over(spent(out)); why != "" {
		return nil, &impl.Error{Name: statesBudgetExceeded, Cause: fmt.Sprintf("state %q ran over its budget: %s", st.Name, why)}
	}
	return out, nil
}

// Include is the body of an Include state whose template is compiled in:
// the sub-workflow runs on the effective input and its output is the
// state's result.
func (x *ASLExec) Include(sub machineFunc) stateBody {
	return func(ctx context.Context, cx *aslContext, in any) (any, error) {
		return sub(enterChild(ctx, x, cx, x.scope(ctx)), x, in)
	}
}

// Run-aware intrinsic functions: they read what the run has spent.

// StatesCurrentCost is States.CurrentCost(): the cost the agents reported
// so far.
func StatesCurrentCost(cx *aslContext, _ []any) (any, error) {
	_, cost := cx.exec.spend.totals()
	return cost, nil
}

// StatesCurrentTokens is States.CurrentTokens(): the tokens the agents
// reported so far.
func StatesCurrentTokens(cx *aslContext, _ []any) (any, error) {
	tokens, _ := cx.exec.spend.totals()
	return tokens, nil
}

// RemainingBudget returns States.RemainingBudget() for the workflow's
// budget b: the cost left (the tokens left when b limits tokens only),
// never below zero; without a limit, null.
func RemainingBudget(b *Budget) func(*aslContext, []any) (any, error) {
	return func(cx *aslContext, _ []any) (any, error) {
		tokens, cost := cx.exec.spend.totals()
		switch {
		case b != nil && b.MaxCost > 0:
			return math.Max(b.MaxCost-cost, 0), nil
		case b != nil && b.MaxTokens > 0:
			return math.Max(b.MaxTokens-tokens, 0), nil
		}
		return nil, nil
	}
}

// With returns a Choice over the value of a `Variable.$` intrinsic call,
// whose rule tests $; an error of the call is this Choice's.
func (c *Choice) With(call *Intrinsic) *Choice {
	v, err := call.Eval(c.in, c.cx)
	if err != nil && c.err == nil {
		c.err = err
	}
	return &Choice{in: v, cx: c.cx}
}

// details evaluates a structured or computed prompt into the request.
func promptDetails(req *impl.ApprovalRequest, in any, cx *aslContext, ordered bool) error {
	tmpl, ok := req.PromptTemplate.(*Template)
	if !ok {
		return nil
	}
	v, err := tmpl.Eval(in, cx)
	if err != nil {
		return err
	}
	if !ordered {
		v = Plain(v)
	}
	req.Details = v
	return nil
}
