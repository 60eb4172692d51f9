package emit

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// Formatting is most of the time generation takes, and most of a large
// workflow is lines that are alike for every state: step constants, ids,
// loop cases, handler methods. The native target writes those lines itself,
// already as gofmt lays them out, and gives jennifer a placeholder in their
// place; render formats the rest and then puts them in. Generating 10,000
// states then costs a few times what checking them does, not twenty.
type Bulk struct {
	parts []string
	Off   bool // everything goes through jennifer: an import took the name "context"
}

// bulkMark starts every placeholder; no name from a definition can spell it.
const bulkMark = "flowcǂbulk"

// Placeholder keeps text and returns the identifier standing for it. It
// returns "" when bulk text is off, or text is empty.
func (b *Bulk) Placeholder(text string) string {
	if b == nil || b.Off || text == "" {
		return ""
	}
	b.parts = append(b.parts, text)
	return bulkMark + strconv.Itoa(len(b.parts)-1)
}

// Fill replaces the line of each placeholder, in order, by its text.
func (b *Bulk) Fill(src []byte) ([]byte, error) {
	if b == nil || len(b.parts) == 0 {
		return src, nil
	}
	size := len(src)
	for _, p := range b.parts {
		size += len(p)
	}
	out := make([]byte, 0, size)
	next := 0
	for line := range bytes.Lines(src) {
		if next < len(b.parts) && isPlaceholder(line, next) {
			out = append(out, b.parts[next]...)
			next++
			continue
		}
		out = append(out, line...)
	}
	if next != len(b.parts) {
		return nil, fmt.Errorf("flowc lost generated code (a bug in flowc, please report it): placeholder %d of %d not found", next, len(b.parts))
	}
	return out, nil
}

// isPlaceholder reports whether line is placeholder i in one of the forms the
// target writes: a constant, a list element, an embedded interface, a case,
// a variable or a function.
func isPlaceholder(line []byte, i int) bool {
	t := string(bytes.TrimSpace(line))
	t = strings.TrimPrefix(t, "case ")
	t = strings.TrimPrefix(t, "var ")
	t = strings.TrimSuffix(t, " int")
	t = strings.TrimPrefix(t, "func ")
	t = strings.TrimSuffix(t, "() {}")
	t = strings.TrimRight(t, ":,")
	return t == bulkMark+strconv.Itoa(i)
}

// ImportsContext reports whether a rendered file imports the standard
// context package under its own name, which bulk text assumes.
func ImportsContext(src []byte) bool {
	return bytes.Contains(src, []byte("\n\t\"context\"\n"))
}

// Aligned lays out "key: value" lines as gofmt does in a composite literal:
// values in one column. ok is false where gofmt's layout is not that simple:
// a key longer than 40 characters may break the column, and one outside
// ASCII may be measured otherwise.
func Aligned(indent string, keys, values []string) (text string, ok bool) {
	width := 0
	for _, k := range keys {
		if len(k) > 40 || strings.ContainsFunc(k, func(r rune) bool { return r >= 0x80 }) {
			return "", false
		}
		width = max(width, len(k))
	}
	var sb strings.Builder
	for i, k := range keys {
		sb.WriteString(indent + k + ":" + strings.Repeat(" ", width-len(k)+1) + values[i] + ",\n")
	}
	return sb.String(), true
}

// Disabled reports whether b writes everything through jennifer.
func (b *Bulk) Disabled() bool { return b == nil || b.Off }
