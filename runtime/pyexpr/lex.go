package pyexpr

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Error is a parse or evaluation error; Offset is the byte offset in the
// expression where it was found.
type Error struct {
	Offset int
	Msg    string
}

func (e *Error) Error() string { return fmt.Sprintf("offset %d: %s", e.Offset, e.Msg) }

func errAt(off int, format string, args ...any) *Error {
	return &Error{Offset: off, Msg: fmt.Sprintf(format, args...)}
}

type tokKind int

const (
	tEOF tokKind = iota
	tName
	tNumber
	tString
	tOp
)

type token struct {
	kind tokKind
	text string // the source text of the token
	off  int
}

// Python's reserved words: none of them is a name.
var keywords = map[string]bool{
	"False": true, "None": true, "True": true, "and": true, "as": true, "assert": true, "async": true,
	"await": true, "break": true, "class": true, "continue": true, "def": true, "del": true, "elif": true,
	"else": true, "except": true, "finally": true, "for": true, "from": true, "global": true, "if": true,
	"import": true, "in": true, "is": true, "lambda": true, "nonlocal": true, "not": true, "or": true,
	"pass": true, "raise": true, "return": true, "try": true, "while": true, "with": true, "yield": true,
}

// operators, longest first so that the lexer takes the longest match.
var operators = []string{
	"**=", "//=", ">>=", "<<=", "...", "->", ":=",
	"**", "//", "<<", ">>", "<=", ">=", "==", "!=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@=",
	"+", "-", "*", "/", "%", "@", "&", "|", "^", "~", "<", ">", "(", ")", "[", "]", "{", "}", ",", ":", ".",
	";", "=",
}

// lex splits src into tokens the way Python's tokenizer does for one
// expression: newlines are allowed inside brackets and after a backslash,
// comments run to the end of the line.
func lex(src string) ([]token, error) {
	var toks []token
	depth := 0
	lineStart := true
	for i := 0; i < len(src); {
		c := src[i]
		if lineStart && depth == 0 {
			lineStart = false
			if n := skipBlanks(src, i); n > i && (n == len(src) || (src[n] != '\n' && src[n] != '\r' && src[n] != '#')) {
				return nil, errAt(i, "unexpected indent")
			}
		}
		switch {
		case c == ' ' || c == '\t' || c == '\f':
			i++
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '\\' && i+1 < len(src) && (src[i+1] == '\n' || strings.HasPrefix(src[i+1:], "\r\n")):
			i += 2
		case c == '\n' || c == '\r':
			if depth == 0 && len(toks) > 0 && strings.TrimSpace(stripComments(src[i:])) != "" {
				return nil, errAt(i, "invalid syntax: an expression is one line outside brackets")
			}
			lineStart = c == '\n'
			i++
		case isDigit(c) || (c == '.' && i+1 < len(src) && isDigit(src[i+1])):
			n := scanNumber(src, i)
			toks = append(toks, token{tNumber, src[i:n], i})
			i = n
		case c == '"' || c == '\'':
			n, err := scanString(src, i, i)
			if err != nil {
				return nil, err
			}
			toks = append(toks, token{tString, src[i:n], i})
			i = n
		case isNameStart(src, i):
			n := i
			for n < len(src) && isNameChar(src, n) {
				_, w := utf8.DecodeRuneInString(src[n:])
				n += w
			}
			if n < len(src) && (src[n] == '"' || src[n] == '\'') && isStringPrefix(src[i:n]) {
				end, err := scanString(src, i, n)
				if err != nil {
					return nil, err
				}
				toks = append(toks, token{tString, src[i:end], i})
				i = end
				continue
			}
			toks = append(toks, token{tName, src[i:n], i})
			i = n
		default:
			op := ""
			for _, o := range operators {
				if strings.HasPrefix(src[i:], o) {
					op = o
					break
				}
			}
			if op == "" {
				r, _ := utf8.DecodeRuneInString(src[i:])
				return nil, errAt(i, "invalid character %q", r)
			}
			switch op {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				depth--
			}
			toks = append(toks, token{tOp, op, i})
			i += len(op)
		}
	}
	return append(toks, token{tEOF, "", len(src)}), nil
}

func stripComments(s string) string {
	var b strings.Builder
	for _, line := range strings.Split(s, "\n") {
		line, _, _ = strings.Cut(line, "#")
		b.WriteString(line)
	}
	return b.String()
}

func skipBlanks(src string, i int) int {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\f') {
		i++
	}
	return i
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isNameStart(src string, i int) bool {
	r, _ := utf8.DecodeRuneInString(src[i:])
	return r == '_' || unicode.IsLetter(r)
}

func isNameChar(src string, i int) bool {
	r, _ := utf8.DecodeRuneInString(src[i:])
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

func isStringPrefix(p string) bool {
	switch strings.ToLower(p) {
	case "r", "u", "b", "f", "br", "rb", "fr", "rf":
		return true
	}
	return false
}

// scanNumber returns the end of the number starting at i; the parser
// validates its form.
func scanNumber(src string, i int) int {
	n := i
	for n < len(src) {
		c := src[n]
		switch {
		case isDigit(c) || c == '_' || c == '.' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'):
			n++
		case (c == '+' || c == '-') && n > i && (src[n-1] == 'e' || src[n-1] == 'E') && !isHex(src[i:n]):
			n++
		default:
			return n
		}
	}
	return n
}

func isHex(s string) bool { return len(s) > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') }

// scanString returns the end of the string literal whose prefix starts at
// start and whose quote is at q.
func scanString(src string, start, q int) (int, error) {
	quote := src[q : q+1]
	if strings.HasPrefix(src[q:], strings.Repeat(quote, 3)) {
		quote = strings.Repeat(quote, 3)
	}
	for i := q + len(quote); i < len(src); i++ {
		switch {
		case src[i] == '\\':
			i++
		case strings.HasPrefix(src[i:], quote):
			return i + len(quote), nil
		case src[i] == '\n' && len(quote) == 1:
			return 0, errAt(start, "unterminated string literal")
		}
	}
	return 0, errAt(start, "unterminated string literal")
}
