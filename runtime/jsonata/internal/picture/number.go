package picture

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// DecimalFormat holds the decimal-format properties of F&O 3.1 section 4.7.1.
type DecimalFormat struct {
	DecimalSeparator, GroupingSeparator, ExponentSeparator, MinusSign, Infinity, NaN,
	Percent, PerMille, ZeroDigit, Digit, PatternSeparator string
}

// DefaultDecimalFormat returns the unnamed default decimal format.
func DefaultDecimalFormat() DecimalFormat {
	return DecimalFormat{
		DecimalSeparator: ".", GroupingSeparator: ",", ExponentSeparator: "e",
		MinusSign: "-", Infinity: "Infinity", NaN: "NaN", Percent: "%",
		PerMille: "\u2030", ZeroDigit: "0", Digit: "#", PatternSeparator: ";",
	}
}

type symbolKind int

const (
	passive symbolKind = iota
	mandatoryDigit
	optionalDigit
	decimalSep
	groupingSep
	exponentSep // only once it is known to be active
	percentSign
	perMilleSign
	patternSep
)

type symbol struct {
	kind symbolKind
	text string
}

func (s symbol) active() bool {
	return s.kind >= mandatoryDigit && s.kind <= exponentSep
}

func (s symbol) digitLike() bool { return s.kind == mandatoryDigit || s.kind == optionalDigit }

// numberPicture is one analysed sub-picture (F&O 3.1 section 4.7.4).
type numberPicture struct {
	prefix, suffix    string
	minInt, scaling   int
	intGroups         []int
	regularGroup      int
	minFrac, maxFrac  int
	fracGroups        []int
	hasExponent       bool
	minExp            int
	percent, perMille bool
	hasDecimal        bool
}

// FormatNumber implements $formatNumber: XPath fn:format-number.
func FormatNumber(v float64, pic string, f DecimalFormat) (string, error) {
	zero, _ := utf8.DecodeRuneInString(f.ZeroDigit)
	subs := splitSubPictures(tokenizeNumber(pic, f, zero))
	if len(subs) > 2 {
		return "", errorf("D3080", "the picture string %q has more than two sub-pictures", pic)
	}
	pics := make([]numberPicture, len(subs))
	for i, sub := range subs {
		p, err := analyseNumberPicture(sub)
		if err != nil {
			return "", err
		}
		pics[i] = p
	}
	if math.IsNaN(v) {
		return f.NaN, nil
	}
	p := pics[0]
	if v < 0 {
		if len(pics) == 2 {
			p = pics[1]
		} else {
			p.prefix = f.MinusSign + p.prefix
		}
		v = -v
	}
	if p.percent {
		v *= 100
	} else if p.perMille {
		v *= 1000
	}
	if math.IsInf(v, 0) {
		return p.prefix + f.Infinity + p.suffix, nil
	}
	return p.prefix + p.body(v, f, zero) + p.suffix, nil
}

// tokenizeNumber classifies each character of the picture by the decimal
// format's properties, which may be longer than one character.
func tokenizeNumber(pic string, f DecimalFormat, zero rune) []symbol {
	props := []struct {
		text string
		kind symbolKind
	}{
		{f.DecimalSeparator, decimalSep}, {f.GroupingSeparator, groupingSep},
		{f.ExponentSeparator, exponentSep}, {f.Percent, percentSign},
		{f.PerMille, perMilleSign}, {f.PatternSeparator, patternSep},
		{f.Digit, optionalDigit},
	}
	var out []symbol
	for rest := pic; rest != ""; {
		matched := false
		for _, p := range props {
			if p.text != "" && strings.HasPrefix(rest, p.text) {
				out = append(out, symbol{p.kind, p.text})
				rest = rest[len(p.text):]
				matched = true
				break
			}
		}
		if matched {
			continue
		}
		r, size := utf8.DecodeRuneInString(rest)
		kind := passive
		if r >= zero && r <= zero+9 {
			kind = mandatoryDigit
		}
		out = append(out, symbol{kind, rest[:size]})
		rest = rest[size:]
	}
	return out
}

func splitSubPictures(syms []symbol) [][]symbol {
	subs := [][]symbol{nil}
	for _, s := range syms {
		if s.kind == patternSep {
			subs = append(subs, nil)
			continue
		}
		subs[len(subs)-1] = append(subs[len(subs)-1], s)
	}
	return subs
}

// markExponent keeps the first exponent separator that has an active
// character on both sides; every other one is passive (F&O 3.1 4.7.3).
func markExponent(sub []symbol) int {
	for i, s := range sub {
		if s.kind != exponentSep {
			continue
		}
		if activeIn(sub[:i]) && activeIn(sub[i+1:]) && !exponentBefore(sub[:i]) {
			continue
		}
		sub[i].kind = passive
	}
	for i, s := range sub {
		if s.kind == exponentSep {
			return i
		}
	}
	return -1
}

func activeIn(syms []symbol) bool {
	for _, s := range syms {
		if s.active() && s.kind != exponentSep {
			return true
		}
	}
	return false
}

func exponentBefore(syms []symbol) bool {
	for _, s := range syms {
		if s.kind == exponentSep {
			return true
		}
	}
	return false
}

func count(syms []symbol, kind symbolKind) int {
	n := 0
	for _, s := range syms {
		if s.kind == kind {
			n++
		}
	}
	return n
}

func text(syms []symbol) string {
	var b strings.Builder
	for _, s := range syms {
		b.WriteString(s.text)
	}
	return b.String()
}

func analyseNumberPicture(sub []symbol) (numberPicture, error) {
	sub = append([]symbol(nil), sub...)
	exp := markExponent(sub)
	first, last := -1, -1
	for i, s := range sub {
		if s.active() {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		return numberPicture{}, errorf("D3086", "the sub-picture %q has no digit or separator", text(sub))
	}
	if err := checkCounts(sub); err != nil {
		return numberPicture{}, err
	}
	body := sub[first : last+1]
	mantissa, exponent := body, []symbol(nil)
	if exp >= 0 {
		mantissa, exponent = sub[first:exp], sub[exp+1:last+1]
	}
	if count(mantissa, mandatoryDigit)+count(mantissa, optionalDigit) == 0 {
		return numberPicture{}, errorf("D3085", "the mantissa of %q has no digit", text(sub))
	}
	for _, s := range body {
		if !s.active() {
			return numberPicture{}, errorf("D3086", "the sub-picture %q has passive character %q between active ones", text(sub), s.text)
		}
	}
	intPart, fracPart := mantissa, []symbol(nil)
	dec := -1
	for i, s := range mantissa {
		if s.kind == decimalSep {
			dec = i
			intPart, fracPart = mantissa[:i], mantissa[i+1:]
		}
	}
	if err := checkLayout(sub, mantissa, intPart, fracPart, dec, exponent); err != nil {
		return numberPicture{}, err
	}
	p := numberPicture{
		prefix: text(sub[:first]), suffix: text(sub[last+1:]),
		percent: count(sub, percentSign) > 0, perMille: count(sub, perMilleSign) > 0,
		hasExponent: exp >= 0, minExp: count(exponent, mandatoryDigit), hasDecimal: dec >= 0,
	}
	p.sizes(sub, intPart, fracPart)
	return p, nil
}

func checkCounts(sub []symbol) error {
	switch {
	case count(sub, decimalSep) > 1:
		return errorf("D3081", "the sub-picture %q has more than one decimal separator", text(sub))
	case count(sub, percentSign) > 1:
		return errorf("D3082", "the sub-picture %q has more than one percent sign", text(sub))
	case count(sub, perMilleSign) > 1:
		return errorf("D3083", "the sub-picture %q has more than one per-mille sign", text(sub))
	case count(sub, percentSign) > 0 && count(sub, perMilleSign) > 0:
		return errorf("D3084", "the sub-picture %q has both a percent and a per-mille sign", text(sub))
	}
	return nil
}

func checkLayout(sub, mantissa, intPart, fracPart []symbol, dec int, exponent []symbol) error {
	for i := 1; i < len(mantissa); i++ {
		a, b := mantissa[i-1].kind, mantissa[i].kind
		if a == groupingSep && b == decimalSep || a == decimalSep && b == groupingSep {
			return errorf("D3087", "the sub-picture %q has a grouping separator next to the decimal separator", text(sub))
		}
	}
	if dec < 0 && len(intPart) > 0 && intPart[len(intPart)-1].kind == groupingSep {
		return errorf("D3088", "the sub-picture %q ends its integer part with a grouping separator", text(sub))
	}
	for i := 1; i < len(mantissa); i++ {
		if mantissa[i-1].kind == groupingSep && mantissa[i].kind == groupingSep {
			return errorf("D3089", "the sub-picture %q has two adjacent grouping separators", text(sub))
		}
	}
	if follows(intPart, mandatoryDigit, optionalDigit) {
		return errorf("D3090", "the integer part of %q has an optional digit after a mandatory one", text(sub))
	}
	if follows(fracPart, optionalDigit, mandatoryDigit) {
		return errorf("D3091", "the fractional part of %q has a mandatory digit after an optional one", text(sub))
	}
	if exponent != nil && (count(sub, percentSign) > 0 || count(sub, perMilleSign) > 0) {
		return errorf("D3092", "the sub-picture %q has an exponent and a percent or per-mille sign", text(sub))
	}
	if len(exponent) > 0 && count(exponent, mandatoryDigit) != len(exponent) {
		return errorf("D3093", "the exponent of %q must be digits only", text(sub))
	}
	return nil
}

// follows reports whether a symbol of kind later comes after one of kind earlier.
func follows(syms []symbol, earlier, later symbolKind) bool {
	seen := false
	for _, s := range syms {
		if s.kind == earlier {
			seen = true
		} else if s.kind == later && seen {
			return true
		}
	}
	return false
}

// sizes sets the digit counts and grouping of F&O 3.1 section 4.7.4.
func (p *numberPicture) sizes(sub, intPart, fracPart []symbol) {
	p.minInt = count(intPart, mandatoryDigit)
	p.scaling = p.minInt
	if count(sub, mandatoryDigit) == 0 && !p.hasDecimal {
		p.minInt = 1
	}
	p.minFrac = count(fracPart, mandatoryDigit)
	p.maxFrac = p.minFrac + count(fracPart, optionalDigit)
	if p.minInt == 0 && p.maxFrac == 0 {
		if p.hasExponent {
			p.minFrac, p.maxFrac = 1, 1
		} else {
			p.minInt = 1
		}
	}
	if p.hasExponent && p.minInt == 0 && count(intPart, optionalDigit) > 0 {
		p.minInt = 1
	}
	digitsRight := 0
	for i := len(intPart) - 1; i >= 0; i-- {
		if intPart[i].digitLike() {
			digitsRight++
		} else if intPart[i].kind == groupingSep {
			p.intGroups = append(p.intGroups, digitsRight)
		}
	}
	p.regularGroup = regularInterval(p.intGroups)
	digitsLeft := 0
	for _, s := range fracPart {
		if s.digitLike() {
			digitsLeft++
		} else if s.kind == groupingSep {
			p.fracGroups = append(p.fracGroups, digitsLeft)
		}
	}
}

// regularInterval returns G when the grouping positions are exactly the
// multiples of G up to the largest one, and 0 when they are not regular.
func regularInterval(positions []int) int {
	if len(positions) == 0 {
		return 0
	}
	g, largest := positions[0], positions[0]
	for _, pos := range positions[1:] {
		g = gcd(g, pos)
		largest = max(largest, pos)
	}
	if g == 0 || largest/g != len(positions) {
		return 0
	}
	return g
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// body renders |v| by the sub-picture without prefix and suffix
// (F&O 3.1 section 4.7.5).
func (p numberPicture) body(v float64, f DecimalFormat, zero rune) string {
	d := decimalOf(v)
	exp := 0
	if p.hasExponent && d.digits != "" {
		exp = d.point - p.scaling
		d.point = p.scaling
		d = d.round(p.maxFrac)
		if d.point > p.scaling {
			exp += d.point - p.scaling
			d.point = p.scaling
		}
	} else {
		d = d.round(p.maxFrac)
	}
	integer, fraction := d.parts()
	integer = strings.TrimLeft(integer, "0")
	if pad := p.minInt - len(integer); pad > 0 {
		integer = strings.Repeat("0", pad) + integer
	}
	if pad := p.minFrac - len(fraction); pad > 0 {
		fraction += strings.Repeat("0", pad)
	}
	var b strings.Builder
	b.WriteString(groupDigits(integer, p.intGroups, p.regularGroup, f.GroupingSeparator, zero))
	if fraction != "" {
		b.WriteString(f.DecimalSeparator)
		b.WriteString(groupFraction(fraction, p.fracGroups, f.GroupingSeparator, zero))
	}
	if p.hasExponent {
		b.WriteString(f.ExponentSeparator)
		if exp < 0 {
			b.WriteString(f.MinusSign)
			exp = -exp
		}
		e := strconv.Itoa(exp)
		if pad := p.minExp - len(e); pad > 0 {
			e = strings.Repeat("0", pad) + e
		}
		b.WriteString(mapDigits(e, zero))
	}
	return b.String()
}

// groupDigits inserts sep into ASCII digits at the given positions counted
// from the right, or every regular positions when regular > 0.
func groupDigits(digits string, positions []int, regular int, sep string, zero rune) string {
	var out []string
	n := len(digits)
	for i := 0; i < n; i++ {
		fromRight := n - i
		out = append(out, mapDigits(digits[i:i+1], zero))
		k := fromRight - 1
		if k > 0 && (regular > 0 && k%regular == 0 || regular == 0 && contains(positions, k)) {
			out = append(out, sep)
		}
	}
	return strings.Join(out, "")
}

func groupFraction(digits string, positions []int, sep string, zero rune) string {
	var b strings.Builder
	for i := 0; i < len(digits); i++ {
		if i > 0 && contains(positions, i) {
			b.WriteString(sep)
		}
		b.WriteString(mapDigits(digits[i:i+1], zero))
	}
	return b.String()
}

func contains(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// mapDigits rewrites ASCII digits into the digit family starting at zero.
func mapDigits(s string, zero rune) string {
	if zero == '0' {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if r >= '0' && r <= '9' {
			r = zero + r - '0'
		}
		b.WriteRune(r)
	}
	return b.String()
}
