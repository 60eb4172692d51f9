package jsnum

import (
	"math"
	"testing"
)

// Expected strings follow ECMA-262 Number::toString (section 6.1.6.1.20) and
// Number.prototype.toPrecision (section 21.1.3.5), as JavaScript engines print.
func TestFormat(t *testing.T) {
	for _, c := range []struct {
		in   float64
		want string
	}{
		{0, "0"}, {math.Copysign(0, -1), "0"}, {1, "1"}, {-1, "-1"},
		{0.1, "0.1"}, {0.30000000000000004, "0.30000000000000004"}, {123.456, "123.456"},
		{1e21, "1e+21"}, {1e20, "100000000000000000000"}, {123e20, "1.23e+22"},
		{1e-7, "1e-7"}, {1.5e-7, "1.5e-7"}, {1e-6, "0.000001"}, {0.000123, "0.000123"},
		{math.MaxFloat64, "1.7976931348623157e+308"}, {5e-324, "5e-324"},
		{math.NaN(), "NaN"}, {math.Inf(1), "Infinity"}, {math.Inf(-1), "-Infinity"},
		{-2.5e-10, "-2.5e-10"}, {9007199254740993, "9007199254740992"},
	} {
		if got := Format(c.in); got != c.want {
			t.Errorf("Format(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestToPrecision(t *testing.T) {
	for _, c := range []struct {
		in   float64
		p    int
		want string
	}{
		{123.456, 4, "123.5"}, {0.000123, 2, "0.00012"}, {123456, 2, "1.2e+5"},
		{2.5, 1, "3"}, {0.5, 1, "0.5"}, {1.45, 2, "1.4"}, // 1.45 is below the tie in binary
		{0, 3, "0.00"}, {0, 1, "0"}, {-1.5, 1, "-2"}, {99.99, 3, "100"},
		{999.9, 3, "1.00e+3"}, {1e-7, 1, "1e-7"}, {1.23e-7, 3, "1.23e-7"},
		{1e21, 3, "1.00e+21"}, {1, 15, "1.00000000000000"}, {math.NaN(), 3, "NaN"},
		{0.1, 17, "0.10000000000000001"}, {12, 2, "12"}, {123, 2, "1.2e+2"},
	} {
		if got := ToPrecision(c.in, c.p); got != c.want {
			t.Errorf("ToPrecision(%v, %d) = %q, want %q", c.in, c.p, got, c.want)
		}
	}
}
