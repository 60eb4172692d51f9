package expression

import (
	"github.com/expr-lang/expr/ast"

	"github.com/flowc-dev/flowc/compiler/diag"
	"github.com/flowc-dev/flowc/ir"
)

// Dynamic parses a JSON-mode condition, whose variables are the keys of an
// output known only at run time, and lowers it to a tree over dynamic
// values: ExprVar for a variable, a CallKeys call for `keys`, a CallIn
// call for `in` and `.contains()` (substring, element or key as the value
// turns out), and Python's operators and methods otherwise, which the
// generated code evaluates with Python's semantics. Besides what Syntax
// reports, it rejects what could only fail at run time: a condition that
// is never a boolean (arithmetic, len(), lower(), a string or number), a
// division by the literal zero, and reading `x.name`, an attribute JSON
// values do not have. Every diagnostic points inside the expression.
func Dynamic(src Source) (*ir.Expr, diag.List) {
	p := parse(src)
	if p.diags.HasErrors() {
		return nil, p.diags
	}
	p.liftNot(&p.tree.Node)
	d := &dynamic{p: p}
	root, kind := d.lower(p.tree.Node)
	if kind != kindBool && kind != kindAny {
		d.errorf(first(p.tree.Node), "condition must be boolean, got %s", kind)
	}
	if d.diags.HasErrors() {
		return nil, d.diags
	}
	root.Source = src.Text
	return root, nil
}

// kind is what is known of a value before run time.
type kind string

const (
	kindAny    kind = "a value"
	kindBool   kind = "a boolean"
	kindNumber kind = "a number"
	kindString kind = "a string"
	kindNone   kind = "None"
)

type dynamic struct {
	p     *parsed
	diags diag.List
}

func (d *dynamic) errorf(offset int, format string, args ...any) {
	d.diags.Errorf(d.p.position(offset), format, args...)
}

func (d *dynamic) node(n ast.Node, k ir.ExprKind, op string, args ...*ir.Expr) *ir.Expr {
	return &ir.Expr{Pos: d.p.position(first(n)), Kind: k, Op: op, Args: args}
}

func (d *dynamic) lit(n ast.Node, v any, k kind) (*ir.Expr, kind) {
	x := d.node(n, ir.ExprLit, "")
	x.Lit = v
	return x, k
}

// lower lowers a node that validate accepted.
func (d *dynamic) lower(n ast.Node) (*ir.Expr, kind) {
	switch n := n.(type) {
	case *ast.IntegerNode:
		return d.lit(n, int64(n.Value), kindNumber)
	case *ast.FloatNode:
		return d.lit(n, n.Value, kindNumber)
	case *ast.StringNode:
		return d.lit(n, n.Value, kindString)
	case *ast.BoolNode:
		return d.lit(n, n.Value, kindBool)
	case *ast.NilNode:
		return d.lit(n, nil, kindNone)
	case *ast.IdentifierNode:
		return d.identifier(n)
	case *ast.UnaryNode:
		return d.unary(n)
	case *ast.BinaryNode:
		return d.binary(n)
	case *ast.CallNode:
		return d.method(n)
	case *ast.BuiltinNode: // len, the only function
		arg, _ := d.lower(n.Arguments[0])
		return d.node(n, ir.ExprCall, ir.CallLen, arg), kindNumber
	case *ast.MemberNode:
		d.errorf(n.Location().From, "cannot read `%s` of a JSON value: conditions read the keys of the previous output as variables, by name",
			n.Property.(*ast.StringNode).Value)
	}
	return &ir.Expr{}, kindAny
}

// identifier: True, False and None are Python's literals and `keys` the
// names of the variables; any other name is a variable.
func (d *dynamic) identifier(n *ast.IdentifierNode) (*ir.Expr, kind) {
	switch n.Value {
	case "True", "False":
		return d.lit(n, n.Value == "True", kindBool)
	case "None":
		return d.lit(n, nil, kindNone)
	case "keys":
		return d.node(n, ir.ExprCall, ir.CallKeys), kindAny
	}
	x := d.node(n, ir.ExprVar, "")
	x.Name = n.Value
	return x, kindAny
}

func (d *dynamic) unary(n *ast.UnaryNode) (*ir.Expr, kind) {
	arg, k := d.lower(n.Node)
	op := goOp(n.Operator)
	if op == "!" {
		return d.node(n, ir.ExprUnary, op, arg), kindBool
	}
	if k == kindString || k == kindNone {
		d.errorf(n.Location().From, "operator %s needs a number, got %s", n.Operator, k)
	}
	return d.node(n, ir.ExprUnary, op, arg), kindNumber
}

func (d *dynamic) binary(n *ast.BinaryNode) (*ir.Expr, kind) {
	a, ka := d.lower(n.Left)
	b, kb := d.lower(n.Right)
	switch op := goOp(n.Operator); op {
	case "&&", "||", "==", "!=", "<", "<=", ">", ">=":
		return d.node(n, ir.ExprBinary, op, a, b), kindBool
	case "in":
		return d.node(n, ir.ExprCall, ir.CallIn, b, a), kindBool
	case "/", "%":
		if isZero(b) {
			d.errorf(first(n.Right), "division by zero")
		}
	}
	k := kindNumber
	if n.Operator == "+" && ka == kindString && kb == kindString {
		k = kindString
	}
	return d.node(n, ir.ExprBinary, n.Operator, a, b), k
}

func isZero(x *ir.Expr) bool {
	if x.Kind != ir.ExprLit {
		return false
	}
	switch v := x.Lit.(type) {
	case int64:
		return v == 0
	case float64:
		return v == 0
	}
	return false
}

// dynamicCalls maps the string methods to built-in calls and the kind of
// their result; contains is `in` written as a method.
var dynamicCalls = map[string]struct {
	call string
	kind kind
}{
	"lower":      {ir.CallLower, kindString},
	"upper":      {ir.CallUpper, kindString},
	"startswith": {ir.CallStartsWith, kindBool},
	"endswith":   {ir.CallEndsWith, kindBool},
	"contains":   {ir.CallIn, kindBool},
}

// method lowers x.lower(), x.startswith(y) and the like; validate has
// checked the method and its number of arguments.
func (d *dynamic) method(n *ast.CallNode) (*ir.Expr, kind) {
	m := n.Callee.(*ast.MemberNode)
	recv, _ := d.lower(m.Node)
	args := []*ir.Expr{recv}
	for _, a := range n.Arguments {
		x, _ := d.lower(a)
		args = append(args, x)
	}
	c := dynamicCalls[m.Property.(*ast.StringNode).Value]
	return d.node(n, ir.ExprCall, c.call, args...), c.kind
}
