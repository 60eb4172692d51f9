package picture

import (
	"errors"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// errNoMatch is returned by ParseInteger when the string does not match the
// picture; JSONata's $parseInteger then has an undefined result.
var errNoMatch = errors.New("the string does not match the picture")

type integerStyle int

const (
	decimalStyle integerStyle = iota
	alphaLower
	alphaUpper
	romanLower
	romanUpper
	wordsLower
	wordsUpper
	wordsTitle
)

// integerFormat is an analysed format-integer primary token with its
// modifier (F&O 3.1 section 4.6).
type integerFormat struct {
	style      integerStyle
	zero       rune
	minDigits  int
	maxDigits  int // digits and optional digits; 0 when the width is unbounded
	groups     []groupSeparator
	regular    int // grouping interval when the groups repeat, else 0
	ordinal    bool
	separators string
}

type groupSeparator struct {
	position int // digit positions to its right
	sep      string
}

var namedStyles = map[string]integerStyle{
	"a": alphaLower, "A": alphaUpper, "i": romanLower, "I": romanUpper,
	"w": wordsLower, "W": wordsUpper, "Ww": wordsTitle,
}

// FormatInteger implements $formatInteger: XPath fn:format-integer.
func FormatInteger(v float64, pic string) (string, error) {
	f, err := analyseInteger(pic)
	if err != nil {
		return "", err
	}
	return f.format(v), nil
}

// ParseInteger implements $parseInteger, the inverse of $formatInteger.
func ParseInteger(s, pic string) (float64, error) {
	f, err := analyseInteger(pic)
	if err != nil {
		return 0, err
	}
	sign := 1.0
	if rest, negative := strings.CutPrefix(s, "-"); negative {
		sign, s = -1, rest
	}
	v, rest, ok := f.scan(s)
	if !ok || rest != "" {
		return 0, errNoMatch
	}
	return sign * v, nil
}

func analyseInteger(pic string) (integerFormat, error) {
	primary, modifier := pic, ""
	if i := strings.LastIndexByte(pic, ';'); i >= 0 {
		primary, modifier = pic[:i], pic[i+1:]
	}
	f, err := analysePrimary(primary)
	f.ordinal = strings.HasPrefix(modifier, "o")
	return f, err
}

func analysePrimary(primary string) (integerFormat, error) {
	if style, ok := namedStyles[primary]; ok {
		return integerFormat{style: style}, nil
	}
	return analyseDigits(primary)
}

// analyseDigits reads a decimal-digit-pattern: optional digits '#', digits
// of one Unicode decimal family, and any other non-alphanumeric character as
// a grouping separator.
func analyseDigits(primary string) (integerFormat, error) {
	f := integerFormat{style: decimalStyle, zero: -1}
	var marks []rune // '#', '0' for a digit, or the separator itself
	var seps []string
	for _, r := range primary {
		switch {
		case r == '#':
			if f.minDigits > 0 {
				return f, errorf("D3130", "in the picture %q an optional digit '#' follows a mandatory digit", primary)
			}
			marks = append(marks, '#')
		case unicode.IsDigit(r):
			zero := familyZero(r)
			if f.zero >= 0 && zero != f.zero {
				return f, errorf("D3131", "in the picture %q the digits are not all from the same decimal group", primary)
			}
			f.zero = zero
			f.minDigits++
			marks = append(marks, '0')
		case unicode.IsLetter(r) || unicode.IsNumber(r):
			return f, errorf("D3130", "formatting or parsing an integer as a sequence starting with %q is not supported", primary)
		default:
			marks = append(marks, 0)
			seps = append(seps, string(r))
		}
	}
	if f.minDigits == 0 {
		return f, errorf("D3130", "formatting or parsing an integer as a sequence starting with %q is not supported", primary)
	}
	f.groups = groupsOf(marks, seps)
	f.separators = strings.Join(seps, "")
	positions := make([]int, len(f.groups))
	for i, g := range f.groups {
		positions[i] = g.position
		if g.sep != f.groups[0].sep {
			positions = nil
			break
		}
	}
	if positions != nil {
		f.regular = regularInterval(positions)
	}
	return f, nil
}

func groupsOf(marks []rune, seps []string) []groupSeparator {
	var groups []groupSeparator
	digits, sep := 0, len(seps)
	for i := len(marks) - 1; i >= 0; i-- {
		if marks[i] != 0 {
			digits++
			continue
		}
		sep--
		groups = append(groups, groupSeparator{position: digits, sep: seps[sep]})
	}
	return groups
}

// familyZero finds the zero of r's decimal digit family: Unicode assigns
// each family ten consecutive code points starting at a multiple of ten
// from the start of a run of digits.
func familyZero(r rune) rune {
	k := rune(0)
	for unicode.IsDigit(r - k - 1) {
		k++
	}
	return r - k%10
}

func (f integerFormat) format(v float64) string {
	sign := ""
	if v < 0 {
		sign, v = "-", -v
	}
	v = math.Floor(v)
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return sign + strconv.FormatFloat(v, 'f', 0, 64) // no numbering sequence reaches these
	}
	var s string
	switch f.style {
	case alphaLower, alphaUpper:
		s = alphabetic(v, f.style == alphaUpper)
	case romanLower, romanUpper:
		s = roman(v, f.style == romanUpper)
	case wordsLower, wordsUpper, wordsTitle:
		s = caseWords(words(v, f.ordinal), f.style)
	default:
		s = f.decimal(v)
	}
	return sign + s
}

func (f integerFormat) decimal(v float64) string {
	digits := strconv.FormatFloat(v, 'f', 0, 64)
	if pad := f.minDigits - len(digits); pad > 0 {
		digits = strings.Repeat("0", pad) + digits
	}
	if f.maxDigits > 0 && len(digits) > f.maxDigits {
		digits = digits[len(digits)-f.maxDigits:]
	}
	var out []string
	for i := range digits {
		k := len(digits) - i - 1
		out = append(out, mapDigits(digits[i:i+1], f.zero))
		if k > 0 {
			if sep, ok := f.separatorAt(k); ok {
				out = append(out, sep)
			}
		}
	}
	s := strings.Join(out, "")
	if f.ordinal {
		s += ordinalSuffix(digits)
	}
	return s
}

func (f integerFormat) separatorAt(k int) (string, bool) {
	if f.regular > 0 {
		return f.groups[0].sep, k%f.regular == 0
	}
	for _, g := range f.groups {
		if g.position == k {
			return g.sep, true
		}
	}
	return "", false
}

// ordinalSuffix is the English suffix for the number written in digits.
func ordinalSuffix(digits string) string {
	n := len(digits)
	if n >= 2 && digits[n-2] == '1' {
		return "th"
	}
	switch digits[n-1] {
	case '1':
		return "st"
	case '2':
		return "nd"
	case '3':
		return "rd"
	}
	return "th"
}

// alphabetic writes v in bijective base 26 (a..z, aa..): 0 has no letters.
// Beyond int64 it falls back to digits.
func alphabetic(v float64, upper bool) string {
	if v >= 1<<62 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	base := 'a'
	if upper {
		base = 'A'
	}
	var b []rune
	for n := int64(v); n > 0; n = (n - 1) / 26 {
		b = append([]rune{base + rune((n-1)%26)}, b...)
	}
	return string(b)
}

var romanValues = []struct {
	value  int
	letter string
}{
	{1000, "M"}, {900, "CM"}, {500, "D"}, {400, "CD"}, {100, "C"}, {90, "XC"},
	{50, "L"}, {40, "XL"}, {10, "X"}, {9, "IX"}, {5, "V"}, {4, "IV"}, {1, "I"},
}

// romanLimit bounds the repeated M's of large numbers, which fall back to
// digits as F&O allows for numbers a numbering sequence cannot express.
const romanLimit = 100000

func roman(v float64, upper bool) string {
	if v >= romanLimit {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	var b strings.Builder
	n := int(v)
	for _, rv := range romanValues {
		for ; n >= rv.value; n -= rv.value {
			b.WriteString(rv.letter)
		}
	}
	if upper {
		return b.String()
	}
	return strings.ToLower(b.String())
}

// scan reads one integer by the format from the start of s and returns
// the rest of s.
func (f integerFormat) scan(s string) (float64, string, bool) {
	switch f.style {
	case alphaLower, alphaUpper:
		return scanAlphabetic(s)
	case romanLower, romanUpper:
		return scanRoman(s)
	case wordsLower, wordsUpper, wordsTitle:
		return scanWords(s)
	}
	return f.scanDecimal(s)
}

func (f integerFormat) scanDecimal(s string) (float64, string, bool) {
	n := new(big.Int)
	digits, i := 0, 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r >= f.zero && r <= f.zero+9 && (f.maxDigits == 0 || digits < f.maxDigits):
			n.Mul(n, big.NewInt(10))
			n.Add(n, big.NewInt(int64(r-f.zero)))
			digits++
		case digits > 0 && strings.ContainsRune(f.separators, r) && i+size < len(s) && f.isDigit(s[i+size:]):
		default:
			return finishDecimal(n, digits, s[i:], f.ordinal)
		}
		i += size
	}
	return finishDecimal(n, digits, "", f.ordinal)
}

func (f integerFormat) isDigit(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return r >= f.zero && r <= f.zero+9
}

func finishDecimal(n *big.Int, digits int, rest string, ordinal bool) (float64, string, bool) {
	if digits == 0 {
		return 0, rest, false
	}
	if ordinal {
		rest = skipOrdinalSuffix(rest)
	}
	v, _ := new(big.Float).SetInt(n).Float64()
	return v, rest, true
}

func skipOrdinalSuffix(s string) string {
	for _, suffix := range []string{"st", "nd", "rd", "th"} {
		if len(s) >= 2 && strings.EqualFold(s[:2], suffix) {
			return s[2:]
		}
	}
	return s
}

func scanAlphabetic(s string) (float64, string, bool) {
	var n float64
	i := 0
	for ; i < len(s); i++ {
		c := s[i] | 0x20 // ASCII lower case
		if c < 'a' || c > 'z' {
			break
		}
		n = n*26 + float64(c-'a'+1)
	}
	return n, s[i:], i > 0
}

func scanRoman(s string) (float64, string, bool) {
	values := map[byte]int{'i': 1, 'v': 5, 'x': 10, 'l': 50, 'c': 100, 'd': 500, 'm': 1000}
	i, total := 0, 0
	for ; i < len(s); i++ {
		v, ok := values[s[i]|0x20]
		if !ok {
			break
		}
		if i+1 < len(s) && values[s[i+1]|0x20] > v {
			total -= v
		} else {
			total += v
		}
	}
	return float64(total), s[i:], true
}
