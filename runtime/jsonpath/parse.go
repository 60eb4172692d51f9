package jsonpath

import (
	"fmt"
	"strconv"
	"strings"
)

// tokenKind classifies one step of a path, as Jayway's PathToken classes
// do.
type tokenKind int

const (
	tokProperty tokenKind = iota // .name, ['a'], ['a','b']
	tokIndex                     // [0], [0,2]
	tokSlice                     // [1:3]
	tokWildcard                  // .* or [*]
	tokScan                      // ..
	tokFilter                    // [?(...)]
	tokFunction                  // .length()
)

// token is one step. upDefinite records whether every step before it is
// definite, which decides whether a missing value there is an error.
type token struct {
	kind       tokenKind
	names      []string
	indexes    []int
	slice      sliceOp
	filter     expr
	function   string
	leaf       bool
	upDefinite bool
	at         int // offset in the path text, for messages
}

// sliceOp is Jayway's ArraySliceOperation: a start, an end or both; a
// step, if written, is read and ignored, as Jayway does.
type sliceOp struct {
	from, to       int
	hasFrom, hasTo bool
}

// definite is Jayway's isTokenDefinite.
func (t *token) definite() bool {
	switch t.kind {
	case tokProperty:
		return len(t.names) == 1 || t.leaf
	case tokIndex:
		return len(t.indexes) == 1
	case tokFunction:
		return true
	}
	return false
}

// maxDepth bounds how deeply filters and parentheses nest.
const maxDepth = 32

// pathFunctions are the Jayway functions a path may apply without
// arguments.
var pathFunctions = map[string]bool{
	"length": true, "min": true, "max": true, "avg": true, "sum": true,
	"stddev": true, "keys": true, "first": true, "last": true,
}

const functionList = "length(), min(), max(), avg(), sum(), stddev(), keys(), first() or last()"

// parser reads one path. base is the offset of src in the text the user
// wrote, for messages; depth counts the filters around it.
type parser struct {
	src    string
	i      int
	base   int
	depth  int
	tokens []token
}

func (p *parser) errf(at int, format string, args ...any) *SyntaxError {
	return &SyntaxError{Offset: max(p.base+at, 0), Msg: fmt.Sprintf(format, args...)}
}

// parse compiles src as Jayway's PathCompiler does: surrounding spaces
// are ignored, and text that starts with neither `$` nor `@` is read as
// `$.` followed by it.
func parse(src string, depth int) (*Path, *SyntaxError) {
	if depth > maxDepth {
		return nil, &SyntaxError{Msg: "filters nest too deeply"}
	}
	start, end := trimSpaces(src, 0, len(src))
	text, base := src[start:end], start
	if text == "" {
		return nil, &SyntaxError{Offset: start, Msg: "empty path"}
	}
	if text[0] != '$' && text[0] != '@' {
		text, base = "$."+text, start-2
	}
	p := &parser{src: text, base: base, depth: depth}
	if err := p.path(); err != nil {
		return nil, err
	}
	if len(p.tokens) == 2 && p.tokens[0].kind == tokScan && p.tokens[1].kind == tokFunction {
		// Jayway would apply the function to what `..` alone finds,
		// which it cannot evaluate.
		return nil, p.errf(1, "`..` needs a name, `*` or brackets after it")
	}
	return newPath(text[0] == '@', p.tokens), nil
}

// newPath settles what depends on the whole list of tokens: which is the
// leaf, which are preceded by definite ones, and the function Jayway
// applies to the whole result of $..path.function().
func newPath(fromItem bool, tokens []token) *Path {
	path := &Path{fromItem: fromItem, tokens: tokens}
	if n := len(tokens); n > 1 && tokens[0].kind == tokScan && tokens[n-1].kind == tokFunction {
		path.aggregate, path.tokens = tokens[n-1].function, tokens[:n-1]
	}
	up := true
	for i := range path.tokens {
		t := &path.tokens[i]
		t.leaf = i == len(path.tokens)-1
		t.upDefinite = up
		up = up && t.definite()
	}
	path.stepsDefinite = up
	return path
}

func (p *parser) path() *SyntaxError {
	if strings.HasSuffix(p.src, ".") {
		return p.errf(len(p.src)-1, "a path must not end with `.` or `..`")
	}
	p.i = 1
	if p.i < len(p.src) && p.src[p.i] != '.' && p.src[p.i] != '[' {
		return p.errf(p.i, "expected `.` or `[` after `%c`", p.src[0])
	}
	for p.i < len(p.src) {
		if err := p.next(); err != nil {
			return err
		}
	}
	return nil
}

func (p *parser) add(t token) { p.tokens = append(p.tokens, t) }

// next reads one step at p.i and notes where it starts.
func (p *parser) next() *SyntaxError {
	n, start := len(p.tokens), p.i
	err := p.step()
	for k := n; k < len(p.tokens); k++ {
		p.tokens[k].at = max(p.base+start, 0)
	}
	return err
}

func (p *parser) step() *SyntaxError {
	switch p.src[p.i] {
	case '[':
		return p.bracket()
	case '.':
		return p.dot()
	case '*':
		p.i++
		p.add(token{kind: tokWildcard})
		return nil
	}
	return p.property()
}

// dot reads `.` or `..`; the step after it is read next.
func (p *parser) dot() *SyntaxError {
	if strings.HasPrefix(p.src[p.i:], "..") {
		p.add(token{kind: tokScan})
		p.i += 2
	} else {
		p.i++
	}
	if p.i < len(p.src) && p.src[p.i] == '.' {
		return p.errf(p.i, "unexpected `.`")
	}
	return nil
}

// property reads a dot-notation name, which runs to the next `.`, `[` or
// `(`, or a function call name().
func (p *parser) property() *SyntaxError {
	start := p.i
	end := start
	for end < len(p.src) && !strings.ContainsRune(".[(", rune(p.src[end])) {
		if p.src[end] == ' ' {
			return p.errf(end, "use bracket notation ['my prop'] for a name with spaces")
		}
		end++
	}
	name := p.src[start:end]
	if end < len(p.src) && p.src[end] == '(' {
		return p.function(name, start, end)
	}
	p.i = end
	p.add(token{kind: tokProperty, names: []string{name}})
	return nil
}

// function reads name() at start; open is the offset of `(`.
func (p *parser) function(name string, start, open int) *SyntaxError {
	if !strings.HasPrefix(p.src[open:], "()") {
		if close := matchingParen(p.src, open); close < 0 {
			return p.errf(open, "the arguments of %s() are not closed", name)
		}
		return p.errf(open+1, "path functions take no arguments here")
	}
	if !pathFunctions[name] {
		return p.errf(start, "unknown path function %s(); use %s", name, functionList)
	}
	p.i = open + 2
	p.add(token{kind: tokFunction, function: name})
	return nil
}

// bracket reads [...]: quoted names, indexes or a slice, `*`, or a filter.
func (p *parser) bracket() *SyntaxError {
	open := p.i
	if strings.IndexByte(p.src[open:], ']') < 0 {
		return p.errf(open, "unclosed `[`")
	}
	c, at := p.significant(open + 1)
	switch {
	case c == '\'' || c == '"':
		return p.quotedNames(open, c)
	case c == '-' || c == ':' || isDigit(c):
		if ok, err := p.arrayIndexes(open); ok || err != nil {
			return err
		}
	case c == '*':
		close, at2 := p.significant(at + 1)
		if close != ']' {
			return p.errf(at2, "expected `]` after `[*`")
		}
		p.i = at2 + 1
		p.add(token{kind: tokWildcard})
		return nil
	case c == '?':
		if ok, err := p.filterStep(open, at); ok || err != nil {
			return err
		}
	}
	return p.errf(open, "could not read the step in brackets; expected `?`, a quote, a number or `*`")
}

// significant returns the first byte at or after i that is not a space,
// and where it is (0 and len(src) when there is none).
func (p *parser) significant(i int) (byte, int) {
	for i < len(p.src) && p.src[i] == ' ' {
		i++
	}
	if i >= len(p.src) {
		return 0, len(p.src)
	}
	return p.src[i], i
}

// quotedNames reads ['a'] or ['a', 'b'], quoted with q. As in Jayway, a
// backslash escapes the character after it wherever it stands.
func (p *parser) quotedNames(open int, q byte) *SyntaxError {
	var names []string
	inName, escaped, comma := false, false, false
	start, end := 0, -1
loop:
	for i := open + 1; i < len(p.src); i++ {
		c := p.src[i]
		switch {
		case escaped:
			escaped = false
		case c == '\\':
			escaped = true
		case c == ']' && !inName:
			if comma {
				return p.errf(i, "empty name in brackets")
			}
			break loop
		case c == q && inName:
			if next, at := p.significant(i + 1); next != ']' && next != ',' {
				return p.errf(at, "names in brackets are separated by `,` and closed by `]`")
			}
			names = append(names, unescape(p.src[start:i]))
			inName, end = false, i
		case c == q:
			start, inName, comma = i+1, true, false
		case c == ',' && !inName:
			if comma {
				return p.errf(i, "empty name in brackets")
			}
			comma = true
		}
	}
	if inName {
		return p.errf(start-1, "unclosed quote")
	}
	close, at := p.significant(end + 1)
	if end < 0 || close != ']' {
		return p.errf(open, "unclosed `[`")
	}
	p.i = at + 1
	p.add(token{kind: tokProperty, names: names})
	return nil
}

// arrayIndexes reads [n], [n,m] or a slice; ok is false when the brackets
// hold something else, which another reader may take.
func (p *parser) arrayIndexes(open int) (bool, *SyntaxError) {
	close := strings.IndexByte(p.src[open+1:], ']')
	if close < 0 {
		return false, nil
	}
	close += open + 1
	s, e := trimSpaces(p.src, open+1, close)
	body := p.src[s:e]
	for i := 0; i < len(body); i++ {
		if c := body[i]; !isDigit(c) && !strings.ContainsRune(",-: ", rune(c)) {
			return false, nil
		}
	}
	var t token
	var err *SyntaxError
	if strings.Contains(body, ":") {
		t, err = p.sliceToken(body, s)
	} else {
		t, err = p.indexToken(body, s)
	}
	if err != nil {
		return true, err
	}
	p.i = close + 1
	p.add(t)
	return true, nil
}

// sliceToken reads start:end[:step]; the step is ignored, as in Jayway.
func (p *parser) sliceToken(body string, at int) (token, *SyntaxError) {
	if strings.ContainsRune(body, ' ') || strings.Contains(body, ",") {
		return token{}, p.errf(at, "invalid slice %q", body)
	}
	parts := strings.Split(body, ":")
	for len(parts) > 0 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1] // as Java's String.split drops them
	}
	var op sliceOp
	var err error
	if len(parts) > 0 && parts[0] != "" {
		op.hasFrom = true
		if op.from, err = javaInt(parts[0]); err != nil {
			return token{}, p.errf(at, "invalid slice start %q", parts[0])
		}
	}
	if len(parts) > 1 && parts[1] != "" {
		op.hasTo = true
		if op.to, err = javaInt(parts[1]); err != nil {
			return token{}, p.errf(at, "invalid slice end %q", parts[1])
		}
	}
	if !op.hasFrom && !op.hasTo {
		return token{}, p.errf(at, "a slice needs a start or an end")
	}
	return token{kind: tokSlice, slice: op}, nil
}

func (p *parser) indexToken(body string, at int) (token, *SyntaxError) {
	var indexes []int
	for _, part := range strings.Split(body, ",") {
		n, err := javaInt(strings.Trim(part, " "))
		if err != nil {
			return token{}, p.errf(at, "invalid index %q", strings.TrimSpace(part))
		}
		indexes = append(indexes, n)
	}
	return token{kind: tokIndex, indexes: indexes}, nil
}

// javaInt is Integer.parseInt: an optional minus and decimal digits that
// fit 32 bits.
func javaInt(s string) (int, error) {
	n, err := strconv.ParseInt(s, 10, 32)
	if err != nil || strings.HasPrefix(s, "+") {
		return 0, fmt.Errorf("invalid integer %q", s)
	}
	return int(n), nil
}

// filterStep reads [?( ... )] with `[` at open and `?` at q.
func (p *parser) filterStep(open, q int) (bool, *SyntaxError) {
	c, paren := p.significant(q + 1)
	if c != '(' {
		return false, nil
	}
	close, err := p.closingParen(paren)
	if err != nil || close < 0 {
		return err != nil, err
	}
	end, at := p.significant(close + 1)
	if end != ']' {
		return false, nil
	}
	if p.depth >= maxDepth {
		return true, p.errf(open, "filters nest too deeply")
	}
	f := &filterParser{src: p.src, i: paren, end: close + 1, base: p.base, depth: p.depth + 1}
	e, err := f.parse()
	if err != nil {
		return true, err
	}
	p.i = at + 1
	p.add(token{kind: tokFilter, filter: e})
	return true, nil
}

// closingParen finds the `)` that closes the `(` at open, skipping quoted
// strings and /regular expressions/ (Jayway's indexOfClosingBracket).
func (p *parser) closingParen(open int) (int, *SyntaxError) {
	depth := 1
	for i := open + 1; i < len(p.src); i++ {
		switch c := p.src[i]; c {
		case '\'', '"', '/':
			j := nextUnescaped(p.src, i, c)
			if j < 0 {
				return -1, p.errf(i, "unclosed %c in filter", c)
			}
			i = j
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return i, nil
			}
		}
	}
	return -1, nil
}

// matchingParen finds the `)` closing the `(` at open, counting only
// parentheses; -1 when there is none.
func matchingParen(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
}

// nextUnescaped finds the next c after i not preceded by a backslash.
func nextUnescaped(s string, i int, c byte) int {
	escaped := false
	for j := i + 1; j < len(s); j++ {
		switch {
		case escaped:
			escaped = false
		case s[j] == '\\':
			escaped = true
		case s[j] == c:
			return j
		}
	}
	return -1
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// trimSpaces narrows [start, end) of s past spaces at both ends.
func trimSpaces(s string, start, end int) (int, int) {
	for start < end && s[start] == ' ' {
		start++
	}
	for end > start && s[end-1] == ' ' {
		end--
	}
	return start, end
}

// unescape resolves the backslash escapes of a quoted name or string:
// those of Java and JSON; before any other character the backslash is
// dropped.
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch c = s[i]; c {
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			if r, err := strconv.ParseUint(s[i+1:min(i+5, len(s))], 16, 32); err == nil && i+5 <= len(s) {
				b.WriteRune(rune(r))
				i += 4
				continue
			}
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
