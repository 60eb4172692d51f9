// Package jsregex translates JavaScript regular expressions, which JSONata
// regex literals are, into Go's RE2 syntax.
package jsregex

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
)

// Compile translates a JavaScript pattern with its flags into a Go regexp.
// Flags i, m and s map onto RE2's; g, u and d change nothing about a
// single match and are accepted; y (sticky) cannot be expressed. Syntax RE2
// lacks (backreferences, lookaround) is an error naming its position.
// Remaining differences: with m, ^ and $ see only \n as a line end, and i
// folds case by Unicode rules.
func Compile(pattern, flags string) (*regexp.Regexp, error) {
	prefix, dotAll, err := translateFlags(flags)
	if err != nil {
		return nil, err
	}
	t := &translator{src: []rune(pattern), dotAll: dotAll}
	body, err := t.translate()
	if err != nil {
		return nil, err
	}
	re, err := regexp.Compile(prefix + body)
	if err != nil {
		return nil, fmt.Errorf("regular expression /%s/: %w", pattern, err)
	}
	return re, nil
}

func translateFlags(flags string) (prefix string, dotAll bool, err error) {
	var re2 strings.Builder
	for _, f := range flags {
		switch f {
		case 'i', 'm':
			re2.WriteRune(f)
		case 's':
			dotAll = true
		case 'g', 'u', 'd':
		default:
			return "", false, fmt.Errorf("regular expression flag %q is not supported", f)
		}
	}
	if re2.Len() == 0 {
		return "", dotAll, nil
	}
	return "(?" + re2.String() + ")", dotAll, nil
}

// JavaScript's \s: white space and line terminators (ECMA-262 22.2.2.9).
const jsSpace = `\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}`

// JavaScript's . without the s flag excludes the line terminators.
const jsDot = `[^\n\r\x{2028}\x{2029}]`

type translator struct {
	src    []rune
	pos    int
	dotAll bool
	out    strings.Builder
}

func (t *translator) errorf(format string, args ...any) error {
	return fmt.Errorf("regular expression /%s/ at position %d: %s", string(t.src), t.pos, fmt.Sprintf(format, args...))
}

func (t *translator) translate() (string, error) {
	for t.pos < len(t.src) {
		var err error
		switch c := t.src[t.pos]; c {
		case '\\':
			err = t.escape(false)
		case '[':
			err = t.class()
		case '(':
			err = t.group()
		case '.':
			if t.dotAll {
				t.out.WriteString(`(?s:.)`)
			} else {
				t.out.WriteString(jsDot)
			}
			t.pos++
		default:
			t.out.WriteRune(c)
			t.pos++
		}
		if err != nil {
			return "", err
		}
	}
	return t.out.String(), nil
}

// group rewrites named groups and rejects lookaround.
func (t *translator) group() error {
	rest := string(t.src[t.pos:min(t.pos+4, len(t.src))])
	switch {
	case strings.HasPrefix(rest, "(?=") || strings.HasPrefix(rest, "(?!"):
		return t.errorf("lookahead is not supported")
	case strings.HasPrefix(rest, "(?<=") || strings.HasPrefix(rest, "(?<!"):
		return t.errorf("lookbehind is not supported")
	case strings.HasPrefix(rest, "(?<"):
		t.out.WriteString("(?P<")
		t.pos += 3
		return nil
	}
	t.out.WriteRune('(')
	t.pos++
	return nil
}

// class copies a character class, translating escapes; JavaScript's [^]
// (any character) and [] (none) have no RE2 spelling of their own.
func (t *translator) class() error {
	start := t.pos
	t.pos++
	negated := t.pos < len(t.src) && t.src[t.pos] == '^'
	if negated {
		t.pos++
	}
	if t.pos < len(t.src) && t.src[t.pos] == ']' {
		t.pos++
		if negated {
			t.out.WriteString(`(?s:.)`)
		} else {
			t.out.WriteString(`[^\x00-\x{10FFFF}]`)
		}
		return nil
	}
	t.out.WriteRune('[')
	if negated {
		t.out.WriteRune('^')
	}
	for t.pos < len(t.src) {
		switch c := t.src[t.pos]; c {
		case ']':
			t.out.WriteRune(']')
			t.pos++
			return nil
		case '\\':
			if err := t.escape(true); err != nil {
				return err
			}
		case '[':
			t.out.WriteString(`\[`) // literal in JavaScript, a POSIX class opener in RE2
			t.pos++
		default:
			t.out.WriteRune(c)
			t.pos++
		}
	}
	t.pos = start
	return t.errorf("unterminated character class")
}

// escape translates one backslash escape; inClass is true inside [...].
func (t *translator) escape(inClass bool) error {
	if t.pos+1 >= len(t.src) {
		return t.errorf("pattern ends with a backslash")
	}
	c := t.src[t.pos+1]
	t.pos += 2
	switch {
	case c == 's' && inClass:
		t.out.WriteString(jsSpace)
	case c == 's':
		t.out.WriteString("[" + jsSpace + "]")
	case c == 'S' && inClass:
		return t.errorf(`\S inside a character class is not supported`)
	case c == 'S':
		t.out.WriteString("[^" + jsSpace + "]")
	case c == 'b' && inClass:
		t.out.WriteString(`\x08`)
	case strings.ContainsRune("dDwWbBtnrfv", c):
		t.out.WriteRune('\\')
		t.out.WriteRune(c)
	case c == '0' && !t.nextIsDigit():
		t.out.WriteString(`\x00`)
	case c == '0':
		return t.errorf("legacy octal escapes are not supported")
	case c >= '1' && c <= '9' || c == 'k':
		return t.errorf("backreferences are not supported")
	case c == 'x':
		return t.hexEscape(2)
	case c == 'u':
		return t.unicodeEscape()
	case c == 'c':
		return t.controlEscape()
	case c == 'p' || c == 'P':
		t.out.WriteRune('\\')
		t.out.WriteRune(c)
	default:
		t.out.WriteString(regexp.QuoteMeta(string(c)))
	}
	return nil
}

func (t *translator) nextIsDigit() bool {
	return t.pos < len(t.src) && t.src[t.pos] >= '0' && t.src[t.pos] <= '9'
}

// hexEscape reads n hex digits after \x or \u; JavaScript treats a
// malformed one as the letter itself.
func (t *translator) hexEscape(n int) error {
	if t.pos+n <= len(t.src) {
		if v, err := strconv.ParseUint(string(t.src[t.pos:t.pos+n]), 16, 32); err == nil {
			fmt.Fprintf(&t.out, `\x{%x}`, v)
			t.pos += n
			return nil
		}
	}
	t.out.WriteRune(t.src[t.pos-1])
	return nil
}

func (t *translator) unicodeEscape() error {
	if t.pos < len(t.src) && t.src[t.pos] == '{' {
		end := t.pos + 1
		for end < len(t.src) && t.src[end] != '}' {
			end++
		}
		v, err := strconv.ParseUint(string(t.src[t.pos+1:min(end, len(t.src))]), 16, 32)
		if end >= len(t.src) || err != nil || v > 0x10FFFF {
			return t.errorf(`malformed \u{...} escape`)
		}
		fmt.Fprintf(&t.out, `\x{%x}`, v)
		t.pos = end + 1
		return nil
	}
	if r, ok := t.surrogatePair(); ok {
		fmt.Fprintf(&t.out, `\x{%x}`, r)
		return nil
	}
	return t.hexEscape(4)
}

// surrogatePair reads \uD8xx\uDCxx, which JavaScript matches as the one
// character the UTF-16 pair encodes; Go strings hold that character.
func (t *translator) surrogatePair() (rune, bool) {
	if t.pos+10 > len(t.src) || string(t.src[t.pos+4:t.pos+6]) != `\u` {
		return 0, false
	}
	hi, err1 := strconv.ParseUint(string(t.src[t.pos:t.pos+4]), 16, 32)
	lo, err2 := strconv.ParseUint(string(t.src[t.pos+6:t.pos+10]), 16, 32)
	r := utf16.DecodeRune(rune(hi), rune(lo))
	if err1 != nil || err2 != nil || r == unicode.ReplacementChar {
		return 0, false
	}
	t.pos += 10
	return r, true
}

// controlEscape turns \cX into the control character X mod 32; without a
// letter JavaScript reads a literal backslash and c.
func (t *translator) controlEscape() error {
	if t.pos < len(t.src) {
		if l := t.src[t.pos] | 0x20; l >= 'a' && l <= 'z' {
			fmt.Fprintf(&t.out, `\x{%x}`, t.src[t.pos]%32)
			t.pos++
			return nil
		}
	}
	t.out.WriteString(`\\c`)
	return nil
}
