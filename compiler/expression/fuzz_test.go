package expression

import (
	"strings"
	"testing"

	"github.com/flowc-dev/flowc/ir"
)

// FuzzCheck checks that Check never panics, points inside the text, and
// only accepts what compiles as Go. Run it with
// go test -fuzz FuzzCheck ./compiler/expression/.
func FuzzCheck(f *testing.F) {
	for _, seed := range []string{
		"count > 10 and status == 'active'",
		"'error' in message.lower()",
		"'k' not in labels or not flag",
		"not status == 'a'",
		"score >= 90 and count / 2 > 1.5",
		"ticket.priority > small and item.title.startswith(kind)",
		"len(tags) > 0 and tags.contains(status)",
		"owner != None and -count < 3 % 2",
		"1 < count < 10 and level > ratio",
		"decision == 'approve' and meta == 1",
		"x ? y : z",
		"count // 2\n> 1",
	} {
		f.Add(seed)
	}
	env := testEnv()
	f.Fuzz(func(t *testing.T, text string) {
		e, ds := Check(Source{Text: text, Pos: at}, env)
		lastLine := at.Line + strings.Count(text, "\n")
		for _, d := range ds {
			if d.Pos.File != at.File || d.Pos.Line < at.Line || d.Pos.Line > lastLine || d.Pos.Col < 1 {
				t.Fatalf("%q: diagnostic outside the text: %s", text, d)
			}
		}
		if (e == nil) != ds.HasErrors() {
			t.Fatalf("%q: tree %v with diagnostics %v", text, e, ds)
		}
		if e == nil {
			return
		}
		checkPositions(t, e, lastLine)
		compileGo(t, e)
	})
}

func checkPositions(t *testing.T, e *ir.Expr, lastLine int) {
	if e.Pos.Line < at.Line || e.Pos.Line > lastLine {
		t.Fatalf("%s: node %s at %s", e.Source, sexpr(e), e.Pos)
	}
	for _, a := range e.Args {
		checkPositions(t, a, lastLine)
	}
}
