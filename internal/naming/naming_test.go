package naming

import (
	"go/token"
	"testing"

	"github.com/stretchr/testify/assert"
)

// Every name a definition gives becomes the same identifier every time, an
// exported Go identifier, or "" when none can be made.
func TestExported(t *testing.T) {
	for name, want := range map[string]string{
		"classify":                       "Classify",
		"fix-error":                      "FixError",
		"fix_error":                      "FixError", // a clash the checker reports
		"user_id":                        "UserID",
		"http server":                    "HTTPServer",
		"func":                           "Func", // keywords are lower case; exported names are not
		"type":                           "Type",
		"état":                           "État",
		"日本":                             "X日本", // no upper case: X makes it exported
		"日本 語":                           "X日本語",
		"*/ func init() { panic(1) } /*": "FuncInitPanic1",
		"//go:generate touch PWNED":      "GoGenerateTouchPWNED",
		"say \"hi\"\n`now`":              "SayHiNow",
		"1st":                            "",
		"9 lives":                        "",
		"":                               "",
		"_":                              "",
		"*/":                             "",
		"\u202e":                         "",
		"a\u2028b":                       "AB",
		"x\x00y":                         "XY",
		"résumé-v2":                      "RésuméV2",
		"2fa":                            "",
		"a1":                             "A1",
	} {
		got := Exported(name)
		assert.Equal(t, want, got, "Exported(%q)", name)
		if got != "" {
			assert.True(t, token.IsIdentifier(got) && token.IsExported(got), "%q is not an exported identifier", got)
		}
	}
}

func TestUnexported(t *testing.T) {
	for name, want := range map[string]string{
		"fix-error":   "fixError",
		"ID":          "id",
		"http-server": "httpServer",
		"func":        "func_", // a keyword gets an underscore
		"type":        "type_",
		"日本":          "x日本",
		"1st":         "",
	} {
		got := Unexported(name)
		assert.Equal(t, want, got, "Unexported(%q)", name)
		if got != "" {
			assert.True(t, token.IsIdentifier(got) && !token.IsExported(got), "%q", got)
		}
	}
}

// A Namer gives the first use of a name the bare identifier and numbers
// later clashes in the order they ask, never reusing a reserved name.
func TestNamerIsDeterministicAndUnique(t *testing.T) {
	var n Namer
	n.Reserve("Run", "FixError2")
	got := []string{
		n.Unique("fix-error", "State"),
		n.Unique("fix_error", "State"),
		n.Unique("fix error", "State"),
		n.Unique("run", "State"),
		n.Unique("1st", "State"),
		n.Unique("", "State"),
	}
	assert.Equal(t, []string{"FixError", "FixError3", "FixError4", "Run2", "State", "State2"}, got)
}
