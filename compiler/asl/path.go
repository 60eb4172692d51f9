package asl

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/flowc-dev/flowc/ir"
)

// The JSONPath of the States Language, in the Jayway dialect AWS evaluates:
// `$` (the input) or `$$` (the context object), then `.name`, `['name']`,
// `[n]` (negative from the end), `.*`, `[*]`, `[start:end:step]`, unions
// `['a','b']` and `[0,2]`, descent `..name` and filters
// `[?(@.price < 10 && @.tag)]`, whose comparisons take a literal, another
// `@` path or a `$` path, and a final function such as `.length()`. A bracket may follow a dot (`$.[0]`,
// `$.a.['b']`), as Jayway allows. A reference path, which AWS asks for where
// a single node must be named (ResultPath, ItemsPath), allows only names and
// indexes.

// pathError is a problem at byte offset At of the path text.
type pathError struct {
	At  int
	Msg string
}

// parsePath compiles src; reference limits it to a reference path and
// allowContext admits `$$` and variables (`$name`).
func parsePath(src string, reference, allowContext bool) (*ir.Path, *pathError) {
	p := &pathParser{src: src}
	path := &ir.Path{Source: src}
	if !strings.HasPrefix(src, "$") {
		return nil, &pathError{0, fmt.Sprintf("a path starts with `$`, got %q", src)}
	}
	p.i = 1
	switch {
	case strings.HasPrefix(src, "$$"):
		if !allowContext {
			return nil, &pathError{0, "the context object (`$$`) cannot be used here"}
		}
		path.Context = true
		p.i = 2
	case len(src) > 1 && isNameStart(rune(src[1])):
		if !allowContext {
			return nil, &pathError{0, "a variable cannot be used here"}
		}
		path.Var = p.name()
	}
	for p.i < len(src) {
		start := p.i
		seg, err := p.segment()
		if err != nil {
			return nil, err
		}
		if reference && seg.Kind != ir.SegField && seg.Kind != ir.SegIndex {
			return nil, &pathError{start, "a reference path names a single node: only `.name`, `['name']` and `[n]` are allowed here"}
		}
		path.Segments = append(path.Segments, seg)
	}
	return path, nil
}

type pathParser struct {
	src string
	i   int
}

func (p *pathParser) errf(at int, format string, args ...any) *pathError {
	return &pathError{at, fmt.Sprintf(format, args...)}
}

func (p *pathParser) peek(s string) bool { return strings.HasPrefix(p.src[p.i:], s) }

func (p *pathParser) segment() (ir.Segment, *pathError) {
	switch {
	case p.peek(".."):
		p.i += 2
		return p.descent()
	case p.peek(".["):
		p.i++
		return p.bracket()
	case p.peek("."):
		p.i++
		return p.dotted()
	case p.peek("["):
		return p.bracket()
	}
	return ir.Segment{}, p.errf(p.i, "unexpected %q in path; use `.name` or `[...]`", p.src[p.i:p.i+1])
}

func (p *pathParser) dotted() (ir.Segment, *pathError) {
	if p.peek("*") {
		p.i++
		return ir.Segment{Kind: ir.SegWildcard}, nil
	}
	at := p.i
	name := p.name()
	if name == "" {
		return ir.Segment{}, p.errf(p.i, "missing field name after `.`")
	}
	if p.peek("()") {
		p.i += 2
		if !slices.Contains(pathFunctions, name) {
			return ir.Segment{}, p.errf(at, "unknown path function %s(); use %s()", name, strings.Join(pathFunctions, "(), "))
		}
		if p.i < len(p.src) {
			return ir.Segment{}, p.errf(at, "a path function such as %s() ends the path", name)
		}
		return ir.Segment{Kind: ir.SegFunction, Name: name}, nil
	}
	return ir.Segment{Kind: ir.SegField, Name: name}, nil
}

// name reads a dot-notation field name: anything up to the next `.` or `[`.
func (p *pathParser) name() string {
	start := p.i
	for p.i < len(p.src) && !strings.ContainsRune(".[]()'\" ", rune(p.src[p.i])) {
		p.i++
	}
	return p.src[start:p.i]
}

// pathFunctions are the Jayway functions a path may end with.
var pathFunctions = []string{"length", "min", "max", "avg", "sum", "stddev", "keys", "first", "last"}

// isNameStart reports whether c may begin a variable name.
func isNameStart(c rune) bool { return c == '_' || unicode.IsLetter(c) || c >= 0x80 }

func (p *pathParser) descent() (ir.Segment, *pathError) {
	if p.peek("[") {
		at := p.i
		seg, err := p.bracket()
		switch {
		case err != nil:
			return seg, err
		case seg.Kind == ir.SegWildcard:
			return ir.Segment{Kind: ir.SegRecursive}, nil
		case seg.Kind == ir.SegField:
			return ir.Segment{Kind: ir.SegRecursive, Name: seg.Name}, nil
		}
		return seg, p.errf(at, "after `..` a bracket takes one quoted name or `*`")
	}
	if p.peek("*") {
		p.i++
		return ir.Segment{Kind: ir.SegRecursive}, nil
	}
	name := p.name()
	if name == "" {
		return ir.Segment{}, p.errf(p.i, "missing field name after `..`")
	}
	return ir.Segment{Kind: ir.SegRecursive, Name: name}, nil
}

func (p *pathParser) bracket() (ir.Segment, *pathError) {
	open := p.i
	p.i++
	p.skipSpace()
	var seg ir.Segment
	var err *pathError
	switch {
	case p.peek("*"):
		p.i++
		seg = ir.Segment{Kind: ir.SegWildcard}
	case p.peek("?("):
		seg, err = p.filterSegment()
	case p.peek("'") || p.peek(`"`):
		seg, err = p.names()
	default:
		seg, err = p.numbers()
	}
	if err != nil {
		return seg, err
	}
	p.skipSpace()
	if !p.peek("]") {
		return seg, p.errf(open, "unclosed `[` in path")
	}
	p.i++
	return seg, nil
}

// names reads ['a'] or ['a','b'].
func (p *pathParser) names() (ir.Segment, *pathError) {
	var names []string
	for {
		s, err := p.quoted()
		if err != nil {
			return ir.Segment{}, err
		}
		names = append(names, s)
		p.skipSpace()
		if !p.peek(",") {
			break
		}
		p.i++
		p.skipSpace()
	}
	if len(names) == 1 {
		return ir.Segment{Kind: ir.SegField, Name: names[0]}, nil
	}
	return ir.Segment{Kind: ir.SegUnion, Names: names}, nil
}

func (p *pathParser) quoted() (string, *pathError) {
	start := p.i
	if !p.peek("'") && !p.peek(`"`) {
		return "", p.errf(p.i, "expected a quoted name")
	}
	q := p.src[p.i]
	p.i++
	var b strings.Builder
	for p.i < len(p.src) && p.src[p.i] != q {
		if p.src[p.i] == '\\' && p.i+1 < len(p.src) {
			p.i++
		}
		b.WriteByte(p.src[p.i])
		p.i++
	}
	if p.i >= len(p.src) {
		return "", p.errf(start, "unclosed quote in path")
	}
	p.i++
	return b.String(), nil
}

func (p *pathParser) skipSpace() {
	for p.i < len(p.src) && p.src[p.i] == ' ' {
		p.i++
	}
}

// numbers reads [n], [a,b] or [start:end:step].
func (p *pathParser) numbers() (ir.Segment, *pathError) {
	start := p.i
	end := strings.IndexByte(p.src[p.i:], ']')
	if end < 0 {
		return ir.Segment{}, p.errf(start-1, "unclosed `[` in path")
	}
	body := p.src[p.i : p.i+end]
	p.i += end
	if strings.Contains(body, ":") {
		return slice(body, start)
	}
	var idx []int
	for _, part := range strings.Split(body, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil {
			return ir.Segment{}, &pathError{start, fmt.Sprintf("invalid index %q in path; use a whole number, `*` or a quoted name", body)}
		}
		idx = append(idx, n)
	}
	if len(idx) == 1 {
		return ir.Segment{Kind: ir.SegIndex, Index: idx[0]}, nil
	}
	return ir.Segment{Kind: ir.SegUnion, Indexes: idx}, nil
}

func slice(body string, at int) (ir.Segment, *pathError) {
	parts := strings.Split(body, ":")
	seg := ir.Segment{Kind: ir.SegSlice, Step: 1}
	if len(parts) > 3 {
		return seg, &pathError{at, fmt.Sprintf("invalid slice %q in path", body)}
	}
	for i, part := range parts {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		n, err := strconv.Atoi(part)
		if err != nil || (i == 2 && n <= 0) {
			return seg, &pathError{at, fmt.Sprintf("invalid slice %q in path", body)}
		}
		switch i {
		case 0:
			seg.Start, seg.HasStart = n, true
		case 1:
			seg.End, seg.HasEnd = n, true
		case 2:
			seg.Step = n
		}
	}
	return seg, nil
}

// filterSegment reads ?( expression ).
func (p *pathParser) filterSegment() (ir.Segment, *pathError) {
	p.i += 2
	f, err := p.filterOr()
	if err != nil {
		return ir.Segment{}, err
	}
	p.skipSpace()
	if !p.peek(")") {
		return ir.Segment{}, p.errf(p.i, "expected `)` to close the filter")
	}
	p.i++
	return ir.Segment{Kind: ir.SegFilter, Filter: f}, nil
}

func (p *pathParser) filterOr() (*ir.Filter, *pathError) {
	return p.filterChain(ir.FilterOr, "||", p.filterAnd)
}

func (p *pathParser) filterAnd() (*ir.Filter, *pathError) {
	return p.filterChain(ir.FilterAnd, "&&", p.filterUnary)
}

func (p *pathParser) filterChain(op ir.FilterOp, tok string, next func() (*ir.Filter, *pathError)) (*ir.Filter, *pathError) {
	first, err := next()
	if err != nil {
		return nil, err
	}
	args := []*ir.Filter{first}
	for p.skipSpace(); p.peek(tok); p.skipSpace() {
		p.i += len(tok)
		f, err := next()
		if err != nil {
			return nil, err
		}
		args = append(args, f)
	}
	if len(args) == 1 {
		return first, nil
	}
	return &ir.Filter{Op: op, Args: args}, nil
}

func (p *pathParser) filterUnary() (*ir.Filter, *pathError) {
	p.skipSpace()
	switch {
	case p.peek("!"):
		p.i++
		f, err := p.filterUnary()
		if err != nil {
			return nil, err
		}
		return &ir.Filter{Op: ir.FilterNot, Args: []*ir.Filter{f}}, nil
	case p.peek("("):
		p.i++
		f, err := p.filterOr()
		if err != nil {
			return nil, err
		}
		p.skipSpace()
		if !p.peek(")") {
			return nil, p.errf(p.i, "expected `)` in filter")
		}
		p.i++
		return f, nil
	}
	return p.comparison()
}

var filterOps = []ir.FilterOp{ir.FilterEq, ir.FilterNe, ir.FilterLe, ir.FilterGe, ir.FilterLt, ir.FilterGt}

func (p *pathParser) comparison() (*ir.Filter, *pathError) {
	if !p.peek("@") {
		return nil, p.errf(p.i, "a filter compares `@.field` with a value")
	}
	p.i++
	rel, err := p.relative()
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	for _, op := range filterOps {
		if p.peek(string(op)) && !(op == ir.FilterLt && p.peek("<=")) && !(op == ir.FilterGt && p.peek(">=")) {
			p.i += len(op)
			p.skipSpace()
			f := &ir.Filter{Op: op, Rel: rel}
			f.Value, f.Other, err = p.operand()
			return f, err
		}
	}
	return &ir.Filter{Op: ir.FilterExists, Rel: rel}, nil
}

// relative reads the names and indexes after `@`.
func (p *pathParser) relative() ([]ir.Segment, *pathError) {
	var rel []ir.Segment
	for p.peek(".") || p.peek("[") {
		at := p.i
		seg, err := p.segment()
		if err != nil {
			return nil, err
		}
		if seg.Kind != ir.SegField && seg.Kind != ir.SegIndex {
			return nil, p.errf(at, "inside a filter, `@` takes only names and indexes")
		}
		rel = append(rel, seg)
	}
	return rel, nil
}

// operand reads the right side of a filter comparison: a literal, a path
// relative to `@`, or a `$` path into the document (`$$`: the context
// object).
func (p *pathParser) operand() (any, *ir.Path, *pathError) {
	switch {
	case p.peek("@"):
		start := p.i
		p.i++
		rel, err := p.relative()
		return nil, &ir.Path{Source: p.src[start:p.i], Current: true, Segments: rel}, err
	case p.peek("$"):
		start := p.i
		p.skipOperandPath()
		path, err := parsePath(p.src[start:p.i], false, true)
		if err != nil {
			return nil, nil, &pathError{start + err.At, err.Msg}
		}
		return nil, path, nil
	}
	v, err := p.literal()
	return v, nil, err
}

// skipOperandPath moves past a `$` path inside a filter: up to a space, an
// operator or the closing parenthesis.
func (p *pathParser) skipOperandPath() { p.i = pathEnd(p.src, p.i, " )&|=!<>") }

// pathEnd returns where a path written inside other text (a filter, an
// intrinsic call) ends: at one of the bytes of stops outside brackets,
// parentheses and quotes.
func pathEnd(src string, i int, stops string) int {
	depth, quote := 0, byte(0)
	for ; i < len(src); i++ {
		c := src[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '[' || c == '(':
			depth++
		case (c == ']' || c == ')') && depth > 0:
			depth--
		case depth == 0 && strings.IndexByte(stops, c) >= 0:
			return i
		}
	}
	return len(src)
}

// literal reads a filter operand: a number, a quoted string, true, false or
// null.
func (p *pathParser) literal() (any, *pathError) {
	if p.peek("'") || p.peek(`"`) {
		s, err := p.quoted()
		return s, err
	}
	for _, kw := range []struct {
		text  string
		value any
	}{{"true", true}, {"false", false}, {"null", nil}} {
		if p.peek(kw.text) {
			p.i += len(kw.text)
			return kw.value, nil
		}
	}
	start := p.i
	for p.i < len(p.src) && (unicode.IsDigit(rune(p.src[p.i])) || strings.ContainsRune("+-.eE", rune(p.src[p.i]))) {
		p.i++
	}
	n, err := strconv.ParseFloat(p.src[start:p.i], 64)
	if err != nil {
		return nil, p.errf(start, "a filter compares with a number, a quoted string, true, false, null, an `@` path or a `$` path")
	}
	return n, nil
}
