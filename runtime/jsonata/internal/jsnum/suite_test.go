package jsnum

import (
	"encoding/json"
	"regexp"
	"strconv"
	"testing"

	"github.com/flowc-dev/flowc/internal/sharedtest"
)

// stringOfNumber matches the suite's $string(<number>) and $string(a/b).
var stringOfNumber = regexp.MustCompile(`^\$string\(([0-9.e+-]+)(?:/([0-9.e+-]+))?\)$`)

// function-string.json of the JSONata suite (jsonata-js test/test-suite,
// converted into ../shared/conformance/jsonata/cases). JSONata's $string
// writes a number as JavaScript prints Number(x.toPrecision(15)), which is
// the composition tested here.
func TestSuiteStringOfNumber(t *testing.T) {
	raw := sharedtest.ReadFile(t, "../../../../../shared/conformance/jsonata/cases/function-string.json")
	var cases []struct {
		Expr   string `json:"expr"`
		Result any    `json:"result"`
	}
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, c := range cases {
		m := stringOfNumber.FindStringSubmatch(c.Expr)
		want, isString := c.Result.(string)
		if m == nil || !isString {
			continue
		}
		x, _ := strconv.ParseFloat(m[1], 64)
		if m[2] != "" {
			d, _ := strconv.ParseFloat(m[2], 64)
			x /= d
		}
		rounded, err := strconv.ParseFloat(ToPrecision(x, 15), 64)
		if err != nil {
			t.Fatal(err)
		}
		if got := Format(rounded); got != want {
			t.Errorf("%s = %q, want %q", c.Expr, got, want)
		}
		ran++
	}
	t.Logf("%d $string cases of numbers pass", ran)
}
