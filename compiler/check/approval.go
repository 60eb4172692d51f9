package check

import (
	"go/types"
	"slices"

	"github.com/flowc-dev/flowc/compiler/diag"
	"github.com/flowc-dev/flowc/compiler/expression"
	"github.com/flowc-dev/flowc/ir"
)

// decisionVar is the variable an approval state's `next` expressions may
// name: the option the person chose.
var decisionVar = expression.Field{Name: "decision", GoName: "decision", Type: types.Typ[types.String]}

// stateEnv is the scope of a state's expressions: an approval state's add
// `decision` to the workflow's.
func stateEnv(s *ir.State, env *expression.Env) *expression.Env {
	if s.Kind != ir.StateApproval {
		return env
	}
	scoped := *env
	scoped.Vars = append(slices.Clip(env.Vars), decisionVar)
	return &scoped
}

// checkApprovals rejects approval states where the generated code cannot
// wait for a decision (JSON mode), and comparisons of `decision` with a string that is
// not one of the state's options, which could never be true.
func (c *checker) checkApprovals() {
	approvals := false
	for _, s := range ir.AllStates(c.w.States) {
		if s.Kind != ir.StateApproval || s.Approval == nil {
			continue
		}
		approvals = true
		// Inside a fan-out an approval stops only its branch or item
		// (runtime/impl: StartFanOutStops); JSON mode has no approval states.
		if c.w.Mode == ir.ModeJSON {
			c.diags.Errorf(s.Pos, "approval state %q needs a typed workflow: declare a `state:` schema", s.ID)
		}
		for _, e := range nextExprs(s.Next) {
			c.checkOptions(c.out.Cond(e), s)
		}
	}
	if approvals {
		c.reserveApprove()
	}
}

// reserveApprove rejects a handler named Approve beside approval states:
// the mock answers them with a method of that name (flowcrt.Approver).
func (c *checker) reserveApprove() {
	for _, s := range ir.AllStates(c.w.States) {
		if h := s.Handler; h != nil && h.Name == "Approve" {
			c.diags.Errorf(h.Pos, "handler Approve would be the approver of the approval states (flowcrt.Approver); choose another handler name")
			return
		}
	}
}

// nextExprs are the conditions of a transition, as the front-end parsed them.
func nextExprs(t *ir.Transition) []*ir.Expr {
	out := []*ir.Expr{t.Cond}
	for _, cs := range t.Cases {
		out = append(out, cs.Cond)
	}
	return out
}

// checkOptions walks a checked expression for `decision == 'x'` and
// `decision != 'x'`, either way round.
func (c *checker) checkOptions(e *ir.Expr, s *ir.State) {
	if e == nil {
		return
	}
	if e.Kind == ir.ExprBinary && (e.Op == "==" || e.Op == "!=") {
		for i, arg := range e.Args {
			other := e.Args[1-i]
			lit, ok := other.Lit.(string)
			if arg.Kind == ir.ExprVar && arg.Name == decisionVar.GoName && other.Kind == ir.ExprLit && ok &&
				!slices.Contains(s.Approval.Options, lit) {
				c.diags.Errorf(other.Pos, "%q is not an option of approval state %q, so `decision` never equals it%s",
					lit, s.ID, diag.DidYouMean(lit, s.Approval.Options))
			}
		}
	}
	for _, arg := range e.Args {
		c.checkOptions(arg, s)
	}
}
