package picture

import (
	"errors"
	"math"
	"testing"
)

// Examples of F&O 3.1 section 4.6.1 (fn:format-integer) and cases past the
// suite: negative numbers, grouping with ';', non-finite values.
func TestFormatInteger(t *testing.T) {
	for _, c := range []struct {
		v    float64
		pic  string
		want string
	}{
		{123, "0000", "0123"},
		{123, "w", "one hundred and twenty-three"},
		{21, "1;o", "21st"},
		{11, "1;o", "11th"},
		{112, "1;o", "112th"},
		{14, "Ww;o", "Fourteenth"},
		{7, "a", "g"},
		{57, "I", "LVII"},
		{1234, "#;##0;", "1;234"},
		{-12, "w", "-twelve"},
		{0, "w", "zero"},
		{0, "A", ""},
		{40, "w;o", "fortieth"},
		{1e6, "#,##0", "1,000,000"},
		{1e6, "i", "1000000"},
		{math.Inf(1), "w", "+Inf"},
	} {
		got, err := FormatInteger(c.v, c.pic)
		if err != nil || got != c.want {
			t.Errorf("FormatInteger(%v, %q) = %q, %v; want %q", c.v, c.pic, got, err, c.want)
		}
	}
}

func TestParseInteger(t *testing.T) {
	for _, c := range []struct {
		s, pic string
		want   float64
	}{
		{"0123", "0000", 123},
		{"one hundred and twenty-three", "w", 123},
		{"Fourteenth", "Ww;o", 14},
		{"1;234", "#;##0;", 1234},
		{"g", "a", 7},
		{"LVII", "I", 57},
		{"-0012", "0000", -12},
		{"-twelve", "w", -12},
	} {
		got, err := ParseInteger(c.s, c.pic)
		if err != nil || got != c.want {
			t.Errorf("ParseInteger(%q, %q) = %v, %v; want %v", c.s, c.pic, got, err, c.want)
		}
	}
	for _, s := range []string{"", "12x", "x12", "1,,2"} {
		if _, err := ParseInteger(s, "#,##0"); !errors.Is(err, errNoMatch) {
			t.Errorf("ParseInteger(%q, \"#,##0\") = %v, want errNoMatch", s, err)
		}
	}
}

// Words must survive a round trip for every kind of number they name.
func TestWordsRoundTrip(t *testing.T) {
	for _, v := range []float64{1, 13, 40, 99, 101, 110, 999, 1001, 1100, 20000, 123456789, 1e12 + 7, 9007199254740991} {
		for _, pic := range []string{"w", "W;o", "Ww"} {
			s, err := FormatInteger(v, pic)
			if err != nil {
				t.Fatal(err)
			}
			back, err := ParseInteger(s, pic)
			if err != nil || back != v {
				t.Errorf("%v as %q is %q, which reads back as %v, %v", v, pic, s, back, err)
			}
		}
	}
}
