package emit

import (
	"go/parser"
	"go/token"
	"testing"

	"github.com/stretchr/testify/assert"
)

// Text from a definition becomes one plain // comment line that Go
// accepts, whatever it holds: line breaks fold to spaces, characters Go
// source may not hold or that hide text are escaped, and the // flowc
// writes first keeps a directive from starting the line.
func TestCommentsHoldAnyText(t *testing.T) {
	for text, want := range map[string]string{
		"plain words":                              "// plain words",
		"*/ func init() { panic(1) } /*":           "// */ func init() { panic(1) } /*",
		"a\n//go:generate touch PWNED\r\n//line x": "// a //go:generate touch PWNED //line x",
		"nul \x00 bom \ufeff bidi \u202e":          `// nul \x00 bom \ufeff bidi \u202e`,
		"bad \xff utf-8":                           "// bad \ufffd utf-8",
		"ls\u2028ps\u2029nel\u0085end":             "// ls ps nel end",
	} {
		got := Comment(text).GoString()
		assert.Equal(t, want, got, "%q", text)
		src := "package p\n\n" + got + "\nvar x int\n"
		f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.ParseComments)
		if assert.NoError(t, err, "%q", text) {
			assert.Len(t, f.Comments, 1)
			assert.Len(t, f.Comments[0].List, 1, "one line")
		}
	}
}
