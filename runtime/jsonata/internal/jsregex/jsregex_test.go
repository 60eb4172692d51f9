package jsregex

import (
	"math/rand"
	"strings"
	"testing"
)

// Behaviour per ECMA-262 section 22.2 (RegExp pattern semantics): each case
// says what JavaScript matches.
func TestCompileMatches(t *testing.T) {
	for _, c := range []struct {
		pattern, flags, input string
		want                  string // first match, "<none>" for no match
	}{
		{`\d+`, "", "ab123c", "123"},
		{`[a-z]+`, "i", "123ABC", "ABC"},
		{`^b`, "m", "a\nb", "b"},
		{`^b`, "", "a\nb", "<none>"},
		{`a.c`, "", "a\nc", "<none>"},
		{`a.c`, "", "a\rc", "<none>"},
		{`a.c`, "s", "a\nc", "a\nc"},
		{`a\/b`, "", "a/b", "a/b"},
		{`\u0041`, "", "xA", "A"},
		{`\u{1F600}`, "u", "x\U0001F600", "\U0001F600"},
		{`\x41`, "", "A", "A"},
		{`\cJ`, "", "a\nb", "\n"},
		{`\s`, "", "a\u00a0b", "\u00a0"},
		{`[\s]`, "", "a\u2028b", "\u2028"},
		{`\S+`, "", " ab ", "ab"},
		{`[^]`, "", "\n", "\n"},
		{`[]`, "", "abc", "<none>"},
		{`[\b]`, "", "a\bb", "\b"},
		{`\0`, "", "a\x00", "\x00"},
		{`[[a]+`, "", "x[a[", "[a["},
		{`\q`, "", "q", "q"},
		{`(?<year>\d{4})`, "", "in 2024", "2024"},
		{`a{2}`, "g", "aaa", "aa"},
		{`\uD83D\uDE00`, "", "x\U0001F600", "\U0001F600"},
		{`a$`, "", "a\n", "<none>"},
	} {
		re, err := Compile(c.pattern, c.flags)
		if err != nil {
			t.Errorf("Compile(%q, %q): %v", c.pattern, c.flags, err)
			continue
		}
		got := "<none>"
		if loc := re.FindStringIndex(c.input); loc != nil {
			got = c.input[loc[0]:loc[1]]
		}
		if got != c.want {
			t.Errorf("/%s/%s on %q matched %q, want %q (RE2 %s)", c.pattern, c.flags, c.input, got, c.want, re)
		}
	}
}

func TestCompileNamedGroup(t *testing.T) {
	re, err := Compile(`(?<y>\d+)-(?<m>\d+)`, "")
	if err != nil {
		t.Fatal(err)
	}
	if i := re.SubexpIndex("m"); i != 2 {
		t.Errorf("group m is %d, want 2", i)
	}
}

func TestCompileRejects(t *testing.T) {
	for _, c := range []struct{ pattern, flags, want string }{
		{`(a)\1`, "", "backreferences"},
		{`(?<n>a)\k<n>`, "", "backreferences"},
		{`a(?=b)`, "", "lookahead"},
		{`a(?!b)`, "", "lookahead"},
		{`(?<=a)b`, "", "lookbehind"},
		{`(?<!a)b`, "", "lookbehind"},
		{`[a`, "", "unterminated"},
		{`a\`, "", "backslash"},
		{`a`, "y", "flag"},
		{`a)`, "", "unexpected )"},
		{`[\S]`, "", `\S`},
		{`\01`, "", "octal"},
		{`\u{110000}`, "u", "malformed"},
	} {
		_, err := Compile(c.pattern, c.flags)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Compile(%q, %q) = %v, want an error about %q", c.pattern, c.flags, err, c.want)
		}
	}
}

// Any pattern gives a regexp or an error, never a panic.
func TestCompileNoPanics(t *testing.T) {
	fragments := []string{`\`, `u`, `{`, `}`, `x`, `c`, `D83D`, `\uDE00`, `[`, `]`, `^`, `(`, `)`, `?`,
		`<`, `>`, `=`, `!`, `.`, `0`, `1`, `k`, `s`, `S`, `b`, `a`, `*`, `+`, `-`}
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 20000; i++ {
		var p strings.Builder
		for n := rng.Intn(10); n >= 0; n-- {
			p.WriteString(fragments[rng.Intn(len(fragments))])
		}
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("panic on /%s/: %v", p.String(), r)
				}
			}()
			_, _ = Compile(p.String(), "ims")
		}()
	}
}
