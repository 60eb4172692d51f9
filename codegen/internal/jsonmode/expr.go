package jsonmode

import (
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
