// Package agent is the agent machinery of the Agent State Language that
// needs no States Language executor: an agent task's record (Agent), its
// budgets and the run's spend, the model it falls back on, and the
// guardrails that need no model. The executor (package asl, flowcasl)
// calls it and forwards the names generated code spells flowcasl.Budget
// and so on; this package imports neither it nor its JSON values, so the
// executor's error matching and object rewriting reach it as functions.
package agent

// The Agent State Language's error names for a failing agent (its
// specification's "Error Handling" chapter).
const (
	AgentModelError         = "Agent.ModelError"         // the model's endpoint failed or answered nothing usable
	AgentContextOverflow    = "Agent.ContextOverflow"    // the request is larger than the model's context
	AgentInvalidOutput      = "Agent.InvalidOutput"      // the answer is not of the shape the task asks for
	StatesRateLimitExceeded = "States.RateLimitExceeded" // the endpoint refused for the rate of requests
	// BudgetExceeded is the error of an agent task that runs over its
	// Budget or the workflow's.
	BudgetExceeded = "States.BudgetExceeded"
	// GuardrailViolation is the error of an agent task whose input or
	// output a guardrail blocks.
	GuardrailViolation = "Agent.GuardrailViolation"
)

// Agent is an agent of an agent task or a debate, with the agent fields of
// its Task state as JSON values (nil when not set).
type Agent struct {
	Name       string
	Memory     any
	Context    any
	Tools      any
	Budget     any
	Guardrails any
	Reasoning  any
	Limit      *Budget     // the task's Budget; nil: none
	RunLimit   *Budget     // the workflow's Budget; nil: none
	Guards     *Guardrails // the Guardrails rules flowc applies; nil: none
	// Model is the model to ask: the task's Model.Preferred, or its
	// Model.Fallback on the call FallbackOn switches to it; "" none.
	Model      string
	Fallback   *ModelFallback // nil: none, or this call is the fallback
	Generation *Generation    // the task's sampling settings; nil: none
}
