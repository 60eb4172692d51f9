package codegen

import (
	"fmt"
	"math"

	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/ir"
)

// JSON-mode conditions print as Go over the dynamic values of a
// flowcrt.Vars named v, whose methods follow Python's semantics and record
// an evaluation that fails. A condition is printed in one of two ways:
// whether Python's value of it is True, which a condition must be
// (strict), or whether that value is truthy, which is what `not`, `and`
// and `or` test of their operands. Comparisons, `in` and the string tests
// are booleans either way and print as plain Go && and || chains; only
// other values go through v.IsTrue or v.Truthy. Used as a value (in a
// comparison or arithmetic), `and` and `or` give a boolean where Python
// would give one of their operands.

// holds prints the test of a condition.
func holds(e *ir.Expr) *jen.Statement {
	return jen.Id("v").Dot("Holds").Call(dynBool(e, true).x)
}

// goBool is a printed Go boolean with the precedence of its operator:
// 1 for ||, 2 for &&, 3 for anything that needs no parentheses.
type goBool struct {
	x    *jen.Statement
	prec int
}

func (b goBool) in(prec int) *jen.Statement {
	if b.prec < prec {
		return jen.Parens(b.x)
	}
	return b.x
}

func vCall(method string, args ...jen.Code) *jen.Statement {
	return jen.Id("v").Dot(method).Call(args...)
}

// dynBool prints e as a Go bool: with strict, whether e is True, else
// whether it is truthy.
func dynBool(e *ir.Expr, strict bool) goBool {
	if x := boolean(e); x != nil {
		return goBool{x, 3}
	}
	if e.Kind != ir.ExprBinary || (e.Op != "&&" && e.Op != "||") {
		if strict {
			return goBool{vCall("IsTrue", dynValue(e)), 3}
		}
		return goBool{vCall("Truthy", dynValue(e)), 3}
	}
	a, b := e.Args[0], e.Args[1]
	if e.Op == "&&" {
		// a and b: a when a is falsy, else b.
		return goBool{dynBool(a, false).in(2).Op("&&").Add(dynBool(b, strict).in(2)), 2}
	}
	if !strict || boolean(a) != nil {
		return goBool{dynBool(a, strict).in(1).Op("||").Add(dynBool(b, strict).in(1)), 1}
	}
	// a or b is True when a is True, or when a is falsy and b is True.
	return goBool{vCall("IsTrue", dynValue(a)).Op("||").Op("!").Add(vCall("Truthy", dynValue(a))).
		Op("&&").Add(dynBool(b, strict).in(2)), 1}
}

var comparisonMethods = map[string]string{"==": "Eq", "!=": "Ne", "<": "Lt", "<=": "Le", ">": "Gt", ">=": "Ge"}

// boolean prints e when Python's value of it is always a boolean:
// literals True and False, `not`, comparisons, `in` and the string tests;
// nil for anything else.
func boolean(e *ir.Expr) *jen.Statement {
	switch e.Kind {
	case ir.ExprLit:
		if b, ok := e.Lit.(bool); ok {
			return jen.Lit(b)
		}
	case ir.ExprUnary:
		if e.Op == "!" {
			return jen.Op("!").Add(dynBool(e.Args[0], false).in(3))
		}
	case ir.ExprBinary:
		if m := comparisonMethods[e.Op]; m != "" {
			return vCall(m, dynValue(e.Args[0]), dynValue(e.Args[1]))
		}
	case ir.ExprCall:
		switch e.Op {
		case ir.CallIn: // b in a
			return vCall("In", dynValue(e.Args[1]), dynValue(e.Args[0]))
		case ir.CallStartsWith:
			return vCall("StartsWith", dynValue(e.Args[0]), dynValue(e.Args[1]))
		case ir.CallEndsWith:
			return vCall("EndsWith", dynValue(e.Args[0]), dynValue(e.Args[1]))
		}
	}
	return nil
}

var (
	arithmeticMethods = map[string]string{"+": "Add", "-": "Sub", "*": "Mul", "/": "Div", "%": "Mod"}
	unaryMethods      = map[string]string{"-": "Neg", "+": "Pos"}
	valueCalls        = map[string]string{ir.CallLower: "Lower", ir.CallUpper: "Upper", ir.CallLen: "Len", ir.CallKeys: "Keys"}
)

// dynValue prints e as a dynamic value (any).
func dynValue(e *ir.Expr) *jen.Statement {
	switch e.Kind {
	case ir.ExprLit:
		return dynLiteral(e.Lit)
	case ir.ExprVar:
		return vCall("Var", jen.Lit(e.Name))
	case ir.ExprUnary:
		if m := unaryMethods[e.Op]; m != "" {
			return vCall(m, dynValue(e.Args[0]))
		}
	case ir.ExprBinary:
		if m := arithmeticMethods[e.Op]; m != "" {
			return vCall(m, dynValue(e.Args[0]), dynValue(e.Args[1]))
		}
	case ir.ExprCall:
		if m := valueCalls[e.Op]; m != "" {
			args := make([]jen.Code, len(e.Args))
			for i, a := range e.Args {
				args[i] = dynValue(a)
			}
			return vCall(m, args...)
		}
	}
	return dynBool(e, false).x
}

// dynLiteral prints a literal; integers as untyped constants where every
// platform's int holds them, which the runtime reads as it reads int64.
func dynLiteral(v any) *jen.Statement {
	switch v := v.(type) {
	case nil:
		return jen.Nil()
	case int64:
		if v >= math.MinInt32 && v <= math.MaxInt32 {
			return jen.Lit(int(v))
		}
	}
	return jen.Lit(v)
}

// dynArity is the number of arguments of each node the printer knows.
var dynArity = map[ir.ExprKind]map[string]int{
	ir.ExprUnary:  {"!": 1, "-": 1, "+": 1},
	ir.ExprBinary: {"&&": 2, "||": 2, "==": 2, "!=": 2, "<": 2, "<=": 2, ">": 2, ">=": 2, "+": 2, "-": 2, "*": 2, "/": 2, "%": 2},
	ir.ExprCall: {ir.CallIn: 2, ir.CallStartsWith: 2, ir.CallEndsWith: 2, ir.CallLower: 1, ir.CallUpper: 1,
		ir.CallLen: 1, ir.CallKeys: 0},
}

// checkDynamicExpr rejects a tree the printer does not know, so that a
// checker and generator out of step give an error rather than bad code.
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
