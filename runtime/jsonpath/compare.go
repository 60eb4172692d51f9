package jsonpath

import (
	"strconv"
	"strings"
)

func (x orExpr) test(e *evaluator, item any) bool {
	for _, a := range x {
		if a.test(e, item) {
			return true
		}
	}
	return false
}

func (x andExpr) test(e *evaluator, item any) bool {
	for _, a := range x {
		if !a.test(e, item) {
			return false
		}
	}
	return true
}

func (x notExpr) test(e *evaluator, item any) bool { return !x.x.test(e, item) }

func (r *relation) test(e *evaluator, item any) bool {
	if r.op == "exists" {
		_, err := r.left.path.eval(e.start(r.left.path, item), e.root, true, e.work)
		return (err == nil) == r.wantExists
	}
	return compare(e.resolve(r.left, item), r.op, e.resolve(r.right, item))
}

// start is where a path inside a filter begins: @ at the item, $ at the
// document.
func (e *evaluator) start(p *Path, item any) any {
	if p.fromItem {
		return item
	}
	return e.root
}

// resolve evaluates a path operand into a value; one that names nothing
// is undefined, which equals nothing.
func (e *evaluator) resolve(o operand, item any) operand {
	if o.kind != opdPath {
		return o
	}
	v, err := o.path.eval(e.start(o.path, item), e.root, false, e.work)
	if err != nil {
		return operand{kind: opdUndefined}
	}
	return valueOperand(v)
}

func valueOperand(v any) operand {
	switch v := v.(type) {
	case nil:
		return operand{kind: opdNull}
	case bool:
		return operand{kind: opdBool, value: v}
	case string:
		return operand{kind: opdString, value: v}
	}
	if n, ok := number(v); ok {
		return operand{kind: opdNumber, value: n}
	}
	return operand{kind: opdJSON, value: v}
}

// compare applies a relational operator as Jayway's evaluators do.
func compare(l operand, op string, r operand) bool {
	switch op {
	case "==":
		return equal(l, r)
	case "!=":
		return !equal(l, r)
	case "===":
		return l.kind == r.kind && equal(l, r)
	case "!==":
		return l.kind != r.kind || !equal(l, r)
	case "<", "<=", ">", ">=":
		return ordered(l, op, r)
	case "=~":
		return matches(l, r)
	case "in":
		return in(l, r)
	case "nin":
		return !in(l, r)
	}
	return compareCollections(l, op, r)
}

// equal is Jayway's ValueNode.equals of l with r: a number equals a
// string that reads as that number, a string a number that prints as it.
func equal(l, r operand) bool {
	switch l.kind {
	case opdNumber:
		switch r.kind {
		case opdNumber:
			return l.value == r.value
		case opdString:
			n, err := strconv.ParseFloat(r.value.(string), 64)
			return err == nil && isDecimal(r.value.(string)) && n == l.value
		}
	case opdString:
		switch r.kind {
		case opdString:
			return l.value == r.value
		case opdNumber:
			return l.value == javaNumber(r.value.(float64))
		}
	case opdBool:
		return r.kind == opdBool && l.value == r.value
	case opdNull:
		return r.kind == opdNull
	case opdJSON:
		return r.kind == opdJSON && equalJSON(l.value, r.value)
	}
	return false
}

// isDecimal reports whether s is written as Java's BigDecimal reads a
// number.
func isDecimal(s string) bool {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "-"), "+")
	return s != "" && strings.Trim(s, "0123456789.eE+-") == "" && !strings.HasPrefix(s, "e") && !strings.HasPrefix(s, "E")
}

func ordered(l operand, op string, r operand) bool {
	c := 0
	switch {
	case l.kind == opdNumber && r.kind == opdNumber:
		a, b := l.value.(float64), r.value.(float64)
		if a < b {
			c = -1
		} else if a > b {
			c = 1
		}
	case l.kind == opdString && r.kind == opdString:
		c = compareJavaStrings(l.value.(string), r.value.(string))
	default:
		return false
	}
	switch op {
	case "<":
		return c < 0
	case "<=":
		return c <= 0
	case ">":
		return c > 0
	}
	return c >= 0
}

// matches tests the text of one operand against the /pattern/ that is the
// other.
func matches(l, r operand) bool {
	if (l.kind == opdPattern) == (r.kind == opdPattern) {
		return false
	}
	if l.kind == opdPattern {
		l, r = r, l
	}
	input := ""
	switch l.kind {
	case opdString:
		input = l.value.(string)
	case opdNumber:
		input = javaNumber(l.value.(float64))
	case opdBool:
		input = strconv.FormatBool(l.value.(bool))
	}
	return r.pattern.MatchString(input)
}

// list returns the items of an array operand as operands.
func list(o operand) ([]operand, bool) {
	arr, ok := o.value.([]any)
	if o.kind != opdJSON || !ok {
		return nil, false
	}
	out := make([]operand, len(arr))
	for i, v := range arr {
		out[i] = valueOperand(v)
	}
	return out, true
}

func contains(items []operand, o operand) bool {
	for _, item := range items {
		if equal(o, item) {
			return true
		}
	}
	return false
}

func in(l, r operand) bool {
	items, ok := list(r)
	return ok && contains(items, l)
}

// compareCollections applies the operators on arrays, strings and sizes.
func compareCollections(l operand, op string, r operand) bool {
	switch op {
	case "size":
		n, ok := r.value.(float64)
		if r.kind != opdNumber || !ok {
			return false
		}
		if s, ok := l.value.(string); ok && l.kind == opdString {
			return float64(javaLength(s)) == float64(int64(n))
		}
		items, ok := list(l)
		return ok && float64(len(items)) == float64(int64(n))
	case "empty":
		want, ok := r.value.(bool)
		if r.kind != opdBool || !ok {
			return false
		}
		if s, ok := l.value.(string); ok && l.kind == opdString {
			return (s == "") == want
		}
		if l.kind != opdJSON {
			return false
		}
		if items, ok := list(l); ok {
			return (len(items) == 0) == want
		}
		return (objectLen(l.value) == 0) == want
	case "contains":
		if ls, ok := l.value.(string); ok && l.kind == opdString {
			rs, ok := r.value.(string)
			return ok && r.kind == opdString && strings.Contains(ls, rs)
		}
		items, ok := list(l)
		return ok && contains(items, r)
	}
	left, okl := list(l)
	right, okr := list(r)
	if !okl || !okr {
		return false
	}
	switch op {
	case "all":
		for _, x := range right {
			if !contains(left, x) {
				return false
			}
		}
		return true
	case "subsetof":
		for _, x := range left {
			if !contains(right, x) {
				return false
			}
		}
		return true
	case "anyof":
		for _, x := range left {
			if contains(right, x) {
				return true
			}
		}
		return false
	}
	for _, x := range left { // noneof
		if contains(right, x) {
			return false
		}
	}
	return true
}
