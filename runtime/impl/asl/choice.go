package asl

import (
	"regexp"
	"time"
)

// cmpOp is a Choice comparison operator; the names are AWS's.
type cmpOp int

const (
	StringEquals cmpOp = iota
	StringLessThan
	StringGreaterThan
	StringLessThanEquals
	StringGreaterThanEquals
	NumericEquals
	NumericLessThan
	NumericGreaterThan
	NumericLessThanEquals
	NumericGreaterThanEquals
	TimestampEquals
	TimestampLessThan
	TimestampGreaterThan
	TimestampLessThanEquals
	TimestampGreaterThanEquals
	BooleanEquals
)

// typeTest is a Choice type test (IsNull and friends).
type typeTest int

const (
	IsNull typeTest = iota
	IsPresent
	IsNumeric
	IsString
	IsBoolean
	IsTimestamp
)

// Choice evaluates the comparisons of one Choice state against its input.
// A Variable that points nowhere is a States.Runtime error (IsPresent
// aside): the comparison is false and Err reports it. Values of the wrong
// type compare false, as in Step Functions.
type Choice struct {
	in  any
	cx  *aslContext
	err error
}

// NewChoice starts evaluating rules against in.
func NewChoice(in any, cx *aslContext) *Choice {
	if cx != nil {
		cx.input = in // $states.input of JSONata conditions
	}
	return &Choice{in: in, cx: cx}
}

// Err returns the first error met.
func (c *Choice) Err() error { return c.err }

func (c *Choice) value(p *JSONPath) (any, bool) {
	v, err := p.Get(c.in, c.cx)
	if err != nil {
		if c.err == nil {
			c.err = err
		}
		return nil, false
	}
	return v, true
}

// Cmp compares the value at p with a literal.
func (c *Choice) Cmp(op cmpOp, p *JSONPath, lit any) bool {
	v, ok := c.value(p)
	return ok && compare(op, v, lit)
}

// CmpPath compares the value at p with the value at q, which must have the
// operator's type.
func (c *Choice) CmpPath(op cmpOp, p, q *JSONPath) bool {
	v, ok := c.value(p)
	if !ok {
		return false
	}
	w, ok := c.value(q)
	if !ok {
		return false
	}
	if !operandFits(op, w) {
		if c.err == nil {
			c.err = runtimeErrorf("the path %q points to %s, which does not fit the comparison", q.Src, typeName(w))
		}
		return false
	}
	return compare(op, v, w)
}

// Is applies a type test; want false negates it. IsPresent is false, not
// an error, on a missing value.
func (c *Choice) Is(test typeTest, p *JSONPath, want bool) bool {
	if test == IsPresent {
		_, found := p.Lookup(c.in, c.cx)
		return found == want
	}
	v, ok := c.value(p)
	if !ok {
		return false
	}
	var is bool
	switch test {
	case IsNull:
		is = v == nil
	case IsNumeric:
		_, is = v.(float64)
	case IsString:
		_, is = v.(string)
	case IsBoolean:
		_, is = v.(bool)
	case IsTimestamp:
		_, is = timestamp(v)
	}
	return is == want
}

// Matches applies StringMatches: * matches any run of characters, \* and
// \\ stand for themselves.
func (c *Choice) Matches(p *JSONPath, pattern string) bool {
	v, ok := c.value(p)
	if !ok {
		return false
	}
	s, isString := v.(string)
	return isString && matchPattern(pattern, s)
}

func operandFits(op cmpOp, v any) bool {
	switch {
	case op <= StringGreaterThanEquals:
		_, ok := v.(string)
		return ok
	case op <= NumericGreaterThanEquals:
		_, ok := v.(float64)
		return ok
	case op <= TimestampGreaterThanEquals:
		_, ok := timestamp(v)
		return ok
	}
	_, ok := v.(bool)
	return ok
}

func compare(op cmpOp, v, w any) bool {
	if op == BooleanEquals {
		b, ok := v.(bool)
		return ok && b == w
	}
	var c int
	switch {
	case op <= NumericGreaterThanEquals:
		var ok bool
		if c, ok = order(v, w); !ok {
			return false
		}
	default:
		a, ok1 := timestamp(v)
		b, ok2 := timestamp(w)
		if !ok1 || !ok2 {
			return false
		}
		c = a.Compare(b)
	}
	switch (op - StringEquals) % 5 {
	case 0:
		return c == 0
	case 1:
		return c < 0
	case 2:
		return c > 0
	case 3:
		return c <= 0
	}
	return c >= 0
}

// rfc3339 is the profile Step Functions accepts: a full date and time with
// a zone.
var rfc3339 = regexp.MustCompile(`^\d{4}-(0[1-9]|1[012])-(0[1-9]|[12][0-9]|3[01])T([01][0-9]|2[0-3]):([0-5][0-9]):([0-5][0-9])(\.\d+)?(Z|[+-]([01][0-9]|2[0-3]):([0-5][0-9]))$`)

func timestamp(v any) (time.Time, bool) {
	s, ok := v.(string)
	if !ok || !rfc3339.MatchString(s) {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	return t, err == nil
}

// matchPattern matches s against a StringMatches pattern by backtracking
// over its stars.
func matchPattern(pattern, s string) bool {
	p := []rune(pattern)
	r := []rune(s)
	pi, si := 0, 0
	star, mark := -1, 0
	for si < len(r) {
		if pi < len(p) && p[pi] == '*' {
			star, mark = pi, si
			pi++
			continue
		}
		if pi < len(p) {
			lit, width := p[pi], 1
			if lit == '\\' && pi+1 < len(p) {
				lit, width = p[pi+1], 2
			}
			if lit == r[si] {
				pi += width
				si++
				continue
			}
		}
		if star < 0 {
			return false
		}
		pi, mark = star+1, mark+1
		si = mark
	}
	for pi < len(p) && p[pi] == '*' {
		pi++
	}
	return pi == len(p)
}
