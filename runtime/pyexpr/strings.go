package pyexpr

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// strings parses adjacent string literals, which Python concatenates; an
// f-string among them makes the whole a JoinedStr.
func (p *parser) strings() (node, error) {
	start := p.peek().off
	var parts []node
	joined, bytes, nonBytes := false, false, false
	for p.peek().kind == tString {
		t := p.next()
		prefix, body := splitLiteral(t)
		raw := strings.ContainsAny(prefix, "rR")
		if strings.ContainsAny(prefix, "bB") {
			bytes = true
		} else {
			nonBytes = true
		}
		if !strings.ContainsAny(prefix, "fF") {
			s, err := unescape(body.text, raw, body.off)
			if err != nil {
				return nil, err
			}
			parts = append(parts, &constNode{at: at{body.off}, val: s})
			continue
		}
		joined = true
		fparts, err := fstring(body.text, raw, body.off)
		if err != nil {
			return nil, err
		}
		parts = append(parts, fparts...)
	}
	if bytes && nonBytes {
		return nil, errAt(start, "cannot mix bytes and nonbytes literals")
	}
	if bytes {
		return &constNode{at: at{start}, err: "bytes are not values of workflow conditions"}, nil
	}
	parts = mergeLiterals(parts)
	if !joined {
		if len(parts) == 0 {
			return &constNode{at: at{start}, val: ""}, nil
		}
		c := parts[0].(*constNode)
		return &constNode{at: at{start}, val: c.val}, nil
	}
	return &joinedNode{at{start}, parts}, nil
}

// mergeLiterals joins adjacent literal strings.
func mergeLiterals(parts []node) []node {
	var out []node
	for _, x := range parts {
		c, ok := x.(*constNode)
		if ok && len(out) > 0 {
			if prev, ok := out[len(out)-1].(*constNode); ok {
				out[len(out)-1] = &constNode{at: prev.at, val: prev.val.(string) + c.val.(string)}
				continue
			}
		}
		if ok && c.val == "" {
			continue
		}
		out = append(out, x)
	}
	return out
}

// splitLiteral splits a string token into its prefix and the text between
// its quotes.
func splitLiteral(t token) (string, token) {
	q := strings.IndexAny(t.text, `'"`)
	prefix, rest := t.text[:q], t.text[q:]
	quote := rest[:1]
	if strings.HasPrefix(rest, strings.Repeat(quote, 3)) && len(rest) >= 6 {
		quote = strings.Repeat(quote, 3)
	}
	return prefix, token{tString, rest[len(quote) : len(rest)-len(quote)], t.off + q + len(quote)}
}

var simpleEscapes = map[byte]string{
	'\n': "", '\\': `\`, '\'': "'", '"': `"`, 'a': "\a", 'b': "\b", 'f': "\f", 'n': "\n", 'r': "\r", 't': "\t", 'v': "\v",
}

// unescape decodes the escapes of a (non-raw) string literal's text.
func unescape(s string, raw bool, off int) (string, error) {
	if raw || !strings.Contains(s, `\`) {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		c := s[i+1]
		if e, ok := simpleEscapes[c]; ok {
			b.WriteString(e)
			i++
			continue
		}
		switch {
		case c >= '0' && c <= '7':
			j := i + 1
			for j < len(s) && j < i+4 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			v, _ := strconv.ParseUint(s[i+1:j], 8, 32)
			b.WriteRune(rune(v))
			i = j - 1
		case c == 'x' || c == 'u' || c == 'U':
			n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[c]
			if i+2+n > len(s) {
				return "", errAt(off+i, "truncated \\%c escape", c)
			}
			v, err := strconv.ParseUint(s[i+2:i+2+n], 16, 32)
			if err != nil || !utf8.ValidRune(rune(v)) {
				return "", errAt(off+i, "invalid \\%c escape", c)
			}
			b.WriteRune(rune(v))
			i += 1 + n
		case c == 'N':
			return "", errAt(off+i, "\\N{...} escapes are not supported by flowc")
		default:
			b.WriteByte('\\') // Python keeps an unknown escape as written
		}
	}
	return b.String(), nil
}

// fstring parses the text of an f-string into literal strings and
// FormattedValues, in order.
func fstring(s string, raw bool, off int) ([]node, error) {
	var out []node
	lit := 0
	emitLit := func(end int) error {
		u, err := unescape(s[lit:end], raw, off+lit)
		out = append(out, &constNode{at: at{off + lit}, val: u})
		return err
	}
	for i := 0; i < len(s); i++ {
		switch {
		case strings.HasPrefix(s[i:], "{{") || strings.HasPrefix(s[i:], "}}"):
			if err := emitLit(i + 1); err != nil {
				return nil, err
			}
			i++
			lit = i + 1
		case s[i] == '}':
			return nil, errAt(off+i, "f-string: single '}' is not allowed")
		case s[i] == '{':
			if err := emitLit(i); err != nil {
				return nil, err
			}
			f, end, err := field(s, i, raw, off)
			if err != nil {
				return nil, err
			}
			out = append(out, f)
			i, lit = end, end+1
		}
	}
	if err := emitLit(len(s)); err != nil {
		return nil, err
	}
	return mergeLiterals(out), nil
}

// field parses the replacement field opening at s[open] and returns it and
// the index of its closing brace.
func field(s string, open int, raw bool, off int) (node, int, error) {
	depth, i := 0, open+1
	var quote byte
	for ; i < len(s); i++ {
		c := s[i]
		if quote != 0 {
			if c == quote {
				quote = 0
			}
			continue
		}
		switch {
		case c == '\'' || c == '"':
			quote = c
		case c == '(' || c == '[' || c == '{':
			depth++
		case (c == ')' || c == ']' || c == '}') && depth > 0:
			depth--
		case depth == 0 && (c == '}' || c == ':' || (c == '!' && i+1 < len(s) && s[i+1] != '=')):
			goto found
		}
	}
	return nil, 0, errAt(off+open, "f-string: expecting '}'")
found:
	inner := s[open+1 : i]
	if strings.TrimSpace(inner) == "" {
		return nil, 0, errAt(off+open, "f-string: empty expression not allowed")
	}
	x, err := parseAt(strings.TrimRight(inner, " "), off+open+1)
	if err != nil {
		return nil, 0, err
	}
	f := &formattedNode{at: at{off + open}, x: x}
	if s[i] == '!' {
		if i+1 >= len(s) || !strings.ContainsRune("sra", rune(s[i+1])) {
			return nil, 0, errAt(off+i, "f-string: invalid conversion character")
		}
		f.conv = s[i+1]
		i += 2
	}
	if i < len(s) && s[i] == ':' {
		depth, j := 0, i+1
		for ; j < len(s); j++ {
			if s[j] == '{' {
				depth++
			} else if s[j] == '}' {
				if depth == 0 {
					break
				}
				depth--
			}
		}
		parts, err := fstring(s[i+1:j], raw, off+i+1)
		if err != nil {
			return nil, 0, err
		}
		f.spec = &joinedNode{at{off + i + 1}, parts}
		i = j
	}
	if i >= len(s) || s[i] != '}' {
		return nil, 0, errAt(off+open, "f-string: expecting '}'")
	}
	return f, i, nil
}

// parseAt parses an expression embedded at offset off of the source.
func parseAt(src string, off int) (node, error) {
	toks, err := lex(strings.TrimLeft(src, " "))
	if err != nil {
		return nil, shift(err, off+len(src)-len(strings.TrimLeft(src, " ")))
	}
	shiftBy := off + len(src) - len(strings.TrimLeft(src, " "))
	for i := range toks {
		toks[i].off += shiftBy
	}
	p := &parser{toks: toks}
	x, err := p.expressions()
	if err == nil && p.peek().kind != tEOF {
		err = errAt(p.peek().off, "invalid syntax at %q", p.peek().text)
	}
	return x, err
}

func shift(err error, by int) error {
	if e, ok := err.(*Error); ok {
		return &Error{Offset: e.Offset + by, Msg: e.Msg}
	}
	return err
}
