package codegen

import (
	"fmt"
	"math"

	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/ir"
)

// JSON-mode conditions are Python, which the generated code hands as
// written to flowcrt.Vars.Holds, named v: the runtime evaluates them as
// CodeMie does (runtime/pyexpr), so that a condition means in the
// generated program what it means in CodeMie.

// holds prints the test of a condition.
func holds(e *ir.Expr) *jen.Statement {
	return jen.Id("v").Dot("Holds").Call(jen.Lit(e.Source))
}

// dynArity is the number of arguments of each node the printer knows.
var dynArity = map[ir.ExprKind]map[string]int{
	ir.ExprUnary:  {"!": 1, "-": 1, "+": 1},
	ir.ExprBinary: {"&&": 2, "||": 2, "==": 2, "!=": 2, "<": 2, "<=": 2, ">": 2, ">=": 2, "+": 2, "-": 2, "*": 2, "/": 2, "%": 2},
	ir.ExprCall: {ir.CallIn: 2, ir.CallStartsWith: 2, ir.CallEndsWith: 2, ir.CallLower: 1, ir.CallUpper: 1,
		ir.CallLen: 1, ir.CallKeys: 0},
}

// checkDynamicExpr rejects a tree the checker should not have made, so
// that a checker and generator out of step give an error.
func checkDynamicExpr(e *ir.Expr) error {
	if e == nil {
		return nil
	}
	switch e.Kind {
	case ir.ExprLit:
		switch v := e.Lit.(type) {
		case nil, bool, string, int64:
		case float64:
			if math.IsInf(v, 0) || math.IsNaN(v) {
				return fmt.Errorf("%s: number out of range in expression", e.Pos)
			}
		default:
			return fmt.Errorf("%s: unknown literal %v in expression", e.Pos, e.Lit)
		}
	case ir.ExprVar:
	default:
		n, ok := dynArity[e.Kind][e.Op]
		if !ok || len(e.Args) != n {
			return fmt.Errorf("%s: malformed expression (%q)", e.Pos, e.Op)
		}
	}
	for _, a := range e.Args {
		if err := checkDynamicExpr(a); err != nil {
			return err
		}
	}
	return nil
}
