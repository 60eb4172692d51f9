package pyexpr

import (
	"fmt"
	"strings"
)

// Eval evaluates the expression with vars as its local variables, as the
// engine's safe_eval does (safe_eval.py, _SafeEvaluator): a name is a
// variable, else one of the allowed built-ins; constructs the engine does
// not allow, and Python's own exceptions, are errors.
func (e *Expr) Eval(vars map[string]any) (result any, err error) {
	ev := &evaluator{vars: vars, cache: map[string]any{}}
	return ev.eval(e.root)
}

type evaluator struct {
	vars  map[string]any
	cache map[string]any // variables read so far, as Python values
}

// evalError is an error at a node: safe_eval's SafeEvalError, or a Python
// exception.
func evalErr(n node, err error) error {
	if e, ok := err.(*Error); ok {
		return e
	}
	return &Error{Offset: n.offset(), Msg: err.Error()}
}

func disallowed(n node, format string, args ...any) error {
	return &Error{Offset: n.offset(), Msg: fmt.Sprintf(format, args...)}
}

func (ev *evaluator) eval(n node) (any, error) {
	switch n := n.(type) {
	case *constNode:
		if n.err != "" {
			return nil, disallowed(n, "%s", n.err)
		}
		return n.val, nil
	case *nameNode:
		return ev.name(n)
	case *unaryNode:
		return ev.unary(n)
	case *binNode:
		return ev.binary(n)
	case *boolNode:
		return ev.boolOp(n)
	case *compareNode:
		return ev.compare(n)
	case *ifNode:
		test, err := ev.eval(n.test)
		if err != nil {
			return nil, err
		}
		if Truthy(test) {
			return ev.eval(n.body)
		}
		return ev.eval(n.orelse)
	case *attrNode:
		return ev.attribute(n)
	case *subscriptNode:
		return ev.subscript(n)
	case *sliceNode:
		return ev.slice(n)
	case *listNode:
		return ev.list(n.elts)
	case *tupleNode:
		items, err := ev.list(n.elts)
		return tuple(items), err
	case *dictNode:
		return ev.dict(n)
	case *callNode:
		return ev.call(n)
	case *joinedNode:
		return ev.joined(n)
	case *formattedNode:
		return ev.formatted(n)
	case *setNode:
		return nil, disallowed(n, "Disallowed expression type: Set")
	case *disallowedNode:
		return nil, disallowed(n, "Disallowed expression type: %s", n.kind)
	}
	return nil, disallowed(n, "Disallowed expression type")
}

func (ev *evaluator) name(n *nameNode) (any, error) {
	if v, ok := ev.cache[n.id]; ok {
		return v, nil
	}
	if v, ok := ev.vars[n.id]; ok {
		v = normalize(v)
		ev.cache[n.id] = v
		return v, nil
	}
	if builtins[n.id] != nil {
		return builtinFn(n.id), nil
	}
	return nil, disallowed(n, "Undefined name: '%s'", n.id)
}

func (ev *evaluator) unary(n *unaryNode) (any, error) {
	x, err := ev.eval(n.x)
	if err != nil {
		return nil, err
	}
	switch n.op {
	case "not":
		return !Truthy(x), nil
	case "-":
		r, err := negate(x)
		return r, wrap(n, err)
	case "+":
		if i, f, isFloat, ok := number(x); ok {
			if isFloat {
				return f, nil
			}
			return i, nil
		}
		return nil, evalErr(n, typeErr("bad operand type for unary +: '%s'", typeName(x)))
	}
	return nil, disallowed(n, "Disallowed unary operator: Invert")
}

func wrap(n node, err error) error {
	if err == nil {
		return nil
	}
	return evalErr(n, err)
}

var binOpNames = map[string]string{
	"|": "BitOr", "^": "BitXor", "&": "BitAnd", "<<": "LShift", ">>": "RShift", "@": "MatMult",
}

func (ev *evaluator) binary(n *binNode) (any, error) {
	if name, bad := binOpNames[n.op]; bad {
		return nil, disallowed(n, "Disallowed binary operator: %s", name)
	}
	l, err := ev.eval(n.l)
	if err != nil {
		return nil, err
	}
	r, err := ev.eval(n.r)
	if err != nil {
		return nil, err
	}
	v, err := arith(n.op, l, r)
	return v, wrap(n, err)
}

func (ev *evaluator) boolOp(n *boolNode) (any, error) {
	var result any
	for _, x := range n.vals {
		v, err := ev.eval(x)
		if err != nil {
			return nil, err
		}
		result = v
		if Truthy(v) == (n.op == "or") {
			return v, nil
		}
	}
	return result, nil
}

func (ev *evaluator) compare(n *compareNode) (any, error) {
	left, err := ev.eval(n.left)
	if err != nil {
		return nil, err
	}
	for i, op := range n.ops {
		right, err := ev.eval(n.comps[i])
		if err != nil {
			return nil, err
		}
		ok, err := compareOp(op, left, right)
		if err != nil {
			return nil, evalErr(n.comps[i], err)
		}
		if !ok {
			return false, nil
		}
		left = right
	}
	return true, nil
}

func compareOp(op string, a, b any) (bool, error) {
	switch op {
	case "==":
		return equal(a, b), nil
	case "!=":
		return !equal(a, b), nil
	case "in":
		return contains(b, a)
	case "not in":
		in, err := contains(b, a)
		return !in, err
	case "is":
		return identical(a, b), nil
	case "is not":
		return !identical(a, b), nil
	}
	return compare(op, a, b)
}

// identical is Python's `is` for the values whose identity a program can
// rely on: None, the booleans, small integers, built-in functions.
func identical(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case int64:
		y, ok := b.(int64)
		return ok && x == y && x >= -5 && x <= 256
	case builtinFn:
		return a == b
	}
	return false
}

// contains is Python's needle in haystack.
func contains(haystack, needle any) (bool, error) {
	switch h := haystack.(type) {
	case string:
		s, ok := needle.(string)
		if !ok {
			return false, typeErr("'in <string>' requires string as left operand, not %s", typeName(needle))
		}
		return strings.Contains(h, s), nil
	case []any:
		return containsEqual(h, needle), nil
	case tuple:
		return containsEqual(h, needle), nil
	case *dict:
		_, ok, err := h.get(needle)
		return ok, err
	case *set:
		_, ok, err := h.d.get(needle)
		return ok, err
	case dictKeys:
		if _, err := hashKey(needle); err != nil {
			return false, err
		}
		return containsEqual(h, needle), nil
	case *iterator:
		items, err := h.items()
		return err == nil && containsEqual(items, needle), err
	}
	return false, typeErr("argument of type '%s' is not iterable", typeName(haystack))
}

func containsEqual(items []any, needle any) bool {
	for _, x := range items {
		if equal(x, needle) {
			return true
		}
	}
	return false
}

func (ev *evaluator) attribute(n *attrNode) (any, error) {
	if strings.HasPrefix(n.name, "_") {
		return nil, disallowed(n, "Access to private/dunder attribute '%s' is not allowed", n.name)
	}
	obj, err := ev.eval(n.x)
	if err != nil {
		return nil, err
	}
	if !hasMethod(obj, n.name) {
		return nil, disallowed(n, "Object has no attribute '%s'", n.name)
	}
	return boundMethod{obj, n.name}, nil
}

func (ev *evaluator) subscript(n *subscriptNode) (any, error) {
	obj, err := ev.eval(n.x)
	if err != nil {
		return nil, err
	}
	key, err := ev.eval(n.index)
	if err != nil {
		return nil, err
	}
	v, err := index(obj, key)
	if err != nil {
		return nil, disallowed(n, "Subscript access failed: %v", err)
	}
	return v, nil
}

func (ev *evaluator) slice(n *sliceNode) (any, error) {
	var s sliceVal
	for _, part := range []struct {
		x   node
		dst *any
	}{{n.lo, &s.lo}, {n.hi, &s.hi}, {n.step, &s.step}} {
		if part.x == nil {
			continue
		}
		v, err := ev.eval(part.x)
		if err != nil {
			return nil, err
		}
		*part.dst = v
	}
	return s, nil
}

func (ev *evaluator) list(elts []node) ([]any, error) {
	out := make([]any, 0, len(elts))
	for _, x := range elts {
		v, err := ev.eval(x)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

func (ev *evaluator) dict(n *dictNode) (any, error) {
	d := newDict()
	for i, k := range n.keys {
		if k == nil {
			return nil, disallowed(n.vals[i], "Disallowed expression type: NoneType")
		}
		key, err := ev.eval(k)
		if err != nil {
			return nil, err
		}
		v, err := ev.eval(n.vals[i])
		if err != nil {
			return nil, err
		}
		if err := d.set(key, v); err != nil {
			return nil, evalErr(k, err)
		}
	}
	return d, nil
}

func (ev *evaluator) call(n *callNode) (any, error) {
	for _, a := range n.args {
		if d, ok := a.(*disallowedNode); ok && d.kind == "Starred" {
			return nil, disallowed(a, "Starred arguments are not allowed in function calls")
		}
	}
	args, err := ev.list(n.args)
	if err != nil {
		return nil, err
	}
	kwargs := map[string]any{}
	for _, kw := range n.kwargs {
		if kw.name == "" {
			continue
		}
		v, err := ev.eval(kw.val)
		if err != nil {
			return nil, err
		}
		kwargs[kw.name] = v
	}
	for _, kw := range n.kwargs {
		if kw.name == "" {
			return nil, disallowed(kw.val, "**kwargs unpacking is not allowed in function calls")
		}
	}
	switch fn := n.fn.(type) {
	case *nameNode:
		if builtins[fn.id] == nil {
			return nil, disallowed(fn, "Function '%s' is not allowed", fn.id)
		}
		v, err := callBuiltin(fn.id, args, kwargs)
		return v, wrap(n, err)
	case *attrNode:
		return ev.callMethod(n, fn, args, kwargs)
	}
	return nil, disallowed(n, "Only direct function calls and method calls are allowed")
}

func (ev *evaluator) callMethod(n *callNode, fn *attrNode, args []any, kwargs map[string]any) (any, error) {
	if strings.HasPrefix(fn.name, "_") {
		return nil, disallowed(fn, "Calling private/dunder method '%s' is not allowed", fn.name)
	}
	obj, err := ev.eval(fn.x)
	if err != nil {
		return nil, err
	}
	if b, ok := obj.(builtinFn); ok {
		return nil, disallowed(fn, "Method calls via attribute access on built-in types are not allowed: %s.%s", typeName(b), fn.name)
	}
	if !hasMethod(obj, fn.name) {
		return nil, disallowed(fn, "Object has no method '%s'", fn.name)
	}
	v, err := callMethod(obj, fn.name, args, kwargs)
	return v, wrap(n, err)
}

func (ev *evaluator) joined(n *joinedNode) (any, error) {
	var b strings.Builder
	for _, part := range n.parts {
		v, err := ev.eval(part)
		if err != nil {
			return nil, err
		}
		b.WriteString(Str(v))
	}
	return b.String(), nil
}

// formatted is a replacement field of an f-string. The engine ignores its
// conversion (!r, !s, !a): the joined string takes str() of the value
// (safe_eval.py, _handle_formatted_value and _handle_joined_str).
func (ev *evaluator) formatted(n *formattedNode) (any, error) {
	v, err := ev.eval(n.x)
	if err != nil || n.spec == nil {
		return v, err
	}
	spec, err := ev.eval(n.spec)
	if err != nil {
		return nil, err
	}
	s, err := format(v, spec.(string))
	return s, wrap(n, err)
}

// rewrite returns n with f applied to every node, children first.
func rewrite(n node, f func(node) node) node {
	if n == nil {
		return nil
	}
	r := func(x node) node { return rewrite(x, f) }
	all := func(xs []node) []node {
		for i, x := range xs {
			if x != nil {
				xs[i] = r(x)
			}
		}
		return xs
	}
	switch n := n.(type) {
	case *unaryNode:
		n.x = r(n.x)
	case *binNode:
		n.l, n.r = r(n.l), r(n.r)
	case *boolNode:
		all(n.vals)
	case *compareNode:
		n.left = r(n.left)
		all(n.comps)
	case *ifNode:
		n.test, n.body, n.orelse = r(n.test), r(n.body), r(n.orelse)
	case *attrNode:
		n.x = r(n.x)
	case *subscriptNode:
		n.x, n.index = r(n.x), r(n.index)
	case *sliceNode:
		n.lo, n.hi, n.step = r(n.lo), r(n.hi), r(n.step)
	case *listNode:
		all(n.elts)
	case *tupleNode:
		all(n.elts)
	case *setNode:
		all(n.elts)
	case *dictNode:
		all(n.keys)
		all(n.vals)
	case *callNode:
		n.fn = r(n.fn)
		all(n.args)
		for i := range n.kwargs {
			n.kwargs[i].val = r(n.kwargs[i].val)
		}
	case *joinedNode:
		all(n.parts)
	case *formattedNode:
		n.x, n.spec = r(n.x), r(n.spec)
	}
	return f(n)
}
