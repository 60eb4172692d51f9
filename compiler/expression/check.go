package expression

import (
	"go/constant"
	"go/types"

	"github.com/expr-lang/expr/ast"

	"github.com/flowc-dev/flowc/compiler/diag"
	"github.com/flowc-dev/flowc/ir"
)

// checker lowers a validated syntax tree against the Go types of Env.
type checker struct {
	src   *parsed
	env   *Env
	diags diag.List
}

// operand is a lowered sub-expression. A nil typ marks one that failed (or
// uses a field of unknown type): its parents stay quiet rather than report
// the same mistake again.
type operand struct {
	x     *ir.Expr
	typ   types.Type
	val   constant.Value // its value if Go sees a constant, else nil
	start int            // rune offset of its first token
}

var invalid = operand{}

func (c *checker) errorf(offset int, format string, args ...any) {
	c.diags.Errorf(c.src.position(offset), format, args...)
}

// node builds an ir node starting at offset.
func (c *checker) node(offset int, kind ir.ExprKind, op string, args ...*ir.Expr) *ir.Expr {
	return &ir.Expr{Pos: c.src.position(offset), Kind: kind, Op: op, Args: args}
}

func (c *checker) lower(n ast.Node) operand {
	switch n := n.(type) {
	case *ast.IntegerNode:
		return c.literal(n, int64(n.Value), types.UntypedInt, constant.MakeInt64(int64(n.Value)))
	case *ast.FloatNode:
		return c.literal(n, n.Value, types.UntypedFloat, constant.MakeFloat64(n.Value))
	case *ast.StringNode:
		return c.literal(n, n.Value, types.UntypedString, constant.MakeString(n.Value))
	case *ast.BoolNode:
		return c.literal(n, n.Value, types.UntypedBool, constant.MakeBool(n.Value))
	case *ast.NilNode:
		return c.literal(n, nil, types.UntypedNil, nil)
	case *ast.IdentifierNode:
		return c.identifier(n)
	case *ast.UnaryNode:
		return c.unary(n)
	case *ast.BinaryNode:
		return c.binary(n)
	case *ast.MemberNode:
		return c.member(n)
	case *ast.CallNode:
		return c.method(n)
	case *ast.BuiltinNode:
		return c.len(n)
	}
	// validate rejected every other node before lowering started.
	c.errorf(first(n), "unsupported in conditions: %s", describe(n))
	return invalid
}

func (c *checker) literal(n ast.Node, lit any, kind types.BasicKind, val constant.Value) operand {
	at := n.Location().From
	x := c.node(at, ir.ExprLit, "")
	x.Lit = lit
	return operand{x: x, typ: types.Typ[kind], val: val, start: at}
}

// identifier resolves a name, innermost scope first; True, False and None
// are Python's literals unless a field takes the name.
func (c *checker) identifier(n *ast.IdentifierNode) operand {
	at, name := n.Location().From, n.Value
	for _, v := range c.env.Vars {
		if v.Name == name {
			x := c.node(at, ir.ExprVar, "")
			x.Name = v.GoName
			return c.typed(x, v.Type, at)
		}
	}
	if name == "item" && c.env.Item != nil {
		x := c.node(at, ir.ExprItem, "")
		x.Path = []string{}
		return c.typed(x, c.env.Item, at)
	}
	for _, f := range c.env.Fields {
		if f.Name == name {
			x := c.node(at, ir.ExprField, "")
			x.Path = []string{f.GoName}
			return c.typed(x, f.Type, at)
		}
	}
	switch name {
	case "True", "False":
		return c.literal(n, name == "True", types.UntypedBool, constant.MakeBool(name == "True"))
	case "None":
		return c.literal(n, nil, types.UntypedNil, nil)
	}
	c.errorf(at, "unknown name `%s`%s", name, diag.DidYouMean(name, c.names()))
	return invalid
}

// typed makes an operand of a name; a type that could not be resolved was
// reported where it was declared.
func (c *checker) typed(x *ir.Expr, t types.Type, at int) operand {
	if t == nil || t == types.Typ[types.Invalid] {
		return invalid
	}
	return operand{x: x, typ: t, start: at}
}

// names are the candidates for "did you mean", innermost first.
func (c *checker) names() []string {
	var out []string
	for _, v := range c.env.Vars {
		out = append(out, v.Name)
	}
	if c.env.Item != nil {
		out = append(out, "item")
	}
	for _, f := range c.env.Fields {
		out = append(out, f.Name)
	}
	return append(out, "True", "False", "None")
}
