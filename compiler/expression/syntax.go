package expression

import (
	"maps"
	"slices"

	"github.com/expr-lang/expr/ast"

	"github.com/flowc-dev/flowc/compiler/diag"
)

// methods are the string methods conditions may call, with their number of
// arguments.
var methods = map[string]int{
	"lower":      0,
	"upper":      0,
	"startswith": 1,
	"endswith":   1,
	"contains":   1,
}

// methodNames lists methods in a fixed order, for suggestions.
var methodNames = slices.Sorted(maps.Keys(methods))

// functions are the functions conditions may call; all take one argument.
var functions = []string{"len"}

// binaryOps are the operators of expr that conditions keep.
var binaryOps = map[string]bool{
	"==": true, "!=": true, "<": true, "<=": true, ">": true, ">=": true,
	"and": true, "&&": true, "or": true, "||": true, "in": true,
	"+": true, "-": true, "*": true, "/": true, "%": true,
}

// validate rejects what the checker and the code generator do not handle, so
// that typed and JSON mode accept the same language.
func validate(p *parsed, n ast.Node) {
	switch n := n.(type) {
	case *ast.IdentifierNode, *ast.IntegerNode, *ast.FloatNode, *ast.StringNode, *ast.BoolNode, *ast.NilNode:
	case *ast.UnaryNode:
		validate(p, n.Node)
	case *ast.BinaryNode:
		validateBinary(p, n)
	case *ast.MemberNode:
		validateMember(p, n)
	case *ast.CallNode:
		validateCall(p, n)
	case *ast.BuiltinNode:
		validateBuiltin(p, n)
	default:
		p.errorf(first(n), "unsupported in conditions: %s", describe(n))
	}
}

func validateBinary(p *parsed, n *ast.BinaryNode) {
	switch {
	case !binaryOps[n.Operator]:
		p.errorf(n.Location().From, "unsupported in conditions: %s%s", describe(n), operatorHint(n.Operator))
		return
	case p.mixedChain(n):
		p.errorf(n.Location().From, "unsupported in conditions: `%s` after a comparison (write `a < b and b %s c`, or add parentheses)", n.Operator, n.Operator)
		return
	}
	validate(p, n.Left)
	validate(p, n.Right)
}

// operatorHint points expr's word operators to their Python spelling.
func operatorHint(op string) string {
	switch op {
	case "contains":
		return " (write x.contains(y))"
	case "startsWith":
		return " (write x.startswith(y))"
	case "endsWith":
		return " (write x.endswith(y))"
	case "**", "^":
		return " (no exponentiation in conditions)"
	}
	return ""
}

func validateMember(p *parsed, n *ast.MemberNode) {
	if !isDotAccess(n) {
		p.errorf(first(n), "unsupported in conditions: %s", describe(n))
		return
	}
	validate(p, n.Node)
}

// isDotAccess tells x.name from x["name"], which expr parses alike: only the
// dot form locates the member at its name.
func isDotAccess(n *ast.MemberNode) bool {
	_, named := n.Property.(*ast.StringNode)
	return named && !n.Optional && n.Property.Location().From == n.Location().From
}

// validateCall checks a method call. A call of a bare name is a function
// that is not one of expr's builtins, such as len, so not one of ours either.
func validateCall(p *parsed, n *ast.CallNode) {
	if m, ok := n.Callee.(*ast.MemberNode); ok {
		validateMethod(p, m, n.Arguments)
		return
	}
	name := n.Callee.String()
	p.errorf(first(n), "unknown function `%s`%s", name, diag.DidYouMean(name, functions))
}

func validateMethod(p *parsed, m *ast.MemberNode, args []ast.Node) {
	if !isDotAccess(m) {
		p.errorf(first(m), "unsupported in conditions: %s", describe(m))
		return
	}
	name := m.Property.(*ast.StringNode).Value
	arity, ok := methods[name]
	switch {
	case !ok:
		p.errorf(m.Location().From, "unknown method `%s`%s", name, diag.DidYouMean(name, methodNames))
		return
	case len(args) != arity:
		p.errorf(m.Location().From, "%s() takes %s, got %d", name, takes(arity), len(args))
		return
	}
	validate(p, m.Node)
	for _, a := range args {
		validate(p, a)
	}
}

func validateBuiltin(p *parsed, n *ast.BuiltinNode) {
	at := n.Location().From
	switch {
	case !slices.Contains(functions, n.Name):
		p.errorf(at, "unknown function `%s`%s", n.Name, diag.DidYouMean(n.Name, functions))
	case len(n.Arguments) > 0 && first(n.Arguments[0]) < at:
		p.errorf(at, "unsupported in conditions: pipe `|`")
	case len(n.Arguments) != 1:
		p.errorf(at, "%s() takes %s, got %d", n.Name, takes(1), len(n.Arguments))
	default:
		validate(p, n.Arguments[0])
	}
}

// takes renders an arity: conditions' methods and functions take at most one
// argument.
func takes(n int) string {
	if n == 0 {
		return "no arguments"
	}
	return "1 argument"
}
