package jsonata

import (
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

type tokKind int

const (
	tokEnd tokKind = iota
	tokOp
	tokString
	tokNumber
	tokName
	tokVar
	tokRegex
	tokValue // true, false, null
)

type token struct {
	kind  tokKind
	op    string // operator, name, variable or string text
	num   float64
	value any // for tokValue
	flags string
	pos   int // byte offset just after the token, as JSONata reports it
	start int
}

// operators in longest-first order of their first characters.
var twoCharOps = []string{"..", ":=", "!=", ">=", "<=", "**", "~>", "?:", "??"}

const opChars = ".[]{}(),@#;:?+-*/%|=<>^&!~"

type lexer struct {
	src string
	pos int
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// next reads one token; prefix says an operand is expected, where '/' starts
// a regular expression.
func (l *lexer) next(prefix bool) (token, *Error) {
	for {
		for l.pos < len(l.src) && isSpace(l.src[l.pos]) {
			l.pos++
		}
		if strings.HasPrefix(l.src[l.pos:], "/*") {
			end := strings.Index(l.src[l.pos+2:], "*/")
			if end < 0 {
				l.pos = len(l.src)
				return token{}, newError("S0106", l.pos, "")
			}
			l.pos += end + 4
			continue
		}
		break
	}
	start := l.pos
	if l.pos >= len(l.src) {
		return token{kind: tokEnd, pos: l.pos, start: start}, nil
	}
	c := l.src[l.pos]
	if prefix && c == '/' {
		return l.regex()
	}
	if l.pos+1 < len(l.src) {
		two := l.src[l.pos : l.pos+2]
		for _, op := range twoCharOps {
			if two == op {
				l.pos += 2
				return token{kind: tokOp, op: op, pos: l.pos, start: start}, nil
			}
		}
	}
	if strings.IndexByte(opChars, c) >= 0 {
		l.pos++
		return token{kind: tokOp, op: string(c), pos: l.pos, start: start}, nil
	}
	switch {
	case c == '"' || c == '\'':
		return l.str(c)
	case c == '`':
		end := strings.IndexByte(l.src[l.pos+1:], '`')
		if end < 0 {
			l.pos = len(l.src)
			return token{}, newError("S0105", l.pos, "")
		}
		name := l.src[l.pos+1 : l.pos+1+end]
		l.pos += end + 2
		return token{kind: tokName, op: name, pos: l.pos, start: start}, nil
	case c >= '0' && c <= '9':
		return l.number()
	}
	// a name or variable runs to whitespace or an operator
	i := l.pos
	for i < len(l.src) && !isSpace(l.src[i]) && strings.IndexByte(opChars, l.src[i]) < 0 {
		i++
	}
	word := l.src[l.pos:i]
	l.pos = i
	if word[0] == '$' {
		return token{kind: tokVar, op: word[1:], pos: l.pos, start: start}, nil
	}
	switch word {
	case "and", "or", "in":
		return token{kind: tokOp, op: word, pos: l.pos, start: start}, nil
	case "true":
		return token{kind: tokValue, value: true, op: word, pos: l.pos, start: start}, nil
	case "false":
		return token{kind: tokValue, value: false, op: word, pos: l.pos, start: start}, nil
	case "null":
		return token{kind: tokValue, value: nil, op: word, pos: l.pos, start: start}, nil
	}
	return token{kind: tokName, op: word, pos: l.pos, start: start}, nil
}

func (l *lexer) number() (token, *Error) {
	start := l.pos
	i := l.pos
	digits := func() {
		for i < len(l.src) && l.src[i] >= '0' && l.src[i] <= '9' {
			i++
		}
	}
	if l.src[i] == '0' {
		i++
	} else {
		digits()
	}
	if i+1 < len(l.src) && l.src[i] == '.' && l.src[i+1] >= '0' && l.src[i+1] <= '9' {
		i++
		digits()
	}
	if i < len(l.src) && (l.src[i] == 'e' || l.src[i] == 'E') {
		j := i + 1
		if j < len(l.src) && (l.src[j] == '+' || l.src[j] == '-') {
			j++
		}
		if j < len(l.src) && l.src[j] >= '0' && l.src[j] <= '9' {
			i = j
			digits()
		}
	}
	text := l.src[start:i]
	l.pos = i
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return token{}, newError("S0102", start, text)
	}
	return token{kind: tokNumber, num: f, op: text, pos: l.pos, start: start}, nil
}

func (l *lexer) str(quote byte) (token, *Error) {
	start := l.pos
	var b strings.Builder
	i := l.pos + 1
	for i < len(l.src) {
		c := l.src[i]
		switch {
		case c == quote:
			l.pos = i + 1
			return token{kind: tokString, op: b.String(), pos: l.pos, start: start}, nil
		case c == '\\':
			i++
			if i >= len(l.src) {
				break
			}
			e := l.src[i]
			switch e {
			case '"', '\\', '/', '\'':
				b.WriteByte(e)
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
				r, n, ok := hex4(l.src[i+1:])
				if !ok {
					return token{}, newError("S0104", i, "")
				}
				i += n
				if utf16.IsSurrogate(r) && strings.HasPrefix(l.src[i+1:], "\\u") {
					if r2, n2, ok := hex4(l.src[i+3:]); ok {
						if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
							r = d
							i += n2 + 2
						}
					}
				}
				b.WriteRune(r)
			default:
				return token{}, newError("S0103", i, string(e))
			}
			i++
		default:
			b.WriteByte(c)
			i++
		}
	}
	l.pos = len(l.src)
	return token{}, newError("S0101", start, "")
}

func hex4(s string) (rune, int, bool) {
	if len(s) < 4 {
		return 0, 0, false
	}
	v, err := strconv.ParseUint(s[:4], 16, 32)
	if err != nil {
		return 0, 0, false
	}
	return rune(v), 4, true
}

func (l *lexer) regex() (token, *Error) {
	start := l.pos
	i := l.pos + 1
	depth := 0 // inside a [...] class a '/' does not end the literal
	for i < len(l.src) {
		c := l.src[i]
		if c == '\\' {
			i += 2
			continue
		}
		if c == '[' {
			depth++
		} else if c == ']' && depth > 0 {
			depth--
		} else if c == '/' && depth == 0 {
			pattern := l.src[start+1 : i]
			if pattern == "" {
				return token{}, newError("S0301", i, "")
			}
			i++
			j := i
			for j < len(l.src) && strings.IndexByte("gimsuy", l.src[j]) >= 0 {
				j++
			}
			l.pos = j
			return token{kind: tokRegex, op: pattern, flags: l.src[i:j], pos: l.pos, start: start}, nil
		}
		i++
	}
	l.pos = len(l.src)
	return token{}, newError("S0302", i, "")
}
