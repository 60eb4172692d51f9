package pyexpr

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// format is Python's format(v, spec) for the format specification
// mini-language: [[fill]align][sign][z][#][0][width][,|_][.precision][type].
func format(v any, spec string) (string, error) {
	if spec == "" {
		return Str(v), nil
	}
	f, err := parseSpec(spec)
	if err != nil {
		return "", err
	}
	var body string
	switch x := v.(type) {
	case string:
		if f.typ != 0 && f.typ != 's' {
			return "", valueErr("Unknown format code '%c' for object of type 'str'", f.typ)
		}
		body = x
		if f.prec >= 0 && utf8.RuneCountInString(x) > f.prec {
			body = string([]rune(x)[:f.prec])
		}
		return f.pad(body, "", '<'), nil
	case bool, int64, float64:
		return f.number(x)
	}
	return "", typeErr("unsupported format string passed to %s.__format__", typeName(v))
}

type spec struct {
	fill          rune
	align, sign   byte
	zero, alt     bool
	width, prec   int
	grouping, typ byte
}

func parseSpec(s string) (*spec, error) {
	f := &spec{fill: ' ', prec: -1}
	r := []rune(s)
	i := 0
	if len(r) >= 2 && strings.ContainsRune("<>^=", r[1]) {
		f.fill, f.align, i = r[0], byte(r[1]), 2
	} else if len(r) >= 1 && strings.ContainsRune("<>^=", r[0]) {
		f.align, i = byte(r[0]), 1
	}
	if i < len(r) && strings.ContainsRune("+- ", r[i]) {
		f.sign, i = byte(r[i]), i+1
	}
	if i < len(r) && r[i] == '#' {
		f.alt, i = true, i+1
	}
	if i < len(r) && r[i] == '0' {
		f.zero, i = true, i+1
	}
	i = digits(r, i, &f.width)
	if i < len(r) && (r[i] == ',' || r[i] == '_') {
		f.grouping, i = byte(r[i]), i+1
	}
	if i < len(r) && r[i] == '.' {
		f.prec = 0
		if j := digits(r, i+1, &f.prec); j == i+1 {
			return nil, valueErr("Format specifier missing precision")
		} else {
			i = j
		}
	}
	if i < len(r) {
		f.typ, i = byte(r[i]), i+1
	}
	if i != len(r) {
		return nil, valueErr("Invalid format specifier '%s'", s)
	}
	return f, nil
}

func digits(r []rune, i int, dst *int) int {
	j := i
	for j < len(r) && r[j] >= '0' && r[j] <= '9' && j-i < 6 {
		j++
	}
	if j > i {
		*dst, _ = strconv.Atoi(string(r[i:j]))
	}
	return j
}

func (f *spec) number(v any) (string, error) {
	i, fl, isFloat, _ := number(v)
	typ := f.typ
	if typ == 0 {
		typ = 'd'
		if isFloat {
			typ = 'r'
		}
	}
	neg := false
	var body string
	switch typ {
	case 'd', 'n':
		if isFloat {
			return "", valueErr("Unknown format code 'd' for object of type 'float'")
		}
		neg, body = i < 0, strconv.FormatUint(uint64(abs64(i)), 10)
	case 'x', 'X', 'o', 'b':
		if isFloat {
			return "", valueErr("Unknown format code '%c' for object of type 'float'", typ)
		}
		base := map[byte]int{'x': 16, 'X': 16, 'o': 8, 'b': 2}[typ]
		neg, body = i < 0, strconv.FormatUint(uint64(abs64(i)), base)
		if typ == 'X' {
			body = strings.ToUpper(body)
		}
	case 'f', 'F', 'e', 'E', 'g', 'G', '%', 'r':
		if !isFloat {
			fl = float64(i)
		}
		neg = fl < 0 || (fl == 0 && strconv.FormatFloat(fl, 'f', -1, 64)[0] == '-')
		if neg {
			fl = -fl
		}
		body = f.float(fl, typ)
	default:
		return "", valueErr("Unknown format code '%c' for object of type '%s'", typ, typeName(v))
	}
	if f.grouping != 0 {
		body = group(body, f.grouping)
	}
	sign := ""
	switch {
	case neg:
		sign = "-"
	case f.sign == '+':
		sign = "+"
	case f.sign == ' ':
		sign = " "
	}
	return f.pad(body, sign, '>'), nil
}

func (f *spec) float(x float64, typ byte) string {
	prec := f.prec
	switch typ {
	case 'r':
		if prec < 0 {
			return strings.TrimPrefix(floatRepr(x), "-")
		}
		return strconv.FormatFloat(x, 'g', max(prec, 1), 64)
	case '%':
		return strconv.FormatFloat(x*100, 'f', cmpDefault(prec, 6), 64) + "%"
	case 'g', 'G':
		s := strconv.FormatFloat(x, 'g', max(cmpDefault(prec, 6), 1), 64)
		if typ == 'G' {
			s = strings.ToUpper(s)
		}
		return s
	case 'e', 'E':
		s := strconv.FormatFloat(x, 'e', cmpDefault(prec, 6), 64)
		if typ == 'E' {
			s = strings.ToUpper(s)
		}
		return s
	}
	return strconv.FormatFloat(x, 'f', cmpDefault(prec, 6), 64)
}

func cmpDefault(v, def int) int {
	if v < 0 {
		return def
	}
	return v
}

// group puts a separator between each three digits of the integer part.
func group(body string, sep byte) string {
	end := strings.IndexFunc(body, func(r rune) bool { return r < '0' || r > '9' })
	if end < 0 {
		end = len(body)
	}
	intPart, rest := body[:end], body[end:]
	var b strings.Builder
	for i, c := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(sep)
		}
		b.WriteRune(c)
	}
	return b.String() + rest
}

func (f *spec) pad(body, sign string, defAlign byte) string {
	align, fill := f.align, f.fill
	if f.zero && align == 0 {
		align, fill = '=', '0'
	}
	if align == 0 {
		align = defAlign
	}
	n := f.width - utf8.RuneCountInString(body) - len(sign)
	if n <= 0 {
		return sign + body
	}
	padding := strings.Repeat(string(fill), n)
	switch align {
	case '<':
		return sign + body + padding
	case '^':
		return strings.Repeat(string(fill), n/2) + sign + body + strings.Repeat(string(fill), n-n/2)
	case '=':
		return sign + padding + body
	}
	return padding + sign + body
}
