package emit

import (
	"go/scanner"
	"go/token"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/flowc-dev/flowc/internal/gocheck"
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
		assert.Equal(t, []string{got}, commentTokens(t, got), "%q: one line comment, nothing else", text)
		src := "package p\n\n" + got + "\nvar x int\n"
		assert.Empty(t, gocheck.Comments([]byte(src)), "%q: no directive or block comment", text)
	}
}

// commentTokens scans src as Go and returns its tokens' text, failing on a
// token that is not a comment.
func commentTokens(t *testing.T, src string) []string {
	var s scanner.Scanner
	fset := token.NewFileSet()
	s.Init(fset.AddFile("", -1, len(src)), []byte(src), func(_ token.Position, msg string) { t.Error(msg) }, scanner.ScanComments)
	var comments []string
	for {
		_, tok, lit := s.Scan()
		switch tok {
		case token.EOF:
			return comments
		case token.COMMENT:
			comments = append(comments, lit)
		default:
			t.Errorf("%q scans to %s %q, not only a comment", src, tok, lit)
			return comments
		}
	}
}
