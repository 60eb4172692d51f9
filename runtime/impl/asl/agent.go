package asl

import (
	"context"
	"fmt"
	"math"

	"github.com/flowc-dev/flowc/runtime/impl"
	flowcagent "github.com/flowc-dev/flowc/runtime/impl/asl/agent"
)

// Agent State Language run-time: agent tasks, composition and the
// intrinsics that read the run. The agent machinery itself is package
// agent (flowcagent).

// The names generated code spells flowcasl.Budget and so on: they are
// package agent's.
type (
	Budget        = flowcagent.Budget
	ModelSwitch   = flowcagent.ModelSwitch
	ModelFallback = flowcagent.ModelFallback
	Generation    = flowcagent.Generation
	Guardrails    = flowcagent.Guardrails
	GuardRule     = flowcagent.GuardRule
)

// taskErrorIs reports whether err is one of names, as a Task state's
// ErrorEquals reads them: the agents' fallback switches so.
func taskErrorIs(err error, names []string) bool { return matchASL(err, names, true) }

// AgentTask is the body of an agent task: the input guardrails, the call
// under the state's timeout, the task's budget checked against what the
// agent reports it spent (both again with the fallback model when the
// task's Model falls back on the error), the workflow's budget, then the
// output guardrails. Once the run has spent enough of the workflow's
// budget for one of its Switches, the agent asks that model.
func (x *ASLExec) AgentTask(st *ASLState, h agentHandler, agent *flowcagent.Agent) stateBody {
	return func(ctx context.Context, cx *aslContext, in any) (any, error) {
		var err error
		if g := agent.Guards; g != nil {
			if in, err = flowcagent.Guard(st.Name, "input", g.Input, in, mapStrings); err != nil {
				return nil, err
			}
		}
		a := *agent
		if m := agent.RunLimit.Switched(x.spend.Totals()); m != "" {
			a.Model = m
		}
		out, err := flowcagent.WithFallback(ctx, a, taskErrorIs, func(a flowcagent.Agent) (any, error) {
			return x.agentAttempt(ctx, cx, st, h, a, in)
		})
		if err != nil {
			return nil, err
		}
		allTokens, allCost := x.spend.Add(flowcagent.Spent(out))
		if why := agent.RunLimit.Over(allTokens, allCost); why != "" && agent.RunLimit.Stops() {
			return nil, &impl.Error{Name: flowcagent.BudgetExceeded, Cause: "the workflow ran over its budget: " + why}
		}
		if g := agent.Guards; g != nil {
			return flowcagent.Guard(st.Name, "output", g.Output, out, mapStrings)
		}
		return out, nil
	}
}

// agentAttempt is one call of an agent and the check of its task's budget.
func (x *ASLExec) agentAttempt(ctx context.Context, cx *aslContext, st *ASLState, h agentHandler, agent flowcagent.Agent, in any) (any, error) {
	out, err := x.Task(st, agentTask(h, agent))(ctx, cx, in)
	if err != nil {
		return nil, err
	}
	if why := agent.Limit.Over(flowcagent.Spent(out)); why != "" {
		return nil, &impl.Error{Name: flowcagent.BudgetExceeded, Cause: fmt.Sprintf("state %q ran over its budget: %s", st.Name, why)}
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
	_, cost := cx.exec.spend.Totals()
	return cost, nil
}

// StatesCurrentTokens is States.CurrentTokens(): the tokens the agents
// reported so far.
func StatesCurrentTokens(cx *aslContext, _ []any) (any, error) {
	tokens, _ := cx.exec.spend.Totals()
	return tokens, nil
}

// RemainingBudget returns States.RemainingBudget() for the workflow's
// budget b: the cost left (the tokens left when b limits tokens only),
// never below zero; without a limit, null.
func RemainingBudget(b *Budget) func(*aslContext, []any) (any, error) {
	return func(cx *aslContext, _ []any) (any, error) {
		tokens, cost := cx.exec.spend.Totals()
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
