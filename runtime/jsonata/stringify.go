package jsonata

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/flowc-dev/flowc/runtime/jsonata/internal/jsnum"
)

// formatNumber is how JSONata prints a number inside a string or JSON text:
// rounded to 15 significant digits, then JavaScript's Number#toString.
func formatNumber(f float64) string {
	if f == 0 {
		return "0"
	}
	if isInteger(f) || significantDigits(f) <= 15 {
		// rounding to 15 digits would not change the value
		return jsFormat(f)
	}
	r, err := strconv.ParseFloat(jsnum.ToPrecision(f, 15), 64)
	if err != nil {
		return jsnum.Format(f)
	}
	return jsFormat(r)
}

// jsFormat is jsnum.Format with a fast path: in the range where JavaScript
// writes plain decimals, its digits are Go's shortest round-trip digits.
func jsFormat(f float64) string {
	if a := math.Abs(f); a >= 1e-6 && a < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return jsnum.Format(f)
}

// stringify is $string without the undefined case: strings as they are,
// numbers as JavaScript prints them, anything else as JSON.
func stringify(v any, pretty bool) (string, error) {
	switch x := v.(type) {
	case string:
		return x, nil
	case callable:
		return "", nil
	}
	if f, ok := asNumber(v); ok {
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return "", valueError("D3001", -1, f)
		}
		return formatNumber(f), nil
	}
	if hasInfinity(v) {
		return "", valueError("D1001", -1, math.Inf(1))
	}
	var b strings.Builder
	writeJSON(&b, v, pretty, 0)
	return b.String(), nil
}

func writeJSON(b *strings.Builder, v any, pretty bool, indent int) {
	v = normalize(v)
	switch x := v.(type) {
	case nil, undefinedT:
		b.WriteString("null")
	case bool:
		if x {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			b.WriteString("null")
		} else {
			b.WriteString(formatNumber(x))
		}
	case string:
		writeJSONString(b, x)
	case callable:
		b.WriteString(`""`)
	default:
		if arr, ok := arrayOf(v); ok {
			writeJSONArray(b, arr, pretty, indent)
			return
		}
		if isObject(v) {
			writeJSONObject(b, v, pretty, indent)
			return
		}
		b.WriteString("null")
	}
}

func newline(b *strings.Builder, pretty bool, indent int) {
	if pretty {
		b.WriteByte('\n')
		for i := 0; i < indent; i++ {
			b.WriteString("  ")
		}
	}
}

func writeJSONArray(b *strings.Builder, arr []any, pretty bool, indent int) {
	if len(arr) == 0 {
		b.WriteString("[]")
		return
	}
	b.WriteByte('[')
	for i, it := range arr {
		if i > 0 {
			b.WriteByte(',')
		}
		newline(b, pretty, indent+1)
		writeJSON(b, it, pretty, indent+1)
	}
	newline(b, pretty, indent)
	b.WriteByte(']')
}

func writeJSONObject(b *strings.Builder, v any, pretty bool, indent int) {
	n := 0
	b.WriteByte('{')
	for _, k := range objectKeys(v) {
		val, _ := objectGet(v, k)
		if isUndef(val) {
			continue
		}
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		newline(b, pretty, indent+1)
		writeJSONString(b, k)
		b.WriteByte(':')
		if pretty {
			b.WriteByte(' ')
		}
		writeJSON(b, val, pretty, indent+1)
	}
	if n > 0 {
		newline(b, pretty, indent)
	}
	b.WriteByte('}')
}

// writeJSONString escapes as JSON.stringify does: quotes, backslash and
// control characters only.
func writeJSONString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r < 0x20 {
				b.WriteString(`\u00`)
				b.WriteByte("0123456789abcdef"[r>>4])
				b.WriteByte("0123456789abcdef"[r&15])
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
}

// utf16Of is s as JavaScript sees it, in UTF-16 code units.
func utf16Of(s string) []uint16 { return utf16.Encode([]rune(s)) }

// utf16Len is the JavaScript length of s.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

func runeCount(s string) int { return utf8.RuneCountInString(s) }

func hasInfinity(v any) bool {
	if f, ok := asNumber(v); ok {
		return math.IsInf(f, 0) || math.IsNaN(f)
	}
	if arr, ok := arrayOf(v); ok {
		for _, it := range arr {
			if hasInfinity(it) {
				return true
			}
		}
	} else if isObject(v) {
		for _, k := range objectKeys(v) {
			c, _ := objectGet(v, k)
			if hasInfinity(c) {
				return true
			}
		}
	}
	return false
}

// significantDigits counts the digits of the shortest representation of f
// that reads back as f.
func significantDigits(f float64) int {
	var buf [32]byte
	b := strconv.AppendFloat(buf[:0], f, 'e', -1, 64)
	n := 0
	for _, c := range b {
		if c == 'e' {
			break
		}
		if c >= '0' && c <= '9' {
			n++
		}
	}
	return n
}
