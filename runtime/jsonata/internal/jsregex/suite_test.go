package jsregex

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/flowc-dev/flowc/internal/sharedtest"
)

// regexLiteral finds /pattern/flags where a JSONata operand may start
// (after an opening bracket, comma, colon, = or ~>), which separates regex
// literals from division in the suite's expressions.
var regexLiteral = regexp.MustCompile(`(?:^|[(,:=\[]|~>)\s*/((?:\\.|[^/\\\n*])(?:\\.|[^/\\\n])*)/([a-z]*)`)

// Every regex literal in the JSONata suite (jsonata-js test/test-suite,
// converted into ../shared/conformance/jsonata/cases) must compile.
func TestSuiteRegexLiteralsCompile(t *testing.T) {
	files := sharedtest.Glob(t, "../../../../../shared/conformance/jsonata/cases/*.json")
	compiled := 0
	for _, file := range files {
		raw, err := os.ReadFile(file)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		var cases []struct {
			Expr string `json:"expr"`
		}
		if json.Unmarshal(raw, &cases) != nil {
			continue // datasets.json is an object, not cases
		}
		for _, c := range cases {
			for _, m := range regexLiteral.FindAllStringSubmatch(c.Expr, -1) {
				if _, err := Compile(m[1], m[2]); err != nil {
					t.Errorf("%s: /%s/%s: %v", filepath.Base(file), m[1], m[2], err)
				}
				compiled++
			}
		}
	}
	t.Logf("%d regex literals compiled", compiled)
}
