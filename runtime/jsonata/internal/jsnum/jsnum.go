// Package jsnum renders float64 values the way JavaScript's Number does, which
// JSONata's string conversion and $string follow.
package jsnum

import (
	"math"
	"strconv"
	"strings"
)

// Format returns JavaScript's Number.prototype.toString() of f, following
// ECMA-262 Number::toString: the shortest digits that round-trip, plain
// notation for exponents -7 < n <= 21, exponent notation otherwise.
func Format(f float64) string {
	if s, special := nonFinite(f); special {
		return s
	}
	if f == 0 {
		return "0" // ECMA-262 prints -0 as "0".
	}
	sign := ""
	if f < 0 {
		sign, f = "-", -f
	}
	digits, n := decimalDigits(strconv.FormatFloat(f, 'e', -1, 64))
	return sign + layout(digits, n, 21, -6)
}

// ToPrecision returns JavaScript's Number.prototype.toPrecision(p) of f
// (ECMA-262 section 21.1.3.5): p significant digits, ties rounded away from
// zero on the exact binary value, exponent notation when the exponent is
// below -6 or at least p. JavaScript rejects p outside 1..100; here it is
// clamped into that range so that no input can fail.
func ToPrecision(f float64, p int) string {
	p = min(max(p, 1), 100)
	if s, special := nonFinite(f); special {
		return s
	}
	sign := ""
	if f < 0 {
		sign, f = "-", -f
	}
	if f == 0 {
		if p == 1 {
			return "0"
		}
		return "0." + strings.Repeat("0", p-1)
	}
	digits, n := roundHalfUp(f, p)
	e := n - 1
	if e < -6 || e >= p {
		mantissa := digits[:1]
		if p > 1 {
			mantissa += "." + digits[1:]
		}
		return sign + mantissa + exponent(e)
	}
	return sign + plain(digits, n)
}

func nonFinite(f float64) (string, bool) {
	switch {
	case math.IsNaN(f):
		return "NaN", true
	case math.IsInf(f, 1):
		return "Infinity", true
	case math.IsInf(f, -1):
		return "-Infinity", true
	}
	return "", false
}

// decimalDigits splits Go's 'e' format "d.ddde±x" into the digit string and
// the ECMA-262 exponent n, where the value is 0.digits × 10^n.
func decimalDigits(e string) (string, int) {
	mant, exp, _ := strings.Cut(e, "e")
	x, _ := strconv.Atoi(exp)
	return strings.Replace(mant, ".", "", 1), x + 1
}

// layout applies ECMA-262 Number::toString steps for digits × 10^(n-k).
func layout(digits string, n, maxPlain, minPlain int) string {
	k := len(digits)
	if n > minPlain && n <= maxPlain {
		return plain(digits, n)
	}
	mantissa := digits[:1]
	if k > 1 {
		mantissa += "." + digits[1:]
	}
	return mantissa + exponent(n-1)
}

// plain writes 0.digits × 10^n without an exponent.
func plain(digits string, n int) string {
	k := len(digits)
	switch {
	case n >= k:
		return digits + strings.Repeat("0", n-k)
	case n > 0:
		return digits[:n] + "." + digits[n:]
	default:
		return "0." + strings.Repeat("0", -n) + digits
	}
}

func exponent(e int) string {
	if e < 0 {
		return "e-" + strconv.Itoa(-e)
	}
	return "e+" + strconv.Itoa(e)
}

// roundHalfUp returns the first p significant digits of positive f rounded
// half away from zero on its exact decimal expansion, and the exponent n
// with f ≈ 0.digits × 10^n.
func roundHalfUp(f float64, p int) (string, int) {
	// 800 digits hold every float64's exact expansion.
	digits, n := decimalDigits(strconv.FormatFloat(f, 'e', 800, 64))
	kept := []byte(digits[:p])
	if digits[p] >= '5' {
		i := p - 1
		for ; i >= 0 && kept[i] == '9'; i-- {
			kept[i] = '0'
		}
		if i < 0 {
			return "1" + string(kept[:p-1]), n + 1
		}
		kept[i]++
	}
	return string(kept), n
}
