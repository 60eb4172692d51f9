package picture

import (
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// isoTimestamp is the ISO 8601 form $toMillis reads without a picture:
// a year, optionally month, day, time with optional seconds and fraction,
// and an optional zone.
var isoTimestamp = regexp.MustCompile(`^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?)?)?$`)

// now is the clock that fills components a picture leaves out; tests pin it.
var now = time.Now

// ParseDateTime implements $toMillis(s, pic): s read by the picture ("" for
// ISO 8601). ok is false, with no error, when s does not match the picture.
func ParseDateTime(s, pic string) (ms int64, ok bool, err error) {
	if pic == "" {
		return parseISO(s)
	}
	parts, err := parseDatePicture(pic)
	if err != nil {
		return 0, false, err
	}
	plan, err := planComponents(parts)
	if err != nil {
		return 0, false, err
	}
	if plan == nil {
		return 0, false, nil
	}
	values, ok := matchDate(parts, s)
	if !ok {
		return 0, false, nil
	}
	return plan.instant(values), true, nil
}

func parseISO(s string) (int64, bool, error) {
	m := isoTimestamp.FindStringSubmatch(s)
	if m == nil {
		return 0, false, errorf("D3110", "the timestamp %q is not in ISO 8601 format", s)
	}
	num := func(i, def int) int {
		if m[i] == "" {
			return def
		}
		n, _ := strconv.Atoi(m[i])
		return n
	}
	millis := 0
	if frac := m[7]; frac != "" {
		millis, _ = strconv.Atoi((frac + "00")[:3])
	}
	offset := 0
	if zone := m[8]; zone != "" && zone != "Z" {
		offset, _ = scanOffsetDigits(zone)
	}
	year, month, day := num(1, 0), num(2, 1), num(3, 1)
	hour, minute, second := num(4, 0), num(5, 0), num(6, 0)
	if month < 1 || month > 12 || day < 1 || day > daysIn(year, month) || hour > 24 ||
		minute > 59 || second > 59 || hour == 24 && (minute > 0 || second > 0 || millis > 0) {
		return 0, false, errorf("D3110", "the timestamp %q is not a valid date and time", s)
	}
	ms := utcMillis(year, month, day, hour, minute, second, millis)
	return ms - int64(offset)*60000, true, nil
}

func daysIn(year, month int) int {
	return time.Date(year, time.Month(month)+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// datePlan says which calendar fields come from the string, which from the
// current date (those above the first one given) and which are minimal.
type datePlan struct {
	fromNow   map[rune]bool
	dayOfYear bool
}

// planComponents checks that the picture gives a contiguous run of date
// fields (year, month, day or year, day-of-year; then hour, minute, second,
// fraction), as JSONata requires to read a timestamp (D3136). A picture
// with no markers reads nothing: plan is nil.
func planComponents(parts []part) (*datePlan, error) {
	present := map[rune]bool{}
	for _, p := range parts {
		if p.marker != nil {
			c := p.marker.component
			if c == 'h' {
				c = 'H'
			}
			present[c] = true
		}
	}
	if len(present) == 0 {
		return nil, nil
	}
	missing := errorf("D3136", "the date/time picture is missing specifiers required to parse the timestamp")
	if present['X'] || present['W'] || present['x'] || present['w'] {
		return nil, missing
	}
	plan := &datePlan{fromNow: map[rune]bool{}, dayOfYear: present['d']}
	order := []rune("YMDHmsf")
	if plan.dayOfYear {
		order = []rune("YdHmsf")
	}
	first := -1
	for i, c := range order {
		switch {
		case present[c] && first >= 0 && !present[order[i-1]]:
			return nil, missing
		case present[c] && first < 0:
			first = i
		}
	}
	for i := 0; i < first; i++ {
		plan.fromNow[order[i]] = true
	}
	return plan, nil
}

// dateValues holds what matchDate read.
type dateValues struct {
	fields map[rune]int
	pm     *bool
	offset int
}

func (p *datePlan) instant(v dateValues) int64 {
	current := now().UTC()
	field := func(c rune, minimum int, fromNow func() int) int {
		if n, ok := v.fields[c]; ok {
			return n
		}
		if p.fromNow[c] {
			return fromNow()
		}
		return minimum
	}
	year := field('Y', 0, current.Year)
	hour := field('H', 0, current.Hour)
	if h, ok := v.fields['h']; ok {
		hour = h % 12
		if v.pm != nil && *v.pm {
			hour += 12
		}
	}
	minute := field('m', 0, current.Minute)
	second := field('s', 0, current.Second)
	millis := field('f', 0, func() int { return current.Nanosecond() / int(time.Millisecond) })
	month, day := 1, field('d', 1, current.YearDay)
	if !p.dayOfYear {
		month = field('M', 1, func() int { return int(current.Month()) })
		day = field('D', 1, current.Day)
	}
	return utcMillis(year, month, day, hour, minute, second, millis) - int64(v.offset)*60000
}

// matchDate reads s by the picture parts; literals must match exactly.
func matchDate(parts []part, s string) (dateValues, bool) {
	v := dateValues{fields: map[rune]int{}}
	rest := s
	for i, p := range parts {
		if p.marker == nil {
			if !strings.HasPrefix(rest, p.literal) {
				return v, false
			}
			rest = rest[len(p.literal):]
			continue
		}
		adjacent := i+1 < len(parts) && parts[i+1].marker != nil
		var ok bool
		if rest, ok = v.read(p.marker, rest, adjacent); !ok {
			return v, false
		}
	}
	return v, rest == ""
}

// read consumes one marker's text from the start of s.
func (v *dateValues) read(m *marker, s string, adjacent bool) (string, bool) {
	switch {
	case m.component == 'Z' || m.component == 'z':
		return v.readOffset(m, s)
	case m.component == 'P':
		lower := strings.ToLower(s)
		for _, ampm := range []string{"am", "pm"} {
			if strings.HasPrefix(lower, ampm) {
				pm := ampm == "pm"
				v.pm = &pm
				return s[2:], true
			}
		}
		return s, false
	case m.component == 'C' || m.component == 'E':
		return strings.TrimLeftFunc(s, unicode.IsLetter), true
	case m.component == 'f':
		return v.readFraction(m, s, adjacent)
	case nameStyles[m.presentation]:
		names := monthNames
		if m.component == 'F' {
			names = weekdayNames
		}
		n, rest, ok := readName(names, s, m.maxWidth)
		v.fields[m.component] = n
		return rest, ok
	}
	f, err := analysePrimary(m.presentation)
	if err != nil {
		return s, false
	}
	f.ordinal = m.modifier == "o"
	f.applyWidth(m)
	if adjacent && f.maxDigits == 0 {
		f.maxDigits = countDigits(m.presentation) + strings.Count(m.presentation, "#")
	}
	n, rest, ok := f.scan(s)
	v.fields[m.component] = int(n)
	return rest, ok
}

// readName matches a full name or, when the width is limited, its
// abbreviation, ignoring case; the value is the name's 1-based index.
func readName(names []string, s string, maxWidth int) (int, string, bool) {
	lower := strings.ToLower(s)
	for i, name := range names {
		name = strings.ToLower(name)
		if strings.HasPrefix(lower, name) {
			return i + 1, s[len(name):], true
		}
	}
	for i, name := range names {
		abbrev := strings.ToLower(name[:min(len(name), max(maxWidth, 3))])
		if strings.HasPrefix(lower, abbrev) {
			return i + 1, s[len(abbrev):], true
		}
	}
	return 0, s, false
}

// readFraction reads the digits of a decimal fraction of a second into
// milliseconds, truncating further digits.
func (v *dateValues) readFraction(m *marker, s string, adjacent bool) (string, bool) {
	limit := len(s)
	if adjacent {
		limit = max(countDigits(m.presentation), m.maxWidth)
	}
	end := 0
	for end < len(s) && end < limit && s[end] >= '0' && s[end] <= '9' {
		end++
	}
	if end == 0 {
		return s, false
	}
	v.fields['f'], _ = strconv.Atoi((s[:end] + "00")[:3])
	return s[end:], true
}

func (v *dateValues) readOffset(m *marker, s string) (string, bool) {
	if m.component == 'z' {
		if len(s) < 3 || !strings.EqualFold(s[:3], "GMT") {
			return s, false
		}
		s = s[3:]
	}
	if strings.HasPrefix(s, "Z") {
		return s[1:], true
	}
	end := 0
	for end < len(s) {
		r, size := utf8.DecodeRuneInString(s[end:])
		if !(unicode.IsDigit(r) || r == ':' || end == 0 && (r == '+' || r == '-')) {
			break
		}
		end += size
	}
	offset, ok := scanOffsetDigits(s[:end])
	v.offset = offset
	return s[end:], ok
}

// scanOffsetDigits reads ±h, ±hh, ±hhmm, ±h:mm or ±hh:mm into minutes.
func scanOffsetDigits(s string) (int, bool) {
	if len(s) < 2 || (s[0] != '+' && s[0] != '-') {
		return 0, false
	}
	sign := 1
	if s[0] == '-' {
		sign = -1
	}
	hours, minutes, colon := strings.Cut(s[1:], ":")
	if !colon && len(hours) > 2 {
		hours, minutes = hours[:len(hours)-2], hours[len(hours)-2:]
	}
	h, err := strconv.Atoi(hours)
	if err != nil || len(hours) > 2 {
		return 0, false
	}
	mins := 0
	if minutes != "" || colon {
		if mins, err = strconv.Atoi(minutes); err != nil || len(minutes) != 2 {
			return 0, false
		}
	}
	return sign * (h*60 + mins), true
}
