package expression

import (
	"go/constant"
	"go/token"
	"go/types"

	"github.com/expr-lang/expr/ast"

	"github.com/flowc-dev/flowc/ir"
)

// goOps spells expr's operators as Go's.
var goOps = map[string]string{"and": "&&", "or": "||", "not": "!"}

func goOp(op string) string {
	if g, ok := goOps[op]; ok {
		return g
	}
	return op
}

// constTokens maps Go operators to go/constant's, to fold untyped constants.
var constTokens = map[string]token.Token{
	"+": token.ADD, "-": token.SUB, "*": token.MUL, "/": token.QUO, "%": token.REM, "!": token.NOT,
}

func (c *checker) unary(n *ast.UnaryNode) operand {
	a := c.lower(n.Node)
	if a.typ == nil {
		return invalid
	}
	op, at := goOp(n.Operator), n.Location().From
	switch {
	case op == "!" && isBool(a.typ), op == "-" && classOf(a.typ) == classNumber:
		return c.unaryResult(op, a, min(at, a.start))
	case op == "+" && classOf(a.typ) == classNumber:
		a.start = min(at, a.start)
		return a
	}
	c.errorf(at, "operator %s needs %s, got %s", n.Operator, operandKind(op), typeName(a.typ))
	return invalid
}

func operandKind(op string) string {
	if op == "!" {
		return "a boolean"
	}
	return "a number"
}

func (c *checker) unaryResult(op string, a operand, at int) operand {
	r := operand{x: c.node(at, ir.ExprUnary, op, a.x), typ: a.typ, start: at}
	if a.val != nil {
		r.val = constant.UnaryOp(constTokens[op], a.val, 0)
	}
	return r
}

func (c *checker) binary(n *ast.BinaryNode) operand {
	a, b := c.lower(n.Left), c.lower(n.Right)
	if a.typ == nil || b.typ == nil {
		return invalid
	}
	op, at := goOp(n.Operator), n.Location().From
	switch op {
	case "&&", "||":
		return c.logical(n.Operator, a, b, at)
	case "==", "!=", "<", "<=", ">", ">=":
		return c.compare(op, a, b, at)
	case "in":
		return c.in(a, b, at)
	}
	return c.arithmetic(op, a, b, at)
}

// logical lowers `and`, `or` and their spellings && and ||, as written.
func (c *checker) logical(written string, a, b operand, at int) operand {
	if !isBool(a.typ) || !isBool(b.typ) {
		c.errorf(at, "operator %s needs booleans, got %s and %s", written, typeName(a.typ), typeName(b.typ))
		return invalid
	}
	a, b, _ = unify(a, b)
	return c.binaryResult(goOp(written), a, b, resultType(a, b))
}

// binaryResult builds a op b of type t, starting where a starts.
func (c *checker) binaryResult(op string, a, b operand, t types.Type) operand {
	return operand{x: c.node(a.start, ir.ExprBinary, op, a.x, b.x), typ: t, start: a.start}
}

// resultType is the type of an operation on operands unify has matched.
func resultType(a, b operand) types.Type {
	if !isUntyped(a.typ) {
		return a.typ
	}
	if !isUntyped(b.typ) || isFloat(b.typ) {
		return b.typ
	}
	return a.typ
}

// unify brings two operands to one type the way Go needs it, reporting
// whether they can meet. Untyped constants take the other side's type when
// they fit it; when they do not (2.5 against an int) the typed side becomes
// a float64. Typed operands of one class that differ are converted to their
// common basic type.
func unify(a, b operand) (operand, operand, bool) {
	ca, cb := classOf(a.typ), classOf(b.typ)
	switch {
	case ca != cb || ca == classOther:
		return a, b, types.Identical(a.typ, b.typ)
	case isUntyped(a.typ) && isUntyped(b.typ):
		return a, b, true
	case isUntyped(a.typ):
		return a, fit(a, b), true
	case isUntyped(b.typ):
		return fit(b, a), b, true
	case types.Identical(a.typ, b.typ):
		return a, b, true
	}
	k := target(a.typ, b.typ)
	return convert(a, k), convert(b, k), true
}

// fit makes typed operand t able to meet untyped operand u of its class.
// Every untyped number fits a float64: fold refuses the ones that do not.
func fit(u, t operand) operand {
	if u.val == nil || representable(u.val, basic(t.typ)) {
		return t
	}
	return convert(t, types.Float64)
}

// convert wraps a in a conversion to the basic type k, unless it has it. A
// converted constant stays a constant for Go, so it keeps its value.
func convert(a operand, k types.BasicKind) operand {
	t := types.Typ[k]
	if types.Identical(a.typ, t) {
		return a
	}
	x := &ir.Expr{Pos: a.x.Pos, Kind: ir.ExprConvert, Op: t.Name(), Args: []*ir.Expr{a.x}}
	r := operand{x: x, typ: t, val: a.val, start: a.start}
	if a.val != nil && isFloat(t) {
		r.val = constant.ToFloat(a.val)
	}
	return r
}

func (c *checker) compare(op string, a, b operand, at int) operand {
	if isNil(a.typ) || isNil(b.typ) {
		return c.compareNil(op, a, b, at)
	}
	a, b, ok := unify(a, b)
	ordered := op != "==" && op != "!="
	switch {
	case !ok && (ordered || !comparableViaInterface(a, b)):
		c.errorf(at, "cannot compare %s and %s", typeName(a.typ), typeName(b.typ))
		return invalid
	case ordered && classOf(a.typ) != classString && classOf(a.typ) != classNumber:
		c.errorf(at, "operator %s needs numbers or strings, got %s", op, typeName(a.typ))
		return invalid
	case !ordered && (!types.Comparable(a.typ) || !types.Comparable(b.typ)):
		bad := a.typ
		if types.Comparable(bad) {
			bad = b.typ
		}
		c.errorf(at, "cannot compare %s with %s; only None can be compared to it", typeName(bad), op)
		return invalid
	}
	return c.binaryResult(op, a, b, types.Typ[types.UntypedBool])
}

// comparableViaInterface allows what Go allows of an interface: testing it
// for equality with a value its type implements.
func comparableViaInterface(a, b operand) bool {
	return types.IsInterface(a.typ) && assignable(b, a.typ) || types.IsInterface(b.typ) && assignable(a, b.typ)
}

// compareNil lowers `x == None` to a nil check of a slice, map, pointer or
// interface.
func (c *checker) compareNil(op string, a, b operand, at int) operand {
	if isNil(a.typ) {
		a, b = b, a
	}
	switch {
	case op != "==" && op != "!=":
		c.errorf(at, "operator %s is not defined on None", op)
		return invalid
	case isNil(a.typ):
		c.errorf(at, "cannot compare None with None")
		return invalid
	case !nilable(a.typ):
		c.errorf(at, "cannot compare %s with None: it is never None", typeName(a.typ))
		return invalid
	}
	r := c.call(min(a.start, b.start), ir.CallIsNil, types.Typ[types.Bool], a)
	if op == "!=" {
		return c.unaryResult("!", r, r.start)
	}
	return r
}

// plain converts a string of a named type to string, which the functions
// of package strings take.
func plain(a operand) operand {
	if isUntyped(a.typ) {
		return a
	}
	return convert(a, types.String)
}

// call builds a built-in call of type t whose source starts at start.
func (c *checker) call(start int, name string, t types.Type, args ...operand) operand {
	xs := make([]*ir.Expr, len(args))
	for i, a := range args {
		xs[i] = a.x
	}
	return operand{x: c.node(start, ir.ExprCall, name, xs...), typ: t, start: start}
}

// in lowers Python's `a in b`: substring, map key or list element.
func (c *checker) in(a, b operand, at int) operand {
	boolean := types.Typ[types.Bool]
	switch u := b.typ.Underlying().(type) {
	case *types.Basic:
		if isString(u) && classOf(a.typ) == classString {
			return c.call(min(a.start, b.start), ir.CallContains, boolean, plain(b), plain(a))
		}
		if isString(u) {
			c.errorf(at, "`in` a string needs a string on its left, got %s", typeName(a.typ))
			return invalid
		}
	case *types.Map:
		return c.lookup(ir.CallHasKey, a, b, u.Key(), "key", at)
	case *types.Slice:
		return c.lookup(ir.CallInSlice, a, b, u.Elem(), "element", at)
	}
	c.errorf(at, "`in` needs a string, list or map on its right, got %s", typeName(b.typ))
	return invalid
}

// lookup looks a up among the keys or elements (of type t) of collection b.
func (c *checker) lookup(name string, a, b operand, t types.Type, what string, at int) operand {
	switch {
	case !types.Comparable(t):
		c.errorf(at, "cannot look for a value in %s: its elements are not comparable", typeName(b.typ))
		return invalid
	case !assignable(a, t):
		c.errorf(at, "cannot look for %s in %s (%s type %s)", typeName(a.typ), typeName(b.typ), what, typeName(t))
		return invalid
	}
	return c.call(min(a.start, b.start), name, types.Typ[types.Bool], b, a)
}

// assignable reports whether a can be passed where a t is expected.
func assignable(a operand, t types.Type) bool {
	switch {
	case isNil(a.typ):
		return nilable(t)
	case !isUntyped(a.typ):
		return types.AssignableTo(a.typ, t)
	case types.IsInterface(t):
		return true
	}
	return classOf(a.typ) == classOf(t) && (a.val == nil || representable(a.val, basic(t)))
}

func (c *checker) arithmetic(op string, a, b operand, at int) operand {
	if op == "/" {
		a, b = trueDivision(a, b)
	}
	a, b, ok := unify(a, b)
	t := resultType(a, b)
	switch k := classOf(t); {
	case !ok:
		c.errorf(at, "mismatched types %s and %s for %s", typeName(a.typ), typeName(b.typ), op)
	case op == "+" && k == classString:
		return c.binaryResult(op, a, b, t)
	case k != classNumber:
		c.errorf(at, "operator %s needs numbers, got %s", op, typeName(t))
	case op == "%" && !isInteger(t):
		c.errorf(at, "operator %% needs integers, got %s", typeName(t))
	case (op == "/" || op == "%") && b.val != nil && constant.Sign(b.val) == 0:
		c.errorf(b.start, "division by zero")
	default:
		return c.fold(op, c.binaryResult(op, a, b, t), a, b)
	}
	return invalid
}

// trueDivision converts to float64, since Python's / does not truncate:
// typed integers always (an int field divided by 2.0 would still divide as
// ints), and the left of two constants, which could both print as integers
// (2.0 is 2 in Go's output if the printer drops the point).
func trueDivision(a, b operand) (operand, operand) {
	if isInteger(a.typ) && !isUntyped(a.typ) {
		a = convert(a, types.Float64)
	}
	if isInteger(b.typ) && !isUntyped(b.typ) {
		b = convert(b, types.Float64)
	}
	if isUntyped(a.typ) && isUntyped(b.typ) && classOf(a.typ) == classNumber && classOf(b.typ) == classNumber {
		a = convert(a, types.Float64)
	}
	return a, b
}

// fold computes the value of an operation on two constants, which Go
// evaluates at compile time and rejects if it overflows its type; an untyped
// result must still fit a float64 (see fit).
func (c *checker) fold(op string, r, a, b operand) operand {
	if a.val == nil || b.val == nil {
		return r
	}
	r.val = constant.BinaryOp(a.val, constTokens[op], b.val)
	limit := basic(r.typ)
	if isUntyped(r.typ) {
		limit = types.Typ[types.Float64]
	}
	if !representable(r.val, limit) {
		c.errorf(r.start, "constant overflow: the value does not fit %s", typeName(limit))
		return invalid
	}
	return r
}
