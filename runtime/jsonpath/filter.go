package jsonpath

import (
	"regexp"
	"strconv"
	"strings"
)

// expr is a filter condition.
type expr interface {
	test(e *evaluator, item any) bool
}

type (
	orExpr  []expr
	andExpr []expr
	notExpr struct{ x expr }
)

// relation compares two operands; op "exists" tests that the left path
// names something (or, with wantExists false, that it does not).
type relation struct {
	left, right operand
	op          string
	wantExists  bool
}

// operandKind classifies a filter operand, as Jayway's ValueNode types.
type operandKind int

const (
	opdPath operandKind = iota
	opdNull
	opdBool
	opdNumber
	opdString
	opdJSON // an array or object literal
	opdPattern
	opdUndefined // a path that names nothing
)

type operand struct {
	kind    operandKind
	path    *Path
	value   any
	pattern *regexp.Regexp
}

// relationalOps are Jayway's relational operators, lower case; "===" and
// "!==" also compare the kinds of the operands.
var relationalOps = map[string]bool{
	"==": true, "!=": true, "<": true, "<=": true, ">": true, ">=": true,
	"===": true, "!==": true, "=~": true, "in": true, "nin": true,
	"subsetof": true, "anyof": true, "noneof": true, "contains": true,
	"all": true, "size": true, "empty": true,
}

// filterParser reads the parenthesized condition of [?( ... )] in
// src[i:end], as Jayway's FilterCompiler does.
type filterParser struct {
	src   string
	i     int
	end   int
	base  int
	depth int
}

func (f *filterParser) errf(at int, format string, args ...any) *SyntaxError {
	return (&parser{base: f.base}).errf(at, format, args...)
}

func (f *filterParser) parse() (expr, *SyntaxError) {
	e, err := f.or()
	if err != nil {
		return nil, err
	}
	if f.skip(); f.i < f.end {
		return nil, f.errf(f.i, "unexpected %q in filter", f.src[f.i:f.end])
	}
	return e, nil
}

func (f *filterParser) skip() {
	for f.i < f.end && f.src[f.i] == ' ' {
		f.i++
	}
}

func (f *filterParser) peek() byte {
	if f.skip(); f.i < f.end {
		return f.src[f.i]
	}
	return 0
}

// accept consumes s after spaces.
func (f *filterParser) accept(s string) bool {
	f.skip()
	if strings.HasPrefix(f.src[f.i:f.end], s) {
		f.i += len(s)
		return true
	}
	return false
}

func (f *filterParser) or() (expr, *SyntaxError) {
	var args orExpr
	for {
		e, err := f.and()
		if err != nil {
			return nil, err
		}
		if args = append(args, e); !f.accept("||") {
			break
		}
	}
	if len(args) == 1 {
		return args[0], nil
	}
	return args, nil
}

func (f *filterParser) and() (expr, *SyntaxError) {
	var args andExpr
	for {
		e, err := f.unary()
		if err != nil {
			return nil, err
		}
		if args = append(args, e); !f.accept("&&") {
			break
		}
	}
	if len(args) == 1 {
		return args[0], nil
	}
	return args, nil
}

// unary reads `!` operand, `(` or `)` or a relation. A `!` before a path
// is read with the path (a test that it does not exist).
func (f *filterParser) unary() (expr, *SyntaxError) {
	if f.depth > maxDepth {
		return nil, f.errf(f.i, "filter nests too deeply")
	}
	save := f.i
	if f.accept("!") {
		if c := f.peek(); c != '$' && c != '@' {
			f.depth++
			x, err := f.unary()
			f.depth--
			return notExpr{x}, err
		}
		f.i = save
	}
	if f.accept("(") {
		f.depth++
		x, err := f.or()
		f.depth--
		if err != nil {
			return nil, err
		}
		if !f.accept(")") {
			return nil, f.errf(f.i, "expected `)` in filter")
		}
		return x, nil
	}
	return f.relation()
}

// relation reads value [operator value]; without an operator the value
// must be a path, tested for existence.
func (f *filterParser) relation() (expr, *SyntaxError) {
	f.skip()
	negated := f.i < f.end && f.src[f.i] == '!'
	left, err := f.value(false)
	if err != nil {
		return nil, err
	}
	save := f.i
	if op, ok := f.operator(); ok {
		// Jayway falls back to an existence test here, but the operator
		// left unread fails the filter anyway: say why the value did not
		// read.
		right, err := f.value(true)
		if err != nil {
			return nil, err
		}
		return &relation{left: left, op: op, right: right}, nil
	}
	f.i = save
	if left.kind != opdPath {
		return nil, f.errf(save, "expected a comparison after a literal")
	}
	return &relation{left: left, op: "exists", wantExists: !negated}, nil
}

// operator reads a run of operator characters, or a word up to a space.
func (f *filterParser) operator() (string, bool) {
	f.skip()
	start := f.i
	if f.i < f.end && isOperatorChar(f.src[f.i]) {
		for f.i < f.end && isOperatorChar(f.src[f.i]) {
			f.i++
		}
	} else {
		for f.i < f.end && f.src[f.i] != ' ' {
			f.i++
		}
	}
	op := strings.ToLower(f.src[start:f.i])
	return op, relationalOps[op]
}

func isOperatorChar(c byte) bool { return strings.IndexByte("<>=~!", c) >= 0 }

// value reads a path or a literal; right tells a right-hand operand, where
// an unquoted word is read as a string.
func (f *filterParser) value(right bool) (operand, *SyntaxError) {
	f.skip()
	if f.i >= f.end {
		return operand{}, f.errf(f.i, "expected a value in filter")
	}
	switch c := f.src[f.i]; c {
	case '$', '@':
		return f.pathOperand()
	case '!':
		f.i++
		if c := f.peek(); c == '$' || c == '@' {
			return f.pathOperand()
		}
		return operand{}, f.errf(f.i, "unexpected `!`")
	}
	return f.literal(right)
}

// pathOperand reads a path inside a filter: it runs to a space, an
// operator character or a `)` that closes a group rather than a
// function's ().
func (f *filterParser) pathOperand() (operand, *SyntaxError) {
	begin := f.i
	f.i++
	for f.i < f.end {
		c := f.src[f.i]
		if c == '[' {
			close := strings.IndexByte(f.src[f.i:f.end], ']')
			if close < 0 {
				return operand{}, f.errf(f.i, "unclosed `[` in filter")
			}
			f.i += close + 1
			if f.i >= f.end {
				break
			}
			c = f.src[f.i]
		}
		if isOperatorChar(c) || c == ' ' || c == ')' && !f.closesFunction(begin) {
			break
		}
		f.i++
	}
	p, err := parse(f.src[begin:f.i], f.depth)
	if err != nil {
		err.Offset += f.base + begin
		return operand{}, err
	}
	return operand{kind: opdPath, path: p}, nil
}

// closesFunction reports whether the `)` at f.i closes an empty argument
// list of a function named after a `.` within the path begun at begin.
func (f *filterParser) closesFunction(begin int) bool {
	j := f.i - 1
	for j > begin && f.src[j] == ' ' {
		j--
	}
	if j <= begin || f.src[j] != '(' {
		return false
	}
	return strings.IndexByte(f.src[begin+1:j], '.') >= 0
}

// literal reads a quoted string, true, false, null, a number, a JSON array
// or object, or a /pattern/flags.
func (f *filterParser) literal(right bool) (operand, *SyntaxError) {
	start := f.i
	c := f.src[f.i]
	switch {
	case c == '\'' || c == '"':
		close := nextUnescaped(f.src[:f.end], f.i, c)
		if close < 0 {
			return operand{}, f.errf(start, "unclosed string in filter")
		}
		f.i = close + 1
		return operand{kind: opdString, value: unescape(f.src[start+1 : close])}, nil
	case c == '-' || isDigit(c):
		return f.number()
	case c == '[' || c == '{':
		return f.jsonLiteral()
	case c == '/':
		return f.pattern()
	}
	word := f.word()
	switch word {
	case "true", "false":
		return operand{kind: opdBool, value: word == "true"}, nil
	case "null":
		return operand{kind: opdNull}, nil
	}
	if right && word != "" && (c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z') {
		// Step Functions runs machines that compare with bare words
		// (@.Code==es); flowc reads them as strings.
		return operand{kind: opdString, value: word}, nil
	}
	f.i = start
	if c == ')' {
		return operand{}, f.errf(start, "expected a value before `)`")
	}
	return operand{}, f.errf(start, "unexpected %q in filter", string(c))
}

// word reads a bare word: up to a space, a parenthesis, an operator
// character, `&`, `|` or `,`.
func (f *filterParser) word() string {
	start := f.i
	for f.i < f.end && !strings.ContainsRune(" ()&|,<>=~!'\"[]", rune(f.src[f.i])) {
		f.i++
	}
	return f.src[start:f.i]
}

// number reads Jayway's number characters (digits, `-`, `.`, `e`, `E`)
// and parses them as a decimal.
func (f *filterParser) number() (operand, *SyntaxError) {
	start := f.i
	for f.i < f.end && (isDigit(f.src[f.i]) || strings.IndexByte("-.eE", f.src[f.i]) >= 0) {
		f.i++
	}
	text := f.src[start:f.i]
	n, err := strconv.ParseFloat(text, 64)
	if err != nil || strings.ContainsAny(text, "xXpP_") {
		return operand{}, f.errf(start, "invalid number %q in filter", text)
	}
	return operand{kind: opdNumber, value: n}, nil
}

func (f *filterParser) jsonLiteral() (operand, *SyntaxError) {
	start := f.i
	v, n, err := parseJSONLiteral(f.src[start:f.end])
	if err != nil {
		return operand{}, f.errf(start, "invalid JSON literal in filter: %v", err)
	}
	f.i += n
	return operand{kind: opdJSON, value: v}, nil
}

// pattern reads /regex/flags; the regex must match a whole string, as
// Java's Matcher.matches does.
func (f *filterParser) pattern() (operand, *SyntaxError) {
	start := f.i
	close := nextUnescaped(f.src[:f.end], f.i, '/')
	if close < 0 {
		return operand{}, f.errf(start, "unclosed regular expression")
	}
	f.i = close + 1
	flags := ""
	for f.i < f.end && strings.IndexByte("dimsuxU", f.src[f.i]) >= 0 {
		flags += string(f.src[f.i])
		f.i++
	}
	goFlags := ""
	for _, fl := range flags {
		switch fl {
		case 'i', 'm', 's':
			goFlags += string(fl)
		case 'x':
			return operand{}, f.errf(close+1, "the regular expression flag x is not supported")
		}
	}
	src := f.src[start+1 : close]
	if goFlags != "" {
		src = "(?" + goFlags + ")" + src
	}
	re, err := regexp.Compile(`^(?:` + src + `)$`)
	if err != nil {
		return operand{}, f.errf(start, "invalid regular expression: %v", err)
	}
	return operand{kind: opdPattern, pattern: re}, nil
}
