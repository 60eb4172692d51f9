package expression

import (
	"go/types"
	"reflect"
	"slices"
	"strings"

	"github.com/expr-lang/expr/ast"

	"github.com/flowc-dev/flowc/compiler/diag"
	"github.com/flowc-dev/flowc/ir"
)

// member lowers x.name, a field of a struct-typed field or item.
func (c *checker) member(n *ast.MemberNode) operand {
	recv := c.lower(n.Node)
	if recv.typ == nil {
		return invalid
	}
	name, at := n.Property.(*ast.StringNode).Value, n.Location().From
	st, ok := recv.typ.Underlying().(*types.Struct)
	switch {
	case isPointer(recv.typ):
		c.errorf(at, "cannot read `%s` through the pointer %s: conditions do not follow pointers", name, typeName(recv.typ))
		return invalid
	case !ok:
		c.errorf(at, "%s has no field `%s`", typeName(recv.typ), name)
		return invalid
	case recv.x.Kind != ir.ExprField && recv.x.Kind != ir.ExprItem:
		c.errorf(at, "cannot read `%s` of a computed value", name)
		return invalid
	}
	f := structField(st, name)
	if f == nil {
		c.errorf(at, "%s has no field `%s`%s", typeName(recv.typ), name, didYouMeanFold(name, fieldNames(st)))
		return invalid
	}
	x := c.node(recv.start, recv.x.Kind, "")
	x.Path = append(append([]string{}, recv.x.Path...), f.Name())
	return operand{x: x, typ: f.Type(), start: recv.start}
}

func isPointer(t types.Type) bool {
	_, ok := t.Underlying().(*types.Pointer)
	return ok
}

// structField finds the exported field a definition means by name: the one
// whose json tag is name, or whose Go name is name ignoring case and
// underscores (`error_count` is ErrorCount). Promoted fields are not searched.
func structField(st *types.Struct, name string) *types.Var {
	loose := strings.ReplaceAll(name, "_", "")
	var found *types.Var
	for i := range st.NumFields() {
		f := st.Field(i)
		switch {
		case !f.Exported():
		case jsonName(st.Tag(i)) == name:
			return f
		case found == nil && strings.EqualFold(f.Name(), loose):
			found = f
		}
	}
	return found
}

// jsonName is the key a field's json tag gives it, or "".
func jsonName(tag string) string {
	name, _, _ := strings.Cut(reflect.StructTag(tag).Get("json"), ",")
	if name == "-" {
		return ""
	}
	return name
}

// fieldNames are the names a definition would write for st's fields.
func fieldNames(st *types.Struct) []string {
	var out []string
	for i := range st.NumFields() {
		f := st.Field(i)
		if !f.Exported() {
			continue
		}
		if j := jsonName(st.Tag(i)); j != "" {
			out = append(out, j)
		} else {
			out = append(out, f.Name())
		}
	}
	return out
}

// didYouMeanFold is diag.DidYouMean ignoring case, as fields match.
func didYouMeanFold(name string, candidates []string) string {
	folded := make([]string, len(candidates))
	for i, c := range candidates {
		folded[i] = strings.ToLower(c)
	}
	i := slices.Index(folded, diag.Suggest(strings.ToLower(name), folded))
	if i < 0 {
		return ""
	}
	return diag.DidYouMean(candidates[i], candidates[i:i+1])
}

// method lowers s.lower(), s.startswith(x) and the like; validate has
// checked the callee is a known method with the right number of arguments.
func (c *checker) method(n *ast.CallNode) operand {
	m := n.Callee.(*ast.MemberNode)
	recv := c.lower(m.Node)
	args := make([]operand, len(n.Arguments))
	for i, a := range n.Arguments {
		args[i] = c.lower(a)
		if args[i].typ == nil {
			return invalid
		}
	}
	if recv.typ == nil {
		return invalid
	}
	name, at := m.Property.(*ast.StringNode).Value, m.Location().From
	if name == "contains" {
		return c.contains(recv, args[0], at)
	}
	return c.stringMethod(name, recv, args, at)
}

// stringCalls maps the methods of strings to built-in calls.
var stringCalls = map[string]string{
	"lower":      ir.CallLower,
	"upper":      ir.CallUpper,
	"startswith": ir.CallStartsWith,
	"endswith":   ir.CallEndsWith,
}

func (c *checker) stringMethod(name string, recv operand, args []operand, at int) operand {
	if !isString(recv.typ) {
		c.errorf(at, "%s() needs a string, got %s", name, typeName(recv.typ))
		return invalid
	}
	if len(args) == 0 {
		return c.call(recv.start, stringCalls[name], types.Typ[types.String], plain(recv))
	}
	if !isString(args[0].typ) {
		c.errorf(args[0].start, "%s() needs a string argument, got %s", name, typeName(args[0].typ))
		return invalid
	}
	return c.call(recv.start, stringCalls[name], types.Typ[types.Bool], plain(recv), plain(args[0]))
}

// contains is Python's `in` written as a method: x.contains(y) is y in x.
func (c *checker) contains(recv, arg operand, at int) operand {
	switch {
	case !sized(recv.typ):
		c.errorf(at, "contains() needs a string, list or map, got %s", typeName(recv.typ))
		return invalid
	case isString(recv.typ) && !isString(arg.typ):
		c.errorf(arg.start, "contains() needs a string argument, got %s", typeName(arg.typ))
		return invalid
	}
	return c.in(arg, recv, at)
}

// len lowers len(x) of a string, list or map; validate has checked that
// the function is len and has one argument. A string's length counts
// characters, as in Python, not bytes.
func (c *checker) len(n *ast.BuiltinNode) operand {
	a := c.lower(n.Arguments[0])
	if a.typ == nil {
		return invalid
	}
	if !sized(a.typ) {
		c.errorf(a.start, "len() needs a string, list or map, got %s", typeName(a.typ))
		return invalid
	}
	op := ir.CallLen
	if b, ok := a.typ.Underlying().(*types.Basic); ok && b.Info()&types.IsString != 0 {
		op = ir.CallRuneCount
	}
	return c.call(n.Location().From, op, types.Typ[types.Int], a)
}
