package picture

import (
	"errors"
	"math"
	"testing"
	"time"
)

// Examples of F&O 3.1 section 4.7.2 (fn:format-number) and the rules of
// 4.7.4-4.7.5 the suite does not reach: rounding half to even, infinities,
// the negative sub-picture.
func TestFormatNumber(t *testing.T) {
	for _, c := range []struct {
		v    float64
		pic  string
		want string
	}{
		{12345.6, "#,###.00", "12,345.60"},
		{1234.5678, "#,##0.00", "1,234.57"},
		{0.125, "0.00", "0.12"},
		{0.135, "0.00", "0.14"},
		{2.5, "0", "2"},
		{3.5, "0", "4"},
		{9.99, "0.0", "10.0"},
		{9.99, "0.0e0", "1.0e1"},
		{0.0999, "#.0e0", "0.1e0"},
		{-1, "0;(0)", "(1)"},
		{1, "0;(0)", "1"},
		{math.Inf(1), "#,##0", "Infinity"},
		{math.Inf(-1), "#,##0", "-Infinity"},
		{math.NaN(), "#,##0", "NaN"},
		{math.Copysign(0, -1), "0.0", "0.0"},
		{0.5, "#", "0"},
		{1234567, "#,##0", "1,234,567"},
		{1e300, "0.0e0", "1.0e300"},
		{5e-324, "0.0e0", "5.0e-324"}, // digits of the shortest round-trip form
		{0.001, "0.0", "0.0"},
		{12, "#0 apples", "12 apples"},
	} {
		got, err := FormatNumber(c.v, c.pic, DefaultDecimalFormat())
		if err != nil || got != c.want {
			t.Errorf("FormatNumber(%v, %q) = %q, %v; want %q", c.v, c.pic, got, err, c.want)
		}
	}
}

func TestFormatNumberDecimalFormat(t *testing.T) {
	f := DefaultDecimalFormat()
	f.DecimalSeparator, f.GroupingSeparator, f.MinusSign = ",", ".", "−"
	got, err := FormatNumber(-1234567.891, "#.##0,00", f)
	if want := "−1.234.567,89"; err != nil || got != want {
		t.Errorf("got %q, %v; want %q", got, err, want)
	}
}

// Pictures whose loops depend on the value must end at once
// ($formatNumber(0, '0e0') in the suite once hung other implementations).
func TestFormatNumberTerminates(t *testing.T) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, v := range []float64{0, math.SmallestNonzeroFloat64, math.MaxFloat64, -math.MaxFloat64} {
			for _, pic := range []string{"0e0", "#.e0", ".0e0", "000.000e000", "#,##0.###"} {
				if _, err := FormatNumber(v, pic, DefaultDecimalFormat()); err != nil {
					t.Errorf("FormatNumber(%v, %q): %v", v, pic, err)
				}
			}
		}
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("FormatNumber did not return")
	}
}

func TestFormatNumberErrorIsTyped(t *testing.T) {
	_, err := FormatNumber(1, "#.0.0", DefaultDecimalFormat())
	var pe *Error
	if !errors.As(err, &pe) || pe.Code != "D3081" || pe.Error() == "" {
		t.Errorf("got %v, want a D3081 *Error", err)
	}
}
