package pyexpr

import "strings"

// convertValue is the engine's convert_value (utils.py), applied to each
// variable of a condition: a string "true" or "false" in any case is a
// boolean, a string that is a Python literal is that literal's value
// ("12" is 12, "[1, 2]" a list), and anything else is left as it is.
func convertValue(v any) any {
	s, ok := v.(string)
	if !ok {
		return v
	}
	switch strings.ToLower(s) {
	case "true":
		return true
	case "false":
		return false
	}
	if lit, ok := literalEval(s); ok {
		return lit
	}
	return v
}

// literalEval is Python's ast.literal_eval of a string: the value of a
// literal (a string, a number, True, False, None, and tuples, lists,
// dicts and sets of literals), else false. Leading spaces and tabs are
// ignored, as literal_eval ignores them.
func literalEval(s string) (any, bool) {
	e, err := Parse(strings.TrimLeft(s, " \t"))
	if err != nil {
		return nil, false
	}
	v, ok := literal(e.root)
	return v, ok
}

func literal(n node) (any, bool) {
	switch n := n.(type) {
	case *constNode:
		return n.val, n.err == ""
	case *unaryNode:
		c, ok := n.x.(*constNode)
		if !ok || c.err != "" || (n.op != "-" && n.op != "+") {
			return nil, false
		}
		if _, _, _, isNum := number(c.val); !isNum {
			return nil, false
		}
		if n.op == "+" {
			v, err := arith("+", int64(0), c.val)
			return v, err == nil
		}
		v, err := negate(c.val)
		return v, err == nil
	case *listNode:
		return literals(n.elts)
	case *tupleNode:
		l, ok := literals(n.elts)
		return tuple(l), ok
	case *setNode:
		l, ok := literals(n.elts)
		if !ok {
			return nil, false
		}
		s, err := toSet(l)
		return s, err == nil
	case *dictNode:
		return literalDict(n)
	case *callNode:
		if fn, ok := n.fn.(*nameNode); ok && fn.id == "set" && len(n.args) == 0 && len(n.kwargs) == 0 {
			return &set{newDict()}, true
		}
	}
	return nil, false
}

func literals(elts []node) ([]any, bool) {
	out := make([]any, len(elts))
	for i, x := range elts {
		v, ok := literal(x)
		if !ok {
			return nil, false
		}
		out[i] = v
	}
	return out, true
}

func literalDict(n *dictNode) (any, bool) {
	d := newDict()
	for i, k := range n.keys {
		if k == nil {
			return nil, false
		}
		key, ok := literal(k)
		if !ok {
			return nil, false
		}
		v, ok := literal(n.vals[i])
		if !ok || d.set(key, v) != nil {
			return nil, false
		}
	}
	return d, true
}
