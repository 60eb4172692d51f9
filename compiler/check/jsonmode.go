package check

import (
	"errors"
	"unicode/utf8"

	"github.com/flowc-dev/flowc/ir"
	"github.com/flowc-dev/flowc/runtime/pyexpr"
)

// checkJSON checks a JSON-mode workflow, whose variables are the keys of
// outputs known only at run time. A condition is Python, evaluated as
// CodeMie's safe_eval evaluates it; the engine rejects at load only what
// does not parse, and takes `otherwise` for whatever fails at run time, so
// flowc checks the syntax and leaves the rest to the run. Templates were
// parsed by the front-end; iter_key needs no check, since it is resolved
// against an output at run time.
func (c *checker) checkJSON() {
	for _, s := range c.w.States {
		// The generated mock has this method: it runs fan-outs in order.
		if h := s.Handler; h != nil && h.Name == "AnswersInOrder" {
			c.diags.Errorf(h.Pos, "handler name %s is reserved by flowc in JSON mode; choose another assistant_id, tool_id or handler", h.Name)
		}
		t := s.Next
		switch t.Kind {
		case ir.TransCondition:
			c.condition(t.Cond)
		case ir.TransSwitch:
			for _, cs := range t.Cases {
				c.condition(cs.Cond)
			}
		}
		c.checkBranches(s)
	}
}

// condition reports a condition that is no Python expression, at the
// character where parsing failed.
func (c *checker) condition(e *ir.Expr) {
	if e == nil {
		return
	}
	_, err := pyexpr.ParseCondition(e.Source)
	if err == nil {
		return
	}
	pos, msg := e.Pos, err.Error()
	var perr *pyexpr.Error
	if errors.As(err, &perr) {
		i := utf8.RuneCountInString(e.Source[:min(perr.Offset, len(e.Source))])
		pos, msg = e.Pos.Shift(i), perr.Msg
		if i < len(e.Where) {
			pos = e.Where[i]
		}
	}
	c.diags.Errorf(pos, "condition %q is no Python expression: %s", e.Source, msg)
}
