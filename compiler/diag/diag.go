// Package diag collects positioned compiler diagnostics, in the manner of
// go/scanner's ErrorList: gather them all, sort, report one per line.
package diag

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/flowc-dev/flowc/ir"
)

// severity says whether a diagnostic stops compilation.
type severity int

const (
	sevError severity = iota
	sevWarning
)

// Diagnostic is one message about a position of a definition.
type Diagnostic struct {
	Pos ir.Pos
	sev severity
	Msg string
}

func (d Diagnostic) String() string {
	if d.sev == sevWarning {
		return d.Pos.String() + ": warning: " + d.Msg
	}
	return d.Pos.String() + ": " + d.Msg
}

// List gathers diagnostics.
type List []Diagnostic

// Errorf records an error at pos.
func (l *List) Errorf(pos ir.Pos, format string, args ...any) {
	*l = append(*l, Diagnostic{Pos: pos, sev: sevError, Msg: oneLine(fmt.Sprintf(format, args...))})
}

// Warnf records a warning at pos.
func (l *List) Warnf(pos ir.Pos, format string, args ...any) {
	*l = append(*l, Diagnostic{Pos: pos, sev: sevWarning, Msg: oneLine(fmt.Sprintf(format, args...))})
}

// oneLine escapes line breaks and other control characters that names
// from a definition may carry into a message, so that every diagnostic
// stays one `file:line:col: message` line.
func oneLine(msg string) string {
	if !strings.ContainsFunc(msg, breaksLine) {
		return msg
	}
	var b strings.Builder
	for _, r := range msg {
		if breaksLine(r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func breaksLine(r rune) bool {
	return unicode.IsControl(r) || r == '\u2028' || r == '\u2029'
}

// Add appends other diagnostics.
func (l *List) Add(ds ...Diagnostic) { *l = append(*l, ds...) }

// Sort orders by file, line, column, then message, and drops exact repeats.
func (l *List) Sort() {
	ds := *l
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if a.Pos.File != b.Pos.File {
			return a.Pos.File < b.Pos.File
		}
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line < b.Pos.Line
		}
		if a.Pos.Col != b.Pos.Col {
			return a.Pos.Col < b.Pos.Col
		}
		return a.Msg < b.Msg
	})
	out := ds[:0]
	for i, d := range ds {
		if i > 0 && d == ds[i-1] {
			continue
		}
		out = append(out, d)
	}
	*l = out
}

// HasErrors reports whether any diagnostic is an error (not a warning).
func (l List) HasErrors() bool {
	for _, d := range l {
		if d.sev == sevError {
			return true
		}
	}
	return false
}

// Errors returns only the errors.
func (l List) Errors() List {
	var out List
	for _, d := range l {
		if d.sev == sevError {
			out = append(out, d)
		}
	}
	return out
}

// Err returns the errors of the list as an error, or nil when there are none.
func (l List) Err() error {
	errs := l.Errors()
	if len(errs) == 0 {
		return nil
	}
	return errs
}

// Error implements error: the first message and how many more there are.
func (l List) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].String()
	}
	return fmt.Sprintf("%s (and %d more errors)", l[0], len(l)-1)
}

// Lines renders every diagnostic, one per line.
func (l List) Lines() string {
	var b strings.Builder
	for _, d := range l {
		b.WriteString(d.String())
		b.WriteByte('\n')
	}
	return b.String()
}
