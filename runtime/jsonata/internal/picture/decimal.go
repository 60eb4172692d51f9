package picture

import (
	"strconv"
	"strings"
)

// decimal is a non-negative number 0.digits × 10^point with no leading or
// trailing zeros in digits; zero has empty digits.
type decimal struct {
	digits string
	point  int
}

// decimalOf takes the shortest decimal that round-trips to v (v >= 0), the
// same digits JavaScript prints, so that rounding acts on what users see.
func decimalOf(v float64) decimal {
	if v == 0 {
		return decimal{}
	}
	mant, exp, _ := strings.Cut(strconv.FormatFloat(v, 'e', -1, 64), "e")
	x, _ := strconv.Atoi(exp)
	digits := strings.TrimRight(strings.Replace(mant, ".", "", 1), "0")
	return decimal{digits: digits, point: x + 1}
}

// round keeps frac digits after the point, rounding half to even as F&O
// format-number requires.
func (d decimal) round(frac int) decimal {
	keep := d.point + frac
	if keep >= len(d.digits) {
		return d
	}
	if keep < 0 {
		return decimal{}
	}
	kept, rest := d.digits[:keep], d.digits[keep:]
	up := rest[0] > '5' || rest[0] == '5' && (len(rest) > 1 || keep > 0 && (kept[keep-1]-'0')%2 == 1)
	if !up {
		return decimal{digits: strings.TrimRight(kept, "0"), point: d.point}.normal()
	}
	b := []byte(kept)
	i := len(b) - 1
	for ; i >= 0 && b[i] == '9'; i-- {
		b[i] = '0'
	}
	if i < 0 {
		return decimal{digits: "1", point: d.point + 1}
	}
	b[i]++
	return decimal{digits: strings.TrimRight(string(b), "0"), point: d.point}
}

func (d decimal) normal() decimal {
	if d.digits == "" {
		return decimal{}
	}
	return d
}

// parts returns the digits before and after the point, without padding.
func (d decimal) parts() (integer, fraction string) {
	switch {
	case d.digits == "":
		return "", ""
	case d.point <= 0:
		return "", strings.Repeat("0", -d.point) + d.digits
	case d.point >= len(d.digits):
		return d.digits + strings.Repeat("0", d.point-len(d.digits)), ""
	}
	return d.digits[:d.point], d.digits[d.point:]
}
