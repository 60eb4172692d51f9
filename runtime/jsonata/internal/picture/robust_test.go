package picture

import (
	"math"
	"math/rand"
	"testing"
)

// Pictures and inputs built from the characters the parsers care about must
// never panic, whatever they are.
func TestNoPanics(t *testing.T) {
	const alphabet = "#0019,.;e%‰-+[]]YMDdFWwXxHhPmsfZzCEnNoticaAiIWw: *-①٠"
	runes := []rune(alphabet)
	rng := rand.New(rand.NewSource(1))
	random := func() string {
		b := make([]rune, rng.Intn(12))
		for i := range b {
			b[i] = runes[rng.Intn(len(runes))]
		}
		return string(b)
	}
	fragments := []string{"[Y", "[M", "[D", "[d", "[F", "[W", "[w", "[X", "[x", "[H", "[h", "[P", "[m",
		"[s", "[f", "[Z", "[z", "[C", "[E", "]", "Nn", "N", "n", "01", "0001", "#", "1", "w", "Ww", "W",
		"o", "t", "I", "i", "a", "A", ",2", ",*-3", ",2-2", ":", "-", " ", "GMT", "+05:30", "twenty", "1st"}
	structured := func() string {
		var b string
		for n := rng.Intn(8); n > 0; n-- {
			b += fragments[rng.Intn(len(fragments))]
		}
		return b
	}
	values := []float64{0, -1, 0.5, 12345.678, -9e15, 1e300, math.Inf(1), math.NaN(), 5e-324}
	for i := 0; i < 20000; i++ {
		pic, in, v := random(), random(), values[rng.Intn(len(values))]
		if i%2 == 0 {
			pic, in = structured(), structured()
		}
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("panic on picture %q, input %q, value %v: %v", pic, in, v, r)
				}
			}()
			_, _ = FormatNumber(v, pic, DefaultDecimalFormat())
			_, _ = ParseInteger(in, pic)
			if s, err := FormatDateTime(int64(rng.Int63n(1<<45)-1<<44), pic, "+0130"); err == nil {
				_, _, _ = ParseDateTime(s, pic)
			}
			if s, err := FormatInteger(v, pic); err == nil {
				_, _ = ParseInteger(s, pic)
			}
			_, _, _ = ParseDateTime(in, pic)
			_, _, _ = ParseDateTime(in, "")
		}()
	}
}
