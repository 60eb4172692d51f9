package picture

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// isoPicture is the picture $fromMillis uses when it is given none.
const isoPicture = "[Y0001]-[M01]-[D01]T[H01]:[m01]:[s01].[f001][Z01:01t]"

// marker is one variable part of a date-time picture (F&O 3.1 9.8.4.1):
// [component presentation modifier, min-max].
type marker struct {
	component    rune
	presentation string // first presentation modifier, the default when absent
	explicit     bool   // whether the picture gave the presentation
	modifier     string // second presentation modifier: o, c, t
	minWidth     int    // 0 when absent
	maxWidth     int    // 0 when absent or *
	hasWidth     bool
}

// part is a literal or a marker of a date-time picture.
type part struct {
	literal string
	marker  *marker
}

var defaultPresentation = map[rune]string{
	'Y': "1", 'M': "1", 'D': "1", 'd': "1", 'F': "n", 'W': "1", 'w': "1", 'X': "1",
	'x': "1", 'H': "1", 'h': "1", 'P': "n", 'm': "01", 's': "01", 'f': "1",
	'Z': "01:01", 'z': "01:01", 'C': "N", 'E': "N", // the ISO calendar writes "ISO"
}

// nameComponents may be presented by name (n, N, Nn).
const nameComponents = "MxFPCE"

var nameStyles = map[string]bool{"n": true, "N": true, "Nn": true}

// parseDatePicture splits the picture into literals and markers; brackets
// are matched over the whole picture before any marker is analysed, so an
// unclosed one is reported first (D3135).
func parseDatePicture(pic string) ([]part, error) {
	raw, err := splitDatePicture(pic)
	if err != nil {
		return nil, err
	}
	for i, p := range raw {
		if p.marker == nil {
			continue
		}
		m, err := parseMarker(p.literal)
		if err != nil {
			return nil, err
		}
		raw[i] = part{marker: m}
	}
	return raw, nil
}

// splitDatePicture returns literal parts and marker parts whose literal
// holds the marker's unparsed content; [[ and ]] stand for [ and ].
func splitDatePicture(pic string) ([]part, error) {
	var parts []part
	var lit strings.Builder
	for i := 0; i < len(pic); i++ {
		c := pic[i]
		switch {
		case (c == '[' || c == ']') && i+1 < len(pic) && pic[i+1] == c:
			lit.WriteByte(c)
			i++
		case c == '[':
			end := strings.IndexByte(pic[i:], ']')
			if end < 0 {
				return nil, errorf("D3135", "no matching closing bracket ']' in the date/time picture %q", pic)
			}
			if lit.Len() > 0 {
				parts = append(parts, part{literal: lit.String()})
				lit.Reset()
			}
			parts = append(parts, part{literal: pic[i+1 : i+end], marker: &marker{}})
			i += end
		default:
			lit.WriteByte(c)
		}
	}
	if lit.Len() > 0 {
		parts = append(parts, part{literal: lit.String()})
	}
	return parts, nil
}

// parseMarker reads a marker's content; whitespace inside it is ignored.
func parseMarker(content string) (*marker, error) {
	content = strings.Join(strings.FieldsFunc(content, unicode.IsSpace), "")
	if content == "" {
		return nil, errorf("D3132", "empty component specifier in date/time picture")
	}
	m := &marker{component: rune(content[0])}
	def, known := defaultPresentation[m.component]
	if !known {
		return nil, errorf("D3132", "unknown component specifier %q in date/time picture", content[:1])
	}
	rest := content[1:]
	if i := strings.LastIndexByte(rest, ','); i >= 0 {
		if min, max, ok := parseWidth(rest[i+1:]); ok {
			m.minWidth, m.maxWidth, m.hasWidth = min, max, true
			rest = rest[:i]
		}
	}
	if n := len(rest); n > 1 && strings.ContainsRune("oct", rune(rest[n-1])) {
		rest, m.modifier = rest[:n-1], rest[n-1:]
	}
	m.presentation, m.explicit = rest, rest != ""
	if !m.explicit {
		m.presentation = def
	}
	if nameStyles[m.presentation] && !strings.ContainsRune(nameComponents, m.component) {
		return nil, errorf("D3133", "the name modifier can only be applied to months and days, not %q", string(m.component))
	}
	if m.component == 'Z' || m.component == 'z' {
		if digits := countDigits(m.presentation); digits > 4 {
			return nil, errorf("D3134", "the timezone format %q has more than four digits", m.presentation)
		}
	}
	return m, nil
}

// parseWidth reads "min", "min-max", with * for an absent bound.
func parseWidth(s string) (int, int, bool) {
	minText, maxText, _ := strings.Cut(s, "-")
	min, ok := widthBound(minText)
	if !ok {
		return 0, 0, false
	}
	max := 0
	if maxText != "" {
		if max, ok = widthBound(maxText); !ok {
			return 0, 0, false
		}
	}
	return min, max, true
}

// maxWidth bounds width modifiers: no component needs more, and a huge
// one would only allocate padding.
const maxWidth = 64

func widthBound(s string) (int, bool) {
	if s == "*" {
		return 0, true
	}
	n, err := strconv.Atoi(s)
	return min(n, maxWidth), err == nil && n >= 0
}

func countDigits(s string) int {
	n := 0
	for _, r := range s {
		if unicode.IsDigit(r) {
			n++
		}
	}
	return n
}

// FormatDateTime implements $fromMillis(ms, pic, tz): the instant ms
// (milliseconds since the Unix epoch) in the timezone tz ("±HHMM", "" for
// UTC) by an F&O 3.1 9.8 picture ("" for ISO 8601).
func FormatDateTime(ms int64, pic, tz string) (string, error) {
	offset, err := parseOffsetArg(tz)
	if err != nil {
		return "", err
	}
	if pic == "" {
		pic = isoPicture
	}
	parts, err := parseDatePicture(pic)
	if err != nil {
		return "", err
	}
	t := time.UnixMilli(ms).UTC().Add(time.Duration(offset) * time.Minute)
	var b strings.Builder
	for _, p := range parts {
		if p.marker == nil {
			b.WriteString(p.literal)
			continue
		}
		s, err := formatComponent(p.marker, t, offset)
		if err != nil {
			return "", err
		}
		b.WriteString(s)
	}
	return b.String(), nil
}

// parseOffsetArg reads $fromMillis's timezone argument: [+-]HHMM.
func parseOffsetArg(tz string) (int, error) {
	if tz == "" {
		return 0, nil
	}
	sign, digits := 1, tz
	switch tz[0] {
	case '-':
		sign, digits = -1, tz[1:]
	case '+':
		digits = tz[1:]
	}
	n, err := strconv.Atoi(digits)
	if len(digits) != 4 || err != nil {
		return 0, fmt.Errorf("the timezone %q is not of the form ±HHMM", tz)
	}
	return sign * (n/100*60 + n%100), nil
}

func formatComponent(m *marker, t time.Time, offset int) (string, error) {
	switch m.component {
	case 'Z', 'z':
		return formatTimezone(m, offset), nil
	case 'C', 'E':
		return formatName("ISO", m), nil
	case 'P':
		if t.Hour() < 12 {
			return formatName("am", m), nil
		}
		return formatName("pm", m), nil
	case 'f':
		return formatFraction(m, t.Nanosecond()/int(time.Millisecond))
	}
	v := componentValue(m.component, t)
	if nameStyles[m.presentation] {
		if m.component == 'F' {
			return formatName(weekdayNames[v-1], m), nil
		}
		return formatName(monthNames[v-1], m), nil
	}
	f, err := analysePrimary(m.presentation)
	if err != nil {
		return "", err
	}
	f.ordinal = m.modifier == "o"
	f.applyWidth(m)
	return f.format(float64(v)), nil
}

// applyWidth lets the width modifier override the digit pattern's width; a
// year with a width but no presentation of its own is cut to that width,
// as [Y,2] gives "18".
func (f *integerFormat) applyWidth(m *marker) {
	if m.hasWidth {
		f.minDigits = max(m.minWidth, 1)
		f.maxDigits = m.maxWidth
		if m.component == 'Y' && !m.explicit && m.maxWidth == 0 {
			f.maxDigits = m.minWidth
		}
	}
}

var (
	monthNames = []string{"January", "February", "March", "April", "May", "June", "July",
		"August", "September", "October", "November", "December"}
	weekdayNames = []string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"}
)

func formatName(name string, m *marker) string {
	switch m.presentation {
	case "N":
		name = strings.ToUpper(name)
	case "n":
		name = strings.ToLower(name)
	}
	if m.maxWidth > 0 && len(name) > m.maxWidth {
		name = name[:m.maxWidth]
	}
	return name
}

// componentValue is the number a component stands for; weeks follow ISO
// 8601: weeks start on Monday and belong to the year (X, W) or month
// (x, w) of their Thursday.
func componentValue(c rune, t time.Time) int {
	switch c {
	case 'Y':
		return t.Year()
	case 'M':
		return int(t.Month())
	case 'D':
		return t.Day()
	case 'd':
		return t.YearDay()
	case 'F':
		return isoWeekday(t)
	case 'W':
		_, w := t.ISOWeek()
		return w
	case 'X':
		y, _ := t.ISOWeek()
		return y
	case 'w':
		return (weekThursday(t).Day()-1)/7 + 1
	case 'x':
		return int(weekThursday(t).Month())
	case 'H':
		return t.Hour()
	case 'h':
		if h := t.Hour() % 12; h != 0 {
			return h
		}
		return 12
	case 'm':
		return t.Minute()
	case 's':
		return t.Second()
	}
	return 0
}

func isoWeekday(t time.Time) int {
	if wd := int(t.Weekday()); wd != 0 {
		return wd
	}
	return 7
}

func weekThursday(t time.Time) time.Time {
	return t.AddDate(0, 0, 4-isoWeekday(t))
}

// formatFraction writes milliseconds as the digits of a decimal fraction of
// a second, as many as the pattern or width asks, truncated.
func formatFraction(m *marker, millis int) (string, error) {
	f, err := analysePrimary(m.presentation)
	if err != nil {
		return "", err
	}
	if f.style != decimalStyle {
		return f.format(float64(millis)), nil
	}
	n := countDigits(m.presentation)
	if m.hasWidth {
		n = max(m.minWidth, m.maxWidth, 1)
	}
	digits := fmt.Sprintf("%03d", millis)
	if n < 3 {
		digits = digits[:n]
	} else {
		digits += strings.Repeat("0", n-3)
	}
	return mapDigits(digits, f.zero), nil
}

// formatTimezone follows F&O 3.1 9.8.4.6: one or two digits give hours
// (and minutes only when there are some), a separator gives hours and
// minutes always, three or four digits give hhmm; t writes Z for UTC.
func formatTimezone(m *marker, offset int) string {
	if m.modifier == "t" && offset == 0 {
		return "Z"
	}
	if m.presentation == "Z" {
		return militaryZone(offset)
	}
	prefix := ""
	if m.component == 'z' {
		prefix = "GMT"
	}
	sign := "+"
	if offset < 0 {
		sign, offset = "-", -offset
	}
	hours, minutes := offset/60, offset%60
	digits := countDigits(m.presentation)
	sep := strings.TrimFunc(m.presentation, unicode.IsDigit)
	hourWidth := digits
	switch {
	case sep != "":
		before, _, _ := strings.Cut(m.presentation, sep)
		hourWidth = countDigits(before)
	case digits > 2:
		hourWidth = digits - 2
	}
	s := prefix + sign + padLeft(strconv.Itoa(hours), hourWidth)
	switch {
	case sep != "" || digits > 2:
		s += sep + padLeft(strconv.Itoa(minutes), 2)
	case minutes != 0:
		s += ":" + padLeft(strconv.Itoa(minutes), 2)
	}
	return s
}

func padLeft(s string, width int) string {
	return strings.Repeat("0", max(0, width-len(s))) + s
}

// utcMillis is the instant of a UTC calendar date and time; out-of-range
// fields carry over as in JavaScript's Date.UTC.
func utcMillis(year, month, day, hour, minute, second, millis int) int64 {
	t := time.Date(year, time.Month(month), day, hour, minute, second, millis*int(time.Millisecond), time.UTC)
	return t.UnixMilli()
}

// militaryZone is the [ZZ] presentation: a letter per whole-hour offset
// (Z for UTC, A..M east skipping J, N..Y west); other offsets fall back to
// the hours-and-minutes form.
func militaryZone(offset int) string {
	const east, west = "ABCDEFGHIKLM", "NOPQRSTUVWXY"
	hours := offset / 60
	switch {
	case offset%60 != 0 || hours < -12 || hours > 12:
		return formatTimezone(&marker{component: 'Z', presentation: "01:01"}, offset)
	case hours == 0:
		return "Z"
	case hours > 0:
		return east[hours-1 : hours]
	}
	return west[-hours-1 : -hours]
}
