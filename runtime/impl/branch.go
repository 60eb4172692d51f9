package impl

import (
	"strconv"
	"strings"
)

// The numeric branch operators of task chains: an eval string that is not a
// number matches none of them.

// NumberGreater reports whether eval is a number greater than n.
func NumberGreater(eval string, n float64) bool {
	v, ok := number(eval)
	return ok && v > n
}

// NumberLess reports whether eval is a number less than n.
func NumberLess(eval string, n float64) bool {
	v, ok := number(eval)
	return ok && v < n
}

// NumberInRange reports whether eval is a number in [lo, hi].
func NumberInRange(eval string, lo, hi float64) bool {
	v, ok := number(eval)
	return ok && v >= lo && v <= hi
}

func number(s string) (float64, bool) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	return v, err == nil
}
