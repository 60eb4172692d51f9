package jsonmode

import (
	"encoding/json"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// Output parsing as CodeMie does it (utils.py, extract_json_content): the
// whole text as JSON, else as a Python literal (dicts, lists, tuples,
// strings, numbers, True, False, None), else the first JSON block fenced
// with ```json or ~~~json, else the first {...} in the text (up to the
// first `}`), each parsed the same two ways; text that none of these parse
// stays a string.

var jsonPatterns = []*regexp.Regexp{
	regexp.MustCompile("(?s)```json(.*?)\\s*```"),
	regexp.MustCompile("(?s)~~~json(.*?)\\s*~~~"),
	regexp.MustCompile("(?s)(\\{.*?})"),
}

// parseStructured parses a handler's output text into a JSON value, numbers
// as json.Number; false when it is no structured value and stays text.
func parseStructured(text string) (any, bool) {
	if v, ok := parseValue(text); ok {
		return v, true
	}
	for _, re := range jsonPatterns {
		if m := re.FindStringSubmatch(text); m != nil {
			if v, ok := parseValue(strings.TrimSpace(m[1])); ok {
				return v, true
			}
		}
	}
	return nil, false
}

func parseValue(text string) (any, bool) {
	if v, err := impl.DecodeValue([]byte(text)); err == nil {
		return v, true
	}
	return parsePython(text)
}

// parsePython reads a Python literal, as ast.literal_eval would.
func parsePython(text string) (any, bool) {
	p := &pyParser{src: text}
	v, err := p.value()
	if err != nil {
		return nil, false
	}
	p.space()
	return v, p.pos == len(p.src)
}

type pyParser struct {
	src   string
	pos   int
	depth int // of open brackets, bounded as encoding/json bounds it
}

const maxPyDepth = 10000

var errPy = errors.New("not a Python literal")

func (p *pyParser) space() {
	for p.pos < len(p.src) && strings.IndexByte(" \t\r\n", p.src[p.pos]) >= 0 {
		p.pos++
	}
}

func (p *pyParser) peek() byte {
	p.space()
	if p.pos < len(p.src) {
		return p.src[p.pos]
	}
	return 0
}

func (p *pyParser) value() (any, error) {
	if p.depth > maxPyDepth {
		return nil, errPy
	}
	switch c := p.peek(); {
	case c == '{':
		return p.dict()
	case c == '[':
		return p.seq(']')
	case c == '(':
		return p.seq(')')
	case c == '\'' || c == '"':
		return p.str()
	case c == '-' || c == '+' || c == '.' || (c >= '0' && c <= '9'):
		return p.number()
	}
	return p.name()
}

// seq reads a list or tuple; both become JSON lists.
func (p *pyParser) seq(close byte) (any, error) {
	p.pos++
	p.depth++
	defer func() { p.depth-- }()
	out := []any{}
	for {
		if p.peek() == close {
			p.pos++
			return out, nil
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		if !p.sep(close) {
			return nil, errPy
		}
	}
}

// sep consumes a comma, or sees the closing bracket.
func (p *pyParser) sep(close byte) bool {
	switch p.peek() {
	case ',':
		p.pos++
		return true
	case close:
		return true
	}
	return false
}

func (p *pyParser) dict() (any, error) {
	p.pos++
	p.depth++
	defer func() { p.depth-- }()
	out := map[string]any{}
	for {
		if p.peek() == '}' {
			p.pos++
			return out, nil
		}
		k, err := p.value()
		if err != nil {
			return nil, err
		}
		if p.peek() != ':' {
			return nil, errPy
		}
		p.pos++
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		key, ok := k.(string)
		if !ok { // JSON objects have string keys: 1 becomes "1"
			key, _ = impl.ValueText(k)
		}
		out[key] = v
		if !p.sep('}') {
			return nil, errPy
		}
	}
}

func (p *pyParser) str() (any, error) {
	q := p.src[p.pos]
	var b strings.Builder
	for i := p.pos + 1; i < len(p.src); {
		c := p.src[i]
		switch {
		case c == q:
			p.pos = i + 1
			return b.String(), nil
		case c == '\n':
			return nil, errPy
		case c == '\\' && i+1 < len(p.src):
			n, err := pyEscape(&b, p.src[i+1:])
			if err != nil {
				return nil, err
			}
			i += 1 + n
		default:
			r, size := utf8.DecodeRuneInString(p.src[i:])
			b.WriteRune(r)
			i += size
		}
	}
	return nil, errPy
}

// pyEscape writes the escape that rest starts with and returns its length.
func pyEscape(b *strings.Builder, rest string) (int, error) {
	simple := map[byte]string{'n': "\n", 't': "\t", 'r': "\r", '\\': "\\", '\'': "'", '"': "\"", '0': "\x00", '\n': ""}
	if s, ok := simple[rest[0]]; ok {
		b.WriteString(s)
		return 1, nil
	}
	digits := map[byte]int{'x': 2, 'u': 4, 'U': 8}[rest[0]]
	if digits == 0 {
		b.WriteByte('\\') // Python keeps unknown escapes as written
		return 0, nil
	}
	if len(rest) <= digits {
		return 0, errPy
	}
	n, err := strconv.ParseUint(rest[1:1+digits], 16, 32)
	if err != nil {
		return 0, errPy
	}
	b.WriteRune(rune(n))
	return 1 + digits, nil
}

func (p *pyParser) number() (any, error) {
	start := p.pos
	for p.pos < len(p.src) && strings.IndexByte("+-0123456789.eE_", p.src[p.pos]) >= 0 {
		p.pos++
	}
	text := strings.ReplaceAll(p.src[start:p.pos], "_", "")
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return nil, errPy
	}
	if i, err := strconv.ParseInt(text, 10, 64); err == nil {
		return json.Number(strconv.FormatInt(i, 10)), nil
	}
	// Python spellings such as 1. and .5 are no JSON numbers.
	return json.Number(strconv.FormatFloat(f, 'g', -1, 64)), nil
}

func (p *pyParser) name() (any, error) {
	start := p.pos
	for p.pos < len(p.src) && (unicode.IsLetter(rune(p.src[p.pos])) || p.src[p.pos] == '_') {
		p.pos++
	}
	switch p.src[start:p.pos] {
	case "True":
		return true, nil
	case "False":
		return false, nil
	case "None":
		return nil, nil
	}
	return nil, errPy
}
