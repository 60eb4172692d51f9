package pyexpr

import (
	"math"
	"strconv"
	"strings"
)

// Expr is a parsed expression.
type Expr struct {
	src  string
	root node
}

// String returns the expression's source.
func (e *Expr) String() string { return e.src }

// Parse parses src as Python parses an expression (ast.parse with
// mode="eval"), which is all the engine checks when it loads a workflow
// (workflow_models.py, _validate_python_expression_syntax): a syntax error
// is an *Error with the byte offset. An empty or blank expression is an
// error, as safe_eval makes it.
func Parse(src string) (*Expr, error) {
	if strings.TrimSpace(src) == "" {
		return nil, errAt(0, "expression must be a non-empty string")
	}
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	root, err := p.expressions()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tEOF {
		return nil, errAt(t.off, "invalid syntax at %q", t.text)
	}
	return &Expr{src: src, root: root}, nil
}

// ParseCondition parses a workflow condition as the engine loads it: Parse,
// then the names `true` and `false` become the constants True and False
// (workflow_models.py, _validate_python_expression_syntax, _YamlBoolFixer).
func ParseCondition(src string) (*Expr, error) {
	e, err := Parse(src)
	if err != nil {
		return nil, err
	}
	e.root = fixYAMLBooleans(e.root)
	return e, nil
}

type parser struct {
	toks  []token
	pos   int
	depth int // of nested expressions, bounded as CPython bounds its parser
}

// maxDepth bounds nesting: a bracket costs three levels (expression,
// not, unary sign), and CPython stops at 200 nested brackets.
const maxDepth = 3 * 200

// nest counts one level of nesting at the next token, failing past maxDepth.
func (p *parser) nest() error {
	if p.depth++; p.depth > maxDepth {
		return errAt(p.peek().off, "too many nested parentheses")
	}
	return nil
}

func (p *parser) peek() token { return p.toks[p.pos] }

func (p *parser) next() token {
	t := p.toks[p.pos]
	if t.kind != tEOF {
		p.pos++
	}
	return t
}

// is reports whether the next token is the operator or keyword s.
func (p *parser) is(s string) bool {
	t := p.peek()
	return (t.kind == tOp || t.kind == tName) && t.text == s
}

func (p *parser) isAt(k int, s string) bool {
	if p.pos+k >= len(p.toks) {
		return false
	}
	t := p.toks[p.pos+k]
	return (t.kind == tOp || t.kind == tName) && t.text == s
}

func (p *parser) accept(s string) bool {
	if p.is(s) {
		p.pos++
		return true
	}
	return false
}

func (p *parser) expect(s string) error {
	if p.accept(s) {
		return nil
	}
	t := p.peek()
	if t.kind == tEOF {
		return errAt(t.off, "invalid syntax: expected %q", s)
	}
	return errAt(t.off, "invalid syntax: expected %q, got %q", s, t.text)
}

// expressions: expression (',' expression)* [','], a tuple when there is a comma.
func (p *parser) expressions() (node, error) {
	first := p.peek().off
	x, err := p.starOr(p.expression)
	if err != nil {
		return nil, err
	}
	if !p.is(",") {
		if d, ok := x.(*disallowedNode); ok && d.kind == "Starred" {
			return nil, errAt(first, "can't use starred expression here")
		}
		return x, nil
	}
	elts := []node{x}
	for p.accept(",") {
		if p.endsList() {
			break
		}
		y, err := p.starOr(p.expression)
		if err != nil {
			return nil, err
		}
		elts = append(elts, y)
	}
	return &tupleNode{at{first}, elts}, nil
}

func (p *parser) endsList() bool {
	t := p.peek()
	return t.kind == tEOF || (t.kind == tOp && (t.text == ")" || t.text == "]" || t.text == "}" || t.text == ":" || t.text == "="))
}

// starOr parses `*x` (a Starred node) or what parse parses.
func (p *parser) starOr(parse func() (node, error)) (node, error) {
	if t := p.peek(); t.kind == tOp && t.text == "*" {
		p.next()
		if _, err := p.bitOr(); err != nil {
			return nil, err
		}
		return &disallowedNode{at{t.off}, "Starred"}, nil
	}
	return parse()
}

// expression: lambda, or a conditional expression.
func (p *parser) expression() (node, error) {
	defer func() { p.depth-- }()
	if err := p.nest(); err != nil {
		return nil, err
	}
	if p.is("lambda") {
		return p.lambda()
	}
	x, err := p.disjunction()
	if err != nil || !p.is("if") {
		return x, err
	}
	p.next()
	test, err := p.disjunction()
	if err != nil {
		return nil, err
	}
	if !p.accept("else") {
		return nil, errAt(p.peek().off, "expected 'else' after 'if' expression")
	}
	orelse, err := p.expression()
	if err != nil {
		return nil, err
	}
	return &ifNode{at{x.offset()}, test, x, orelse}, nil
}

// namedExpression: NAME ':=' expression, or an expression.
func (p *parser) namedExpression() (node, error) {
	if t := p.peek(); t.kind == tName && !keywords[t.text] && p.isAt(1, ":=") {
		p.pos += 2
		if _, err := p.expression(); err != nil {
			return nil, err
		}
		return &disallowedNode{at{t.off}, "NamedExpr"}, nil
	}
	return p.expression()
}

func (p *parser) lambda() (node, error) {
	start := p.next().off
	depth := 0
	for {
		t := p.peek()
		switch {
		case t.kind == tEOF:
			return nil, errAt(t.off, "invalid syntax: lambda without ':'")
		case t.kind == tOp && (t.text == "(" || t.text == "[" || t.text == "{"):
			depth++
		case t.kind == tOp && (t.text == ")" || t.text == "]" || t.text == "}"):
			depth--
		case t.kind == tOp && t.text == ":" && depth == 0:
			p.next()
			if _, err := p.expression(); err != nil {
				return nil, err
			}
			return &disallowedNode{at{start}, "Lambda"}, nil
		}
		p.next()
	}
}

func (p *parser) disjunction() (node, error) { return p.boolOp("or", p.conjunction) }

func (p *parser) conjunction() (node, error) { return p.boolOp("and", p.inversion) }

func (p *parser) boolOp(op string, operand func() (node, error)) (node, error) {
	x, err := operand()
	if err != nil || !p.is(op) {
		return x, err
	}
	vals := []node{x}
	for p.accept(op) {
		y, err := operand()
		if err != nil {
			return nil, err
		}
		vals = append(vals, y)
	}
	return &boolNode{at{x.offset()}, op, vals}, nil
}

func (p *parser) inversion() (node, error) {
	defer func() { p.depth-- }()
	if err := p.nest(); err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind == tName && t.text == "not" {
		p.next()
		x, err := p.inversion()
		if err != nil {
			return nil, err
		}
		return &unaryNode{at{t.off}, "not", x}, nil
	}
	return p.comparison()
}

func (p *parser) comparison() (node, error) {
	x, err := p.bitOr()
	if err != nil {
		return nil, err
	}
	cmp := &compareNode{at: at{x.offset()}, left: x}
	for {
		op := p.compareOp()
		if op == "" {
			break
		}
		y, err := p.bitOr()
		if err != nil {
			return nil, err
		}
		cmp.ops = append(cmp.ops, op)
		cmp.comps = append(cmp.comps, y)
	}
	if len(cmp.ops) == 0 {
		return x, nil
	}
	return cmp, nil
}

func (p *parser) compareOp() string {
	t := p.peek()
	switch {
	case t.kind == tOp && (t.text == "==" || t.text == "!=" || t.text == "<" || t.text == "<=" || t.text == ">" || t.text == ">="):
		p.next()
		return t.text
	case p.is("in"):
		p.next()
		return "in"
	case p.is("not") && p.isAt(1, "in"):
		p.pos += 2
		return "not in"
	case p.is("is"):
		p.next()
		if p.accept("not") {
			return "is not"
		}
		return "is"
	}
	return ""
}

// binary levels, loosest first.
var binLevels = [][]string{{"|"}, {"^"}, {"&"}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "//", "%", "@"}}

func (p *parser) bitOr() (node, error) { return p.binLevel(0) }

func (p *parser) binLevel(level int) (node, error) {
	if level == len(binLevels) {
		return p.factor()
	}
	x, err := p.binLevel(level + 1)
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		if t.kind != tOp || !oneOf(binLevels[level], t.text) {
			return x, nil
		}
		p.next()
		y, err := p.binLevel(level + 1)
		if err != nil {
			return nil, err
		}
		x = &binNode{at{x.offset()}, t.text, x, y}
	}
}

func oneOf(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (p *parser) factor() (node, error) {
	defer func() { p.depth-- }()
	if err := p.nest(); err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind == tOp && (t.text == "-" || t.text == "+" || t.text == "~") {
		p.next()
		x, err := p.factor()
		if err != nil {
			return nil, err
		}
		return &unaryNode{at{t.off}, t.text, x}, nil
	}
	return p.power()
}

func (p *parser) power() (node, error) {
	var x node
	var err error
	if t := p.peek(); t.kind == tName && t.text == "await" {
		p.next()
		if _, err = p.primary(); err != nil {
			return nil, err
		}
		x = &disallowedNode{at{t.off}, "Await"}
	} else if x, err = p.primary(); err != nil {
		return nil, err
	}
	if !p.accept("**") {
		return x, nil
	}
	y, err := p.factor()
	if err != nil {
		return nil, err
	}
	return &binNode{at{x.offset()}, "**", x, y}, nil
}

func (p *parser) primary() (node, error) {
	x, err := p.atom()
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		switch {
		case p.is("."):
			p.next()
			name := p.next()
			if name.kind != tName || keywords[name.text] {
				return nil, errAt(name.off, "invalid syntax: expected an attribute name")
			}
			x = &attrNode{at{x.offset()}, x, name.text}
		case p.is("("):
			p.next()
			if x, err = p.call(x); err != nil {
				return nil, err
			}
		case p.is("["):
			p.next()
			index, err := p.slices()
			if err != nil {
				return nil, err
			}
			if err := p.expect("]"); err != nil {
				return nil, err
			}
			x = &subscriptNode{at{x.offset()}, x, index}
		default:
			_ = t
			return x, nil
		}
	}
}

func (p *parser) call(fn node) (node, error) {
	c := &callNode{at: at{fn.offset()}, fn: fn}
	sawKeyword, sawDoubleStar := false, false
	for !p.is(")") {
		t := p.peek()
		switch {
		case p.is("**"):
			p.next()
			v, err := p.expression()
			if err != nil {
				return nil, err
			}
			c.kwargs = append(c.kwargs, keyword{"", v})
			sawDoubleStar = true
		case p.is("*"):
			if sawDoubleStar {
				return nil, errAt(t.off, "iterable argument unpacking follows keyword argument unpacking")
			}
			x, err := p.starOr(nil)
			if err != nil {
				return nil, err
			}
			c.args = append(c.args, x)
		case t.kind == tName && !keywords[t.text] && p.isAt(1, "="):
			p.pos += 2
			v, err := p.expression()
			if err != nil {
				return nil, err
			}
			c.kwargs = append(c.kwargs, keyword{t.text, v})
			sawKeyword = true
		default:
			if sawKeyword || sawDoubleStar {
				return nil, errAt(t.off, "positional argument follows keyword argument")
			}
			x, err := p.namedExpression()
			if err != nil {
				return nil, err
			}
			if p.is("for") || p.is("async") {
				if x, err = p.comprehension(x.offset(), "GeneratorExp"); err != nil {
					return nil, err
				}
			}
			c.args = append(c.args, x)
		}
		if !p.accept(",") {
			break
		}
	}
	return c, p.expect(")")
}

// slices: a slice or an expression, or several of them (a tuple).
func (p *parser) slices() (node, error) {
	first := p.peek().off
	x, err := p.slice()
	if err != nil || !p.is(",") {
		return x, err
	}
	elts := []node{x}
	for p.accept(",") && !p.is("]") {
		y, err := p.slice()
		if err != nil {
			return nil, err
		}
		elts = append(elts, y)
	}
	return &tupleNode{at{first}, elts}, nil
}

func (p *parser) slice() (node, error) {
	start := p.peek().off
	var lo node
	if !p.is(":") {
		x, err := p.starOr(p.namedExpression)
		if err != nil || !p.is(":") {
			return x, err
		}
		lo = x
	}
	p.next()
	s := &sliceNode{at: at{start}, lo: lo}
	var err error
	if !p.is(":") && !p.is("]") && !p.is(",") {
		if s.hi, err = p.expression(); err != nil {
			return nil, err
		}
	}
	if p.accept(":") && !p.is("]") && !p.is(",") {
		if s.step, err = p.expression(); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// comprehension parses the `for ... in ... if ...` clauses after an element.
func (p *parser) comprehension(start int, kind string) (node, error) {
	for p.is("for") || p.is("async") {
		p.accept("async")
		if err := p.expect("for"); err != nil {
			return nil, err
		}
		for {
			if _, err := p.starOr(p.bitOr); err != nil {
				return nil, err
			}
			if !p.accept(",") || p.is("in") {
				break
			}
		}
		if err := p.expect("in"); err != nil {
			return nil, err
		}
		if _, err := p.disjunction(); err != nil {
			return nil, err
		}
		for p.accept("if") {
			if _, err := p.disjunction(); err != nil {
				return nil, err
			}
		}
	}
	return &disallowedNode{at{start}, kind}, nil
}

func (p *parser) atom() (node, error) {
	t := p.peek()
	switch t.kind {
	case tName:
		p.next()
		switch t.text {
		case "True":
			return &constNode{at: at{t.off}, val: true}, nil
		case "False":
			return &constNode{at: at{t.off}, val: false}, nil
		case "None":
			return &constNode{at: at{t.off}}, nil
		}
		if keywords[t.text] {
			return nil, errAt(t.off, "invalid syntax at %q", t.text)
		}
		return &nameNode{at{t.off}, t.text}, nil
	case tNumber:
		p.next()
		return numberLit(t)
	case tString:
		return p.strings()
	case tOp:
		switch t.text {
		case "(":
			p.next()
			return p.parenthesized(t.off)
		case "[":
			p.next()
			return p.list(t.off)
		case "{":
			p.next()
			return p.dict(t.off)
		case "...":
			p.next()
			return &constNode{at: at{t.off}, err: "Ellipsis is not a value of workflow conditions"}, nil
		}
	case tEOF:
		return nil, errAt(t.off, "invalid syntax: unexpected end of expression")
	}
	return nil, errAt(t.off, "invalid syntax at %q", t.text)
}

func (p *parser) parenthesized(start int) (node, error) {
	if p.accept(")") {
		return &tupleNode{at{start}, nil}, nil
	}
	if p.is("yield") {
		p.next()
		if !p.is(")") {
			if _, err := p.expressions(); err != nil {
				return nil, err
			}
		}
		return &disallowedNode{at{start}, "Yield"}, p.expect(")")
	}
	x, err := p.starOr(p.namedExpression)
	if err != nil {
		return nil, err
	}
	if p.is("for") || p.is("async") {
		if x, err = p.comprehension(start, "GeneratorExp"); err != nil {
			return nil, err
		}
		return x, p.expect(")")
	}
	if !p.is(",") {
		if _, starred := x.(*disallowedNode); starred && x.(*disallowedNode).kind == "Starred" {
			return nil, errAt(start, "cannot use starred expression here")
		}
		return x, p.expect(")")
	}
	elts := []node{x}
	for p.accept(",") && !p.is(")") {
		y, err := p.starOr(p.namedExpression)
		if err != nil {
			return nil, err
		}
		elts = append(elts, y)
	}
	return &tupleNode{at{start}, elts}, p.expect(")")
}

func (p *parser) list(start int) (node, error) {
	var elts []node
	for !p.is("]") {
		x, err := p.starOr(p.namedExpression)
		if err != nil {
			return nil, err
		}
		if len(elts) == 0 && (p.is("for") || p.is("async")) {
			if x, err = p.comprehension(start, "ListComp"); err != nil {
				return nil, err
			}
			return x, p.expect("]")
		}
		elts = append(elts, x)
		if !p.accept(",") {
			break
		}
	}
	return &listNode{at{start}, elts}, p.expect("]")
}

func (p *parser) dict(start int) (node, error) {
	if p.accept("}") {
		return &dictNode{at: at{start}}, nil
	}
	d := &dictNode{at: at{start}}
	set := false
	for i := 0; !p.is("}"); i++ {
		if p.accept("**") {
			v, err := p.bitOr()
			if err != nil {
				return nil, err
			}
			d.keys, d.vals = append(d.keys, nil), append(d.vals, v)
		} else {
			k, err := p.starOr(p.namedExpression)
			if err != nil {
				return nil, err
			}
			if i == 0 && !p.is(":") {
				set = true
			}
			if set {
				if i == 0 && (p.is("for") || p.is("async")) {
					if k, err = p.comprehension(start, "SetComp"); err != nil {
						return nil, err
					}
					return k, p.expect("}")
				}
				d.keys = append(d.keys, k)
			} else {
				if err := p.expect(":"); err != nil {
					return nil, err
				}
				v, err := p.expression()
				if err != nil {
					return nil, err
				}
				if i == 0 && (p.is("for") || p.is("async")) {
					x, err := p.comprehension(start, "DictComp")
					if err != nil {
						return nil, err
					}
					return x, p.expect("}")
				}
				d.keys, d.vals = append(d.keys, k), append(d.vals, v)
			}
		}
		if !p.accept(",") {
			break
		}
	}
	if set {
		return &setNode{at{start}, d.keys}, p.expect("}")
	}
	return d, p.expect("}")
}

// number converts a number literal, checking its form as Python does.
func numberLit(t token) (node, error) {
	text := t.text
	lower := strings.ToLower(text)
	c := &constNode{at: at{t.off}}
	if strings.HasSuffix(lower, "j") {
		if _, err := strconv.ParseFloat(strings.ReplaceAll(lower[:len(lower)-1], "_", ""), 64); err != nil && !isRangeErr(err) {
			return nil, errAt(t.off, "invalid imaginary literal %q", text)
		}
		c.err = "complex numbers are not values of workflow conditions"
		return c, nil
	}
	if !validUnderscores(lower) {
		return nil, errAt(t.off, "invalid decimal literal %q", text)
	}
	clean := strings.ReplaceAll(lower, "_", "")
	if len(clean) > 1 && clean[0] == '0' && (clean[1] == 'x' || clean[1] == 'o' || clean[1] == 'b') {
		i, err := strconv.ParseInt(clean, 0, 64)
		switch {
		case isRangeErr(err):
			c.err = "integer literal out of flowc's 64-bit range"
		case err != nil:
			return nil, errAt(t.off, "invalid literal %q", text)
		default:
			c.val = i
		}
		return c, nil
	}
	if strings.ContainsAny(clean, ".e") {
		f, err := strconv.ParseFloat(clean, 64)
		if err != nil && !isRangeErr(err) {
			return nil, errAt(t.off, "invalid decimal literal %q", text)
		}
		c.val = f
		if isRangeErr(err) && !math.IsInf(f, 0) {
			c.val = 0.0 // underflow
		}
		return c, nil
	}
	for _, r := range clean {
		if r < '0' || r > '9' {
			return nil, errAt(t.off, "invalid decimal literal %q", text)
		}
	}
	if len(clean) > 1 && clean[0] == '0' && strings.Trim(clean, "0") != "" {
		return nil, errAt(t.off, "leading zeros in decimal integer literals are not permitted")
	}
	i, err := strconv.ParseInt(clean, 10, 64)
	if err != nil {
		c.err = "integer literal out of flowc's 64-bit range"
		return c, nil
	}
	c.val = i
	return c, nil
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// validUnderscores: an underscore stands between two digits, or after a
// base prefix.
func validUnderscores(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != '_' {
			continue
		}
		prefix := i == 2 && s[0] == '0' && strings.ContainsRune("xob", rune(s[1]))
		if i == 0 || i == len(s)-1 || (!isAlnum(s[i-1]) && !prefix) || !isAlnum(s[i+1]) ||
			(!prefix && strings.ContainsRune("xob.e+-", rune(s[i-1])) && !isHex(s)) {
			return false
		}
	}
	return true
}

func isAlnum(c byte) bool { return isDigit(c) || (c >= 'a' && c <= 'f') }

// fixYAMLBooleans turns the names true and false into constants.
func fixYAMLBooleans(n node) node {
	return rewrite(n, func(n node) node {
		if nm, ok := n.(*nameNode); ok && (nm.id == "true" || nm.id == "false") {
			return &constNode{at: nm.at, val: nm.id == "true"}
		}
		return n
	})
}
