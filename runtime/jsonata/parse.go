package jsonata

import (
	"regexp"
)

type kind uint8

const (
	kPath kind = iota
	kName
	kString
	kNumber
	kValue
	kWildcard
	kDescendant
	kParent
	kVariable
	kRegex
	kBinary
	kNegate
	kArray
	kObject
	kCondition
	kBlock
	kBind
	kFunction
	kPartial
	kLambda
	kApply
	kTransform
	kSort
	kPlaceholder
	// parse-only forms that resolve rewrites
	kDot
	kPredicate
	kGroupBy
	kFocus
	kIndexBind
)

// node is one expression of the tree, parsed and then resolved once.
type node struct {
	kind  kind
	pos   int
	op    string // operator, name, variable name, string literal
	num   float64
	value any // literal true/false/null, constant-folded value

	lhs, rhs *node
	steps    []*node // path steps
	items    []*node // block expressions, array items, call arguments
	pairs    [][2]*node
	cond     *node
	then     *node
	els      *node
	terms    []sortTerm

	// lambda
	params []string
	sig    *signature
	body   *node
	thunk  bool

	// transform
	pattern, update, remove *node

	regex *regexp.Regexp

	// step annotations
	predicate []*stage // filters on an expression outside a path
	stages    []*stage // filters and index bindings on a path step
	group     *groupBy
	focus     string
	index     string
	ancestor  *slot
	slot      *slot
	tuple     bool

	keepArray          bool // the step carried []
	keepSingletonArray bool // the path has a step that carried []
	consArray          bool // an array constructor whose result is not flattened into the path
	parentSeek         []*slot
	fn                 *builtin // a call of a built-in, resolved when no binding can shadow it
}

type stage struct {
	filter *node  // a predicate
	index  string // or an index binding #$i
	pos    int
}

type sortTerm struct {
	desc bool
	expr *node
}

type groupBy struct {
	pairs [][2]*node
	pos   int
}

type slot struct {
	label string
	level int
	index int
}

type parser struct {
	lex lexer
	tok token
}

var bindingPower = map[string]int{
	".": 75, "[": 80, "]": 0, "{": 70, "}": 0, "(": 80, ")": 0, ",": 0, "@": 80, "#": 80,
	";": 80, ":": 80, "?": 20, "+": 50, "-": 50, "*": 60, "/": 60, "%": 60, "|": 20,
	"=": 40, "<": 40, ">": 40, "^": 40, "**": 60, "..": 20, ":=": 10, "!=": 40, "<=": 40,
	">=": 40, "~>": 40, "?:": 40, "??": 40, "and": 30, "or": 25, "in": 40, "&": 50, "!": 0, "~": 0,
}

func (p *parser) lbp() int {
	if p.tok.kind != tokOp || p.tok.op == ":" || p.tok.op == ";" || p.tok.op == "|" {
		return 0
	}
	return bindingPower[p.tok.op]
}

// advance moves past the current token, which must be op when op is given.
func (p *parser) advance(op string, prefix bool) *Error {
	if op != "" {
		if p.tok.kind == tokEnd {
			return &Error{Code: "S0203", Position: p.tok.pos, value: op}
		}
		if p.tok.kind != tokOp || p.tok.op != op {
			return &Error{Code: "S0202", Position: p.tok.pos, Token: p.tok.op, value: op}
		}
	}
	t, err := p.lex.next(operandExpected(p.tok))
	if err != nil {
		return err
	}
	if t.kind == tokOp && (t.op == "!" || t.op == "~") {
		return newError("S0204", t.pos, t.op)
	}
	p.tok = t
	return nil
}

// operandExpected reports whether the token after prev starts an operand,
// where '/' opens a regular expression instead of dividing.
func operandExpected(prev token) bool {
	switch prev.kind {
	case tokOp:
		return prev.op != ")" && prev.op != "]" && prev.op != "}"
	case tokEnd:
		return true
	}
	return false
}

func parse(src string) (*node, *Error) {
	p := &parser{lex: lexer{src: src}}
	p.tok = token{kind: tokOp, op: "("}
	if err := p.advance("", true); err != nil {
		return nil, err
	}
	n, err := p.expression(0)
	if err != nil {
		return nil, err
	}
	if p.tok.kind != tokEnd {
		return nil, newError("S0201", p.tok.pos, p.tok.op)
	}
	return n, nil
}

func (p *parser) expression(rbp int) (*node, *Error) {
	t := p.tok
	if err := p.advance("", true); err != nil {
		return nil, err
	}
	left, err := p.nud(t)
	if err != nil {
		return nil, err
	}
	for rbp < p.lbp() {
		t = p.tok
		if err := p.advance("", false); err != nil {
			return nil, err
		}
		if left, err = p.led(t, left); err != nil {
			return nil, err
		}
	}
	return left, nil
}

func (p *parser) nud(t token) (*node, *Error) {
	switch t.kind {
	case tokEnd:
		return nil, newError("S0207", t.pos, "")
	case tokString:
		return &node{kind: kString, op: t.op, pos: t.pos}, nil
	case tokNumber:
		return &node{kind: kNumber, num: t.num, value: t.num, pos: t.pos}, nil
	case tokValue:
		return &node{kind: kValue, value: t.value, op: t.op, pos: t.pos}, nil
	case tokName:
		return &node{kind: kName, op: t.op, pos: t.pos}, nil
	case tokVar:
		return &node{kind: kVariable, op: t.op, pos: t.pos}, nil
	case tokRegex:
		return p.regexNode(t)
	}
	switch t.op {
	case "and", "or", "in":
		return &node{kind: kName, op: t.op, pos: t.pos}, nil
	case "-":
		operand, err := p.expression(70)
		if err != nil {
			return nil, err
		}
		return &node{kind: kNegate, lhs: operand, pos: t.pos}, nil
	case "*":
		return &node{kind: kWildcard, op: "*", pos: t.pos}, nil
	case "**":
		return &node{kind: kDescendant, op: "**", pos: t.pos}, nil
	case "%":
		return &node{kind: kParent, op: "%", pos: t.pos}, nil
	case "(":
		return p.block(t)
	case "[":
		return p.arrayConstructor(t)
	case "{":
		pairs, err := p.objectPairs()
		if err != nil {
			return nil, err
		}
		return &node{kind: kObject, pairs: pairs, pos: t.pos}, nil
	case "|":
		return p.transform(t)
	}
	if t.kind == tokOp {
		if _, known := bindingPower[t.op]; known {
			return nil, newError("S0211", t.pos, t.op)
		}
	}
	return nil, newError("S0201", t.pos, t.op)
}

func (p *parser) regexNode(t token) (*node, *Error) {
	re, err := compileRegex(t.op, t.flags)
	if err != nil {
		return nil, &Error{Code: "S0303", Position: t.pos, Token: t.op, message: err.Error()}
	}
	return &node{kind: kRegex, op: t.op, regex: re, pos: t.pos}, nil
}

func (p *parser) block(t token) (*node, *Error) {
	n := &node{kind: kBlock, pos: t.pos}
	for !(p.tok.kind == tokOp && p.tok.op == ")") {
		e, err := p.expression(0)
		if err != nil {
			return nil, err
		}
		n.items = append(n.items, e)
		if p.tok.kind != tokOp || p.tok.op != ";" {
			break
		}
		if err := p.advance(";", true); err != nil {
			return nil, err
		}
	}
	return n, p.advance(")", false)
}

func (p *parser) arrayConstructor(t token) (*node, *Error) {
	n := &node{kind: kArray, pos: t.pos}
	if !(p.tok.kind == tokOp && p.tok.op == "]") {
		for {
			item, err := p.expression(0)
			if err != nil {
				return nil, err
			}
			if p.tok.kind == tokOp && p.tok.op == ".." {
				pos := p.tok.pos
				if err := p.advance("..", true); err != nil {
					return nil, err
				}
				rhs, err := p.expression(0)
				if err != nil {
					return nil, err
				}
				item = &node{kind: kBinary, op: "..", lhs: item, rhs: rhs, pos: pos}
			}
			n.items = append(n.items, item)
			if p.tok.kind != tokOp || p.tok.op != "," {
				break
			}
			if err := p.advance(",", true); err != nil {
				return nil, err
			}
		}
	}
	return n, p.advance("]", false)
}

func (p *parser) objectPairs() ([][2]*node, *Error) {
	var pairs [][2]*node
	if !(p.tok.kind == tokOp && p.tok.op == "}") {
		for {
			k, err := p.expression(0)
			if err != nil {
				return nil, err
			}
			if err := p.advance(":", true); err != nil {
				return nil, err
			}
			v, err := p.expression(0)
			if err != nil {
				return nil, err
			}
			pairs = append(pairs, [2]*node{k, v})
			if p.tok.kind != tokOp || p.tok.op != "," {
				break
			}
			if err := p.advance(",", true); err != nil {
				return nil, err
			}
		}
	}
	return pairs, p.advance("}", false)
}

func (p *parser) transform(t token) (*node, *Error) {
	n := &node{kind: kTransform, pos: t.pos}
	var err *Error
	if n.pattern, err = p.expression(0); err != nil {
		return nil, err
	}
	if err = p.advance("|", true); err != nil {
		return nil, err
	}
	if n.update, err = p.expression(0); err != nil {
		return nil, err
	}
	if p.tok.kind == tokOp && p.tok.op == "," {
		if err = p.advance(",", true); err != nil {
			return nil, err
		}
		if n.remove, err = p.expression(0); err != nil {
			return nil, err
		}
	}
	return n, p.advance("|", false)
}

func (p *parser) led(t token, left *node) (*node, *Error) {
	switch t.op {
	case "(":
		return p.call(t, left)
	case "[":
		if p.tok.kind == tokOp && p.tok.op == "]" {
			// [] keeps a singleton result an array
			step := left
			for step.kind == kPredicate {
				step = step.lhs
			}
			step.keepArray = true
			return left, p.advance("]", false)
		}
		rhs, err := p.expression(0)
		if err != nil {
			return nil, err
		}
		return &node{kind: kPredicate, lhs: left, rhs: rhs, pos: t.pos}, p.advance("]", false)
	case "{":
		pairs, err := p.objectPairs()
		if err != nil {
			return nil, err
		}
		return &node{kind: kGroupBy, lhs: left, pairs: pairs, pos: t.pos}, nil
	case "^":
		return p.sort(t, left)
	case "?":
		n := &node{kind: kCondition, cond: left, pos: t.pos}
		var err *Error
		if n.then, err = p.expression(0); err != nil {
			return nil, err
		}
		if p.tok.kind == tokOp && p.tok.op == ":" {
			if err = p.advance(":", true); err != nil {
				return nil, err
			}
			if n.els, err = p.expression(0); err != nil {
				return nil, err
			}
		}
		return n, nil
	case ":=":
		rhs, err := p.expression(bindingPower[":="] - 1)
		if err != nil {
			return nil, err
		}
		if left.kind != kVariable {
			return nil, newError("S0212", t.pos, ":=")
		}
		return &node{kind: kBind, lhs: left, rhs: rhs, pos: t.pos}, nil
	case "@", "#":
		rhs, err := p.expression(bindingPower[t.op])
		if err != nil {
			return nil, err
		}
		if rhs.kind != kVariable {
			return nil, newError("S0214", t.pos, t.op)
		}
		k := kFocus
		if t.op == "#" {
			k = kIndexBind
		}
		return &node{kind: k, lhs: left, rhs: rhs, pos: t.pos}, nil
	case "?:", "??":
		rhs, err := p.expression(0)
		if err != nil {
			return nil, err
		}
		return &node{kind: kBinary, op: t.op, lhs: left, rhs: rhs, pos: t.pos}, nil
	case ".":
		rhs, err := p.expression(bindingPower["."])
		if err != nil {
			return nil, err
		}
		return &node{kind: kDot, lhs: left, rhs: rhs, pos: t.pos}, nil
	}
	bp, known := bindingPower[t.op]
	if !known || t.kind != tokOp || bp == 0 {
		return nil, newError("S0204", t.pos, t.op)
	}
	rhs, err := p.expression(bp)
	if err != nil {
		return nil, err
	}
	k := kBinary
	if t.op == "~>" {
		k = kApply
	}
	return &node{kind: k, op: t.op, lhs: left, rhs: rhs, pos: t.pos}, nil
}

func (p *parser) sort(t token, left *node) (*node, *Error) {
	if err := p.advance("(", true); err != nil {
		return nil, err
	}
	n := &node{kind: kSort, lhs: left, pos: t.pos}
	for {
		desc := false
		if p.tok.kind == tokOp && (p.tok.op == "<" || p.tok.op == ">") {
			desc = p.tok.op == ">"
			if err := p.advance("", true); err != nil {
				return nil, err
			}
		}
		e, err := p.expression(0)
		if err != nil {
			return nil, err
		}
		n.terms = append(n.terms, sortTerm{desc: desc, expr: e})
		if p.tok.kind != tokOp || p.tok.op != "," {
			break
		}
		if err := p.advance(",", true); err != nil {
			return nil, err
		}
	}
	return n, p.advance(")", false)
}

func (p *parser) call(t token, left *node) (*node, *Error) {
	var args []*node
	partial := false
	if !(p.tok.kind == tokOp && p.tok.op == ")") {
		for {
			if p.tok.kind == tokOp && p.tok.op == "?" {
				partial = true
				args = append(args, &node{kind: kPlaceholder, pos: p.tok.pos})
				if err := p.advance("?", true); err != nil {
					return nil, err
				}
			} else {
				a, err := p.expression(0)
				if err != nil {
					return nil, err
				}
				args = append(args, a)
			}
			if p.tok.kind != tokOp || p.tok.op != "," {
				break
			}
			if err := p.advance(",", true); err != nil {
				return nil, err
			}
		}
	}
	if err := p.advance(")", false); err != nil {
		return nil, err
	}
	if left.kind == kName && (left.op == "function" || left.op == "λ") {
		return p.lambda(t, args)
	}
	k := kFunction
	if partial {
		k = kPartial
	}
	return &node{kind: k, lhs: left, items: args, pos: t.pos}, nil
}

func (p *parser) lambda(t token, args []*node) (*node, *Error) {
	n := &node{kind: kLambda, pos: t.pos}
	for _, a := range args {
		if a.kind != kVariable {
			return nil, &Error{Code: "S0208", Position: a.pos, value: a.op}
		}
		n.params = append(n.params, a.op)
	}
	if p.tok.kind == tokOp && p.tok.op == "<" {
		// the signature runs to the matching '>' in the source text
		start := p.tok.start
		depth := 0
		i := start
		for ; i < len(p.lex.src); i++ {
			c := p.lex.src[i]
			if c == '<' {
				depth++
			} else if c == '>' {
				depth--
				if depth == 0 {
					break
				}
			}
		}
		if i >= len(p.lex.src) {
			return nil, &Error{Code: "S0203", Position: len(p.lex.src), value: ">"}
		}
		sig, err := parseSignature(p.lex.src[start:i+1], start)
		if err != nil {
			return nil, err
		}
		n.sig = sig
		p.lex.pos = i + 1
		if err := p.advance("", false); err != nil {
			return nil, err
		}
	}
	if err := p.advance("{", true); err != nil {
		return nil, err
	}
	body, err := p.expression(0)
	if err != nil {
		return nil, err
	}
	n.body = body
	return n, p.advance("}", false)
}
