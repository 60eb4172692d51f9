package emit

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/ir"
)

// precedence of Go's binary operators; parentheses are added only where the
// tree needs them, so conditions read as they were written.
var precedence = map[string]int{
	"||": 1, "&&": 2,
	"==": 3, "!=": 3, "<": 3, "<=": 3, ">": 3, ">=": 3,
	"+": 4, "-": 4,
	"*": 5, "/": 5, "%": 5,
}

// divisions print through the runtime, which follows Python: a division by
// zero fails the condition, and % takes the divisor's sign.
var divisions = map[string]string{"/": "Div", "%": "Mod"}

// Condition prints a condition; one that divides is evaluated through
// flowcrt.Cond, which makes a division by zero false instead of a crash.
func Condition(e *ir.Expr) *jen.Statement {
	if !divides(e) {
		return expr(e)
	}
	return Flowcimpl("Cond").Call(jen.Func().Params().Bool().Block(jen.Return(expr(e))))
}

func divides(e *ir.Expr) bool {
	if e.Kind == ir.ExprBinary && divisions[e.Op] != "" {
		return true
	}
	for _, a := range e.Args {
		if divides(a) {
			return true
		}
	}
	return false
}

// expr prints a checked expression tree as Go. Names come from the checker
// (Go field names), literals go through jennifer's quoting.
func expr(e *ir.Expr) *jen.Statement {
	switch e.Kind {
	case ir.ExprLit:
		return literal(e.Lit)
	case ir.ExprField:
		return path(jen.Id("s"), e.Path)
	case ir.ExprItem:
		return path(jen.Id("item"), e.Path)
	case ir.ExprVar:
		return jen.Id(e.Name)
	case ir.ExprUnary:
		if arg := e.Args[0]; e.Op == "!" && arg.Kind == ir.ExprCall && arg.Op == ir.CallIsNil {
			return expr(arg.Args[0]).Op("!=").Nil()
		}
		return jen.Op(e.Op).Add(operand(e.Args[0], 6, false))
	case ir.ExprBinary:
		if e.Op == "/" || e.Op == "%" {
			return Flowcimpl(divisions[e.Op]).Call(expr(e.Args[0]), expr(e.Args[1]))
		}
		p := precedence[e.Op]
		return operand(e.Args[0], p, false).Op(e.Op).Add(operand(e.Args[1], p, true))
	case ir.ExprConvert:
		return jen.Id(e.Op).Call(expr(e.Args[0]))
	}
	return call(e)
}

// operand wraps a binary child in parentheses when it binds looser than its
// parent (or equally, on the right, where Go associates left).
func operand(e *ir.Expr, parent int, right bool) *jen.Statement {
	if e.Kind != ir.ExprBinary {
		return expr(e)
	}
	p := precedence[e.Op]
	if p < parent || (right && p == parent) {
		return jen.Parens(expr(e))
	}
	return expr(e)
}

func path(root *jen.Statement, names []string) *jen.Statement {
	for _, n := range names {
		root = root.Dot(n)
	}
	return root
}

// literal prints numbers as untyped constants, so they adapt to the operand
// they are compared with.
func literal(v any) *jen.Statement {
	switch v := v.(type) {
	case nil:
		return jen.Nil()
	case int64:
		return jen.Op(strconv.FormatInt(v, 10))
	case float64:
		text := strconv.FormatFloat(v, 'g', -1, 64)
		if !strings.ContainsAny(text, ".eEIN") {
			text += ".0" // stay a float constant where the other operand is untyped
		}
		return jen.Op(text)
	}
	return jen.Lit(v)
}

// calls print the built-ins an ExprCall may name, given its printed arguments.
var calls = map[string]func(a []*jen.Statement) *jen.Statement{
	ir.CallLower:      func(a []*jen.Statement) *jen.Statement { return jen.Qual("strings", "ToLower").Call(a[0]) },
	ir.CallUpper:      func(a []*jen.Statement) *jen.Statement { return jen.Qual("strings", "ToUpper").Call(a[0]) },
	ir.CallStartsWith: func(a []*jen.Statement) *jen.Statement { return jen.Qual("strings", "HasPrefix").Call(a[0], a[1]) },
	ir.CallEndsWith:   func(a []*jen.Statement) *jen.Statement { return jen.Qual("strings", "HasSuffix").Call(a[0], a[1]) },
	ir.CallContains:   func(a []*jen.Statement) *jen.Statement { return jen.Qual("strings", "Contains").Call(a[0], a[1]) },
	ir.CallHasKey:     func(a []*jen.Statement) *jen.Statement { return Flowcimpl("HasKey").Call(a[0], a[1]) },
	ir.CallInSlice:    func(a []*jen.Statement) *jen.Statement { return jen.Qual("slices", "Contains").Call(a[0], a[1]) },
	ir.CallLen:        func(a []*jen.Statement) *jen.Statement { return jen.Len(a[0]) },
	ir.CallRuneCount: func(a []*jen.Statement) *jen.Statement {
		return jen.Qual("unicode/utf8", "RuneCountInString").Call(a[0])
	},
	ir.CallIsNil: func(a []*jen.Statement) *jen.Statement { return a[0].Op("==").Nil() },
}

func call(e *ir.Expr) *jen.Statement {
	args := make([]*jen.Statement, len(e.Args))
	for i, arg := range e.Args {
		args[i] = expr(arg)
	}
	return calls[e.Op](args)
}

// CheckExpr rejects a tree the printer does not know, so that a checker and
// generator out of step give an error rather than a crash or bad code.
func CheckExpr(e *ir.Expr) error {
	if e == nil {
		return nil
	}
	arity := map[ir.ExprKind]int{ir.ExprUnary: 1, ir.ExprBinary: 2, ir.ExprConvert: 1}
	switch {
	case e.Kind == ir.ExprCall && (calls[e.Op] == nil || len(e.Args) == 0):
		return fmt.Errorf("%s: unknown built-in %q in expression", e.Pos, e.Op)
	case e.Kind == ir.ExprBinary && precedence[e.Op] == 0:
		return fmt.Errorf("%s: unknown operator %q in expression", e.Pos, e.Op)
	case arity[e.Kind] > 0 && len(e.Args) != arity[e.Kind]:
		return fmt.Errorf("%s: malformed expression", e.Pos)
	}
	for _, arg := range e.Args {
		if err := CheckExpr(arg); err != nil {
			return err
		}
	}
	return nil
}
