// Package jsnum renders float64 values the way JavaScript's Number does, which
// JSONata's string conversion and $string follow (ECMA-262 Number::toString).
package jsnum

import "strconv"

// Format returns JavaScript's Number.prototype.toString() of f.
func Format(f float64) string {
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// ToPrecision returns JavaScript's Number.prototype.toPrecision(p) of f.
func ToPrecision(f float64, p int) string {
	return strconv.FormatFloat(f, 'g', p, 64)
}
