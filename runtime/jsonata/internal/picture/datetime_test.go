package picture

import (
	"testing"
	"time"
)

// Examples after F&O 3.1 section 9.8.4 (fn:format-dateTime) for
// 2002-12-31T15:58:45.762 at -05:00, and cases past the suite.
func TestFormatDateTime(t *testing.T) {
	ms := utcMillis(2002, 12, 31, 20, 58, 45, 762) // 15:58:45.762-05:00
	for _, c := range []struct{ pic, tz, want string }{
		{"[Y0001]-[M01]-[D01]", "-0500", "2002-12-31"},
		{"[M]-[D]-[Y]", "-0500", "12-31-2002"},
		{"[D]-[M]-[Y]", "-0500", "31-12-2002"},
		{"[D1] [MI] [Y]", "-0500", "31 XII 2002"},
		{"[D1o] [MNn], [Y]", "-0500", "31st December, 2002"},
		{"[D01] [MN,*-3] [Y0001]", "-0500", "31 DEC 2002"},
		{"[MNn] [D], [Y]", "-0500", "December 31, 2002"},
		{"[D] [MNn], [Y]", "-0500", "31 December, 2002"},
		{"[[[Y0001]-[M01]-[D01]]]", "-0500", "[2002-12-31]"},
		{"[YWw]", "-0500", "Two Thousand and Two"},
		{"[h].[m01][Pn] on [FNn], [D1o] [MNn]", "-0500", "3.58pm on Tuesday, 31st December"},
		{"[H01]:[m01]:[s01].[f001]", "-0500", "15:58:45.762"},
		{"[H01]:[m01]:[s01].[f1]", "-0500", "15:58:45.7"},
		{"[ZZ]", "-0500", "R"},
		{"[ZZ]", "", "Z"},
		{"[Z]", "+0530", "+05:30"},
		{"[Z01:01]", "", "+00:00"},
		{"", "", "2002-12-31T20:58:45.762Z"},
		{"[Y0001,64]", "", "0000000000000000000000000000000000000000000000000000000000002002"},
		// function-fromMillis.json formatDateTime.json: $fromMillis($, (), tz).
		{"", "-0500", "2002-12-31T15:58:45.762-05:00"},
		{"", "0000", "2002-12-31T20:58:45.762Z"},
	} {
		got, err := FormatDateTime(ms, c.pic, c.tz)
		if err != nil || got != c.want {
			t.Errorf("FormatDateTime(%q, %q) = %q, %v; want %q", c.pic, c.tz, got, err, c.want)
		}
	}
}

func TestFormatDateTimeErrors(t *testing.T) {
	for _, c := range []struct{ pic, tz, code string }{
		{"[q]", "", "D3132"},
		{"[]", "", "D3132"},
		{"[DN]", "", "D3133"},
		{"[Z000001]", "", "D3134"},
		{"[Y", "", "D3135"},
		{"[Dα]", "", "D3130"},
	} {
		_, err := FormatDateTime(0, c.pic, c.tz)
		if pe, ok := err.(*Error); !ok || pe.Code != c.code {
			t.Errorf("FormatDateTime(%q) error = %v, want %s", c.pic, err, c.code)
		}
	}
	for _, s := range []string{"2018-02-30", "2018-13-01", "2018-01-01T25:00:00Z", "2018-01-01T10:60Z", "2018-1-1"} {
		if _, _, err := ParseDateTime(s, ""); err == nil || err.(*Error).Code != "D3110" {
			t.Errorf("ParseDateTime(%q) error = %v, want D3110", s, err)
		}
	}
	if _, err := FormatDateTime(0, "", "5 hours"); err == nil {
		t.Error("a malformed timezone was accepted")
	}
}

func TestParseDateTime(t *testing.T) {
	now = func() time.Time { return time.Date(2030, 6, 15, 10, 20, 30, 0, time.UTC) }
	defer func() { now = time.Now }()
	for _, c := range []struct {
		s, pic string
		want   int64
	}{
		{"2002-12-31T15:58:45.762-05:00", "", utcMillis(2002, 12, 31, 20, 58, 45, 762)},
		{"2002-12-31T15:58-0500", "", utcMillis(2002, 12, 31, 20, 58, 0, 0)},
		{"31 DEC 2002", "[D01] [MN,*-3] [Y0001]", utcMillis(2002, 12, 31, 0, 0, 0, 0)},
		{"3.58pm", "[h].[m01][Pn]", utcMillis(2030, 6, 15, 15, 58, 0, 0)},
		{"12-31", "[M]-[D]", utcMillis(2030, 12, 31, 0, 0, 0, 0)},
		{"2002 +05:30", "[Y] [Z]", utcMillis(2002, 1, 1, 0, 0, 0, 0) - 330*60000},
		{"2002 Z", "[Y] [Z01:01t]", utcMillis(2002, 1, 1, 0, 0, 0, 0)},
	} {
		got, ok, err := ParseDateTime(c.s, c.pic)
		if err != nil || !ok || got != c.want {
			t.Errorf("ParseDateTime(%q, %q) = %v, %v, %v; want %v", c.s, c.pic, got, ok, err, c.want)
		}
	}
	for _, c := range []struct{ s, pic string }{
		{"2002-12-31", "[Y]/[M]/[D]"},
		{"2002-12-31x", "[Y]-[M]-[D]"},
		{"Hello", "Hello"},
		{"Smarch 2002", "[MNn] [Y]"},
	} {
		if _, ok, err := ParseDateTime(c.s, c.pic); ok || err != nil {
			t.Errorf("ParseDateTime(%q, %q) = %v, %v; want undefined", c.s, c.pic, ok, err)
		}
	}
}

// Formatting then parsing with the same picture returns the instant.
func TestDateTimeRoundTrip(t *testing.T) {
	// Pictures without a timezone read back only what UTC wrote.
	pics := map[string]string{
		"": "+0130", "[Y0001]-[M01]-[D01]T[H01]:[m01]:[s01].[f001][Z0101]": "+0130",
		"[FNn], [D1o] [MNn] [Y] [h]:[m01]:[s01].[f001] [PN]": "",
		"[Yw] [d001] [H]:[m]:[s].[f001]":                     "",
		"[YI]-[Mi]-[Da] [H]:[m]:[s].[f001] [z]":              "-0945",
	}
	for _, ms := range []int64{0, 951782400000, 1521801216617, -2777932800000, 4102444799999} {
		for pic, tz := range pics {
			s, err := FormatDateTime(ms, pic, tz)
			if err != nil {
				t.Fatal(err)
			}
			back, ok, err := ParseDateTime(s, pic)
			if err != nil || !ok || back != ms {
				t.Errorf("%d by %q is %q, which reads back as %d, %v, %v", ms, pic, s, back, ok, err)
			}
		}
	}
}
