package picture

import (
	"math"
	"math/big"
	"strings"
	"unicode"
)

// English number words as JSONata's $formatInteger writes them with the
// 'w' picture: British "and" before the last two digits, commas between
// scale groups, and "trillion" repeated beyond 10^15.
var (
	smallWords = []string{
		"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
		"eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
	}
	tensWords = []string{"", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"}
	scales    = []struct {
		value float64
		word  string
	}{{1e12, "trillion"}, {1e9, "billion"}, {1e6, "million"}, {1e3, "thousand"}}
	irregularOrdinals = map[string]string{
		"one": "first", "two": "second", "three": "third", "five": "fifth",
		"eight": "eighth", "nine": "ninth", "twelve": "twelfth",
	}
)

func words(v float64, ordinal bool) string {
	s := cardinal(v)
	if ordinal {
		s = ordinalOf(s)
	}
	return s
}

// cardinal uses float arithmetic as JSONata does, so that 1e46 reads
// "ten billion trillion trillion trillion".
func cardinal(v float64) string {
	switch {
	case v < 20:
		return smallWords[int(v)]
	case v < 100:
		s := tensWords[int(v)/10]
		if r := int(v) % 10; r > 0 {
			s += "-" + smallWords[r]
		}
		return s
	case v < 1000:
		return joinRemainder(cardinal(math.Floor(v/100))+" hundred", math.Mod(v, 100), " and ")
	}
	for _, sc := range scales {
		if v >= sc.value {
			high := math.Floor(v / sc.value)
			rest := v - high*sc.value
			sep := ", "
			if rest < 100 {
				sep = " and "
			}
			return joinRemainder(cardinal(high)+" "+sc.word, rest, sep)
		}
	}
	return ""
}

func joinRemainder(head string, rest float64, sep string) string {
	if rest <= 0 {
		return head
	}
	return head + sep + cardinal(rest)
}

// ordinalOf turns the last word of a cardinal into its ordinal form.
func ordinalOf(s string) string {
	i := strings.LastIndexAny(s, " -") + 1
	last := s[i:]
	switch {
	case irregularOrdinals[last] != "":
		last = irregularOrdinals[last]
	case strings.HasSuffix(last, "y"):
		last = strings.TrimSuffix(last, "y") + "ieth"
	default:
		last += "th"
	}
	return s[:i] + last
}

// caseWords applies the W (upper) and Ww (title) styles; "and" stays lower
// in title case.
func caseWords(s string, style integerStyle) string {
	switch style {
	case wordsUpper:
		return strings.ToUpper(s)
	case wordsTitle:
		var b strings.Builder
		start := true
		for i, r := range s {
			if start && !strings.HasPrefix(s[i:], "and ") {
				r = unicode.ToUpper(r)
			}
			start = r == ' ' || r == '-'
			b.WriteRune(r)
		}
		return b.String()
	}
	return s
}

// wordValues maps each cardinal and ordinal number word to its value.
var wordValues = func() map[string]int64 {
	m := map[string]int64{"hundred": 100, "hundredth": 100}
	add := func(w string, v int64) {
		m[w] = v
		m[ordinalOf(w)] = v
	}
	for i, w := range smallWords {
		add(w, int64(i))
	}
	for i, w := range tensWords[2:] {
		add(w, int64(i+2)*10)
	}
	for _, sc := range scales {
		add(sc.word, int64(sc.value))
	}
	return m
}()

// scanWords reads English number words from the start of s, ignoring case,
// and returns the rest of s. Each scale word multiplies everything of a
// smaller scale before it, so "nineteen hundred and eighty-four" and
// "one thousand trillion" both read as written.
func scanWords(s string) (float64, string, bool) {
	type segment struct{ value, scale *big.Int }
	var segs []segment
	current := new(big.Int)
	lastWasScale, found := false, false
	rest := s
	for {
		word, after, ok := nextNumberWord(rest, found)
		if !ok {
			break
		}
		rest, found = after, true
		v := big.NewInt(wordValues[word])
		switch {
		case v.Int64() == 100:
			current.Mul(current, v)
			lastWasScale = false
		case v.Int64() >= 1000 && lastWasScale && current.Sign() == 0:
			top := &segs[len(segs)-1]
			top.value.Mul(top.value, v)
			top.scale.Mul(top.scale, v)
		case v.Int64() >= 1000:
			sum := new(big.Int).Set(current)
			for len(segs) > 0 && segs[len(segs)-1].scale.Cmp(v) < 0 {
				sum.Add(sum, segs[len(segs)-1].value)
				segs = segs[:len(segs)-1]
			}
			segs = append(segs, segment{sum.Mul(sum, v), v})
			current = new(big.Int)
			lastWasScale = true
		default:
			current.Add(current, v)
			lastWasScale = false
		}
	}
	if !found {
		return 0, s, false
	}
	for _, sg := range segs {
		current.Add(current, sg.value)
	}
	f, _ := new(big.Float).SetInt(current).Float64()
	return f, rest, true
}

// nextNumberWord reads one number word, after a separator (space, hyphen,
// comma, " and ") when it is not the first.
func nextNumberWord(s string, notFirst bool) (string, string, bool) {
	rest := s
	if notFirst {
		rest = strings.TrimPrefix(rest, ",")
		trimmed := strings.TrimLeft(rest, " -")
		if trimmed == rest {
			return "", s, false
		}
		rest = trimmed
		if lower := strings.ToLower(rest); strings.HasPrefix(lower, "and ") {
			rest = rest[len("and "):]
		}
	}
	end := 0
	for end < len(rest) && unicode.IsLetter(rune(rest[end])) {
		end++
	}
	word := strings.ToLower(rest[:end])
	if _, ok := wordValues[word]; !ok || end == 0 {
		return "", s, false
	}
	return word, rest[end:], true
}
