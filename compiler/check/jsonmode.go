package check

import (
	"github.com/flowc-dev/flowc/compiler/expression"
	"github.com/flowc-dev/flowc/ir"
)

// checkJSON checks a JSON-mode workflow, whose variables are the keys of
// outputs known only at run time: conditions are parsed and lowered over
// dynamic values, with the checks that need no types (syntax, unknown
// functions and methods, conditions that are never boolean). Templates
// were parsed by the front-end; iter_key needs no check, since it is
// resolved against an output at run time.
func (c *checker) checkJSON() {
	for _, s := range c.w.States {
		// The generated mock has this method: it runs fan-outs in order.
		if h := s.Handler; h != nil && h.Name == "AnswersInOrder" {
			c.diags.Errorf(h.Pos, "handler name %s is reserved by flowc in JSON mode; choose another assistant_id, tool_id or handler", h.Name)
		}
		t := s.Next
		switch t.Kind {
		case ir.TransCondition:
			t.Cond = c.dynamicExpr(t.Cond)
		case ir.TransSwitch:
			for _, cs := range t.Cases {
				cs.Cond = c.dynamicExpr(cs.Cond)
			}
		}
		c.checkBranches(s)
	}
}

func (c *checker) dynamicExpr(e *ir.Expr) *ir.Expr {
	if e == nil {
		return nil
	}
	lowered, ds := expression.Dynamic(expression.Source{Text: e.Source, Pos: e.Pos, Where: e.Where})
	c.diags.Add(ds...)
	if lowered == nil {
		return e
	}
	return lowered
}
