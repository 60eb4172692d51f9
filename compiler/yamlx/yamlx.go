// Package yamlx reads yaml.v3 node trees strictly: every key must be known,
// every scalar must have the expected type, and every problem is reported at
// its position instead of stopping at the first.
package yamlx

import (
	"bytes"
	"sort"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/flowc-dev/flowc/compiler/diag"
	"github.com/flowc-dev/flowc/ir"
)

// Reader turns nodes of one file into values, collecting diagnostics.
type Reader struct {
	File  string
	Diags diag.List
	src   []byte   // the document, for locating text inside scalars
	lines [][]rune // src split into lines, made on first use

	// Foreign holds the nodes grafted in from another document (an Agent
	// State Language Override), with that document's reader, so that
	// their positions name the file they were written in.
	Foreign map[*yaml.Node]*Reader
}

// Parse decodes a document into its root node. yaml.v3 gives a syntax
// error's line only approximately (often the line where the construct began)
// and no column, so the column is 1 and the line is found by errorLine.
func (r *Reader) Parse(src []byte) *yaml.Node {
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		r.Diags.Errorf(ir.Pos{File: r.File, Line: errorLine(src, err), Col: 1}, "%s", r.syntaxMessage(err))
		return nil
	}
	r.src = src
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		r.Diags.Errorf(ir.Pos{File: r.File, Line: 1, Col: 1}, "empty document")
		return nil
	}
	return doc.Content[0]
}

// errorLine finds the line of a syntax error: the first line from the one
// yaml.v3 names on at which a prefix of the document already fails the same
// way. The search is bounded, so a large file with an error costs little.
func errorLine(src []byte, err error) int {
	reported := syntaxLine(err)
	lines := bytes.SplitAfter(src, []byte("\n"))
	for end := max(reported, 1); end <= len(lines) && end <= reported+50; end++ {
		var n yaml.Node
		prefixErr := yaml.Unmarshal(bytes.Join(lines[:end], nil), &n)
		if prefixErr != nil && prefixErr.Error() == err.Error() {
			return end
		}
	}
	return reported
}

// syntaxLine digs the line number out of yaml.v3's "yaml: line N: ..." text.
func syntaxLine(err error) int {
	msg := err.Error()
	if i := strings.Index(msg, "line "); i >= 0 {
		rest := msg[i+len("line "):]
		if j := strings.IndexByte(rest, ':'); j > 0 {
			if n, convErr := strconv.Atoi(rest[:j]); convErr == nil {
				return n
			}
		}
	}
	return 1
}

// syntaxMessage names the format the file is in: JSON files are parsed as
// the YAML they also are, but their authors think of them as JSON.
func (r *Reader) syntaxMessage(err error) string {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if i := strings.Index(msg, ": "); i >= 0 && strings.HasPrefix(msg, "line ") {
		msg = msg[i+2:]
	}
	format := "YAML"
	if strings.HasSuffix(r.File, ".json") {
		format = "JSON"
	}
	return "invalid " + format + ": " + msg
}

// Pos is the position of a node.
func (r *Reader) Pos(n *yaml.Node) ir.Pos {
	if n == nil {
		return ir.Pos{File: r.File}
	}
	if f := r.Foreign[n]; f != nil {
		return f.Pos(n)
	}
	return ir.Pos{File: r.File, Line: n.Line, Col: n.Column}
}

// Entry is one key/value pair of a mapping.
type Entry struct {
	Key   *yaml.Node
	Value *yaml.Node
}

// Map is a mapping whose keys were checked against the allowed set.
type Map struct {
	Node    *yaml.Node
	Entries map[string]Entry
}

// Has reports whether the key was given.
func (m Map) Has(key string) bool {
	_, ok := m.Entries[key]
	return ok
}

// Get returns the value of key, or nil.
func (m Map) Get(key string) *yaml.Node { return m.Entries[key].Value }

// Mapping checks that n is a mapping whose keys are all in known; an unknown
// key is an error at the key with a suggestion, a repeated key an error too.
func (r *Reader) Mapping(n *yaml.Node, what string, known ...string) (Map, bool) {
	m := Map{Node: n, Entries: map[string]Entry{}}
	if n == nil || n.Kind != yaml.MappingNode {
		r.Diags.Errorf(r.Pos(n), "%s must be a mapping", what)
		return m, false
	}
	for _, e := range r.Pairs(n) {
		key := e.Key.Value
		if !contains(known, key) {
			r.Diags.Errorf(r.Pos(e.Key), "unknown key `%s` in %s%s", key, what, diag.DidYouMean(key, known))
			continue
		}
		m.Entries[key] = e
	}
	return m, true
}

// Pairs lists a mapping's entries in source order, reporting repeated keys
// and non-scalar keys.
func (r *Reader) Pairs(n *yaml.Node) []Entry {
	var out []Entry
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			r.Diags.Errorf(r.Pos(k), "keys must be plain strings")
			continue
		}
		if seen[k.Value] {
			r.Diags.Errorf(r.Pos(k), "key `%s` repeated", k.Value)
			continue
		}
		seen[k.Value] = true
		out = append(out, Entry{Key: k, Value: v})
	}
	return out
}

// Seq checks that n is a sequence and returns its items.
func (r *Reader) Seq(n *yaml.Node, what string) []*yaml.Node {
	if n.Kind != yaml.SequenceNode {
		r.Diags.Errorf(r.Pos(n), "%s must be a list", what)
		return nil
	}
	return n.Content
}

// String reads a scalar as a string. Numbers keep their text (`when: 3`);
// booleans and nulls are rejected so that `when: yes` or an empty value does
// not silently change meaning.
func (r *Reader) String(n *yaml.Node, what string) (string, bool) {
	if n.Kind == yaml.ScalarNode && (n.Tag == "!!str" || n.Tag == "!!int" || n.Tag == "!!float") {
		return n.Value, true
	}
	r.Diags.Errorf(r.Pos(n), "%s must be a string", what)
	return "", false
}

// Strings reads a list of strings; a single string is accepted as a list of one.
func (r *Reader) Strings(n *yaml.Node, what string) []string {
	if n.Kind == yaml.ScalarNode {
		s, _ := r.String(n, what)
		return []string{s}
	}
	var out []string
	for _, item := range r.Seq(n, what) {
		if s, ok := r.String(item, what); ok {
			out = append(out, s)
		}
	}
	return out
}

// Bool reads a boolean scalar.
func (r *Reader) Bool(n *yaml.Node, what string) bool {
	var b bool
	if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" || n.Decode(&b) != nil {
		r.Diags.Errorf(r.Pos(n), "%s must be true or false", what)
	}
	return b
}

// Int reads an integer scalar within [lo, hi].
func (r *Reader) Int(n *yaml.Node, what string, lo, hi int) int {
	v, err := strconv.Atoi(n.Value)
	if n.Kind != yaml.ScalarNode || n.Tag != "!!int" || err != nil {
		r.Diags.Errorf(r.Pos(n), "%s must be a whole number", what)
		return 0
	}
	if v < lo || v > hi {
		r.Diags.Errorf(r.Pos(n), "%s must be between %d and %d, got %d", what, lo, hi, v)
	}
	return v
}

// Float reads a number within [lo, hi].
func (r *Reader) Float(n *yaml.Node, what string, lo, hi float64) float64 {
	v, err := strconv.ParseFloat(n.Value, 64)
	if n.Kind != yaml.ScalarNode || (n.Tag != "!!int" && n.Tag != "!!float") || err != nil {
		r.Diags.Errorf(r.Pos(n), "%s must be a number", what)
		return 0
	}
	if v < lo || v > hi {
		r.Diags.Errorf(r.Pos(n), "%s must be between %g and %g, got %g", what, lo, hi, v)
	}
	return v
}

// Duration reads a Go duration ("1.5s", "2m") or a number of seconds.
func (r *Reader) Duration(n *yaml.Node, what string) time.Duration {
	if n.Kind == yaml.ScalarNode && (n.Tag == "!!int" || n.Tag == "!!float") {
		secs, err := strconv.ParseFloat(n.Value, 64)
		if err == nil && secs >= 0 && secs <= 1e9 {
			return time.Duration(secs * float64(time.Second))
		}
	}
	d, err := time.ParseDuration(n.Value)
	if n.Kind != yaml.ScalarNode || err != nil || d < 0 {
		r.Diags.Errorf(r.Pos(n), "%s must be a duration such as 30s or 1m30s, got %q", what, n.Value)
		return 0
	}
	return d
}

// ContentPos is the position of a scalar's first content character: one
// column past the opening quote of a quoted scalar.
func (r *Reader) ContentPos(n *yaml.Node) ir.Pos {
	p := r.Pos(n)
	if n.Style == yaml.DoubleQuotedStyle || n.Style == yaml.SingleQuotedStyle {
		p.Col++
	}
	if n.Style == yaml.LiteralStyle || n.Style == yaml.FoldedStyle {
		p.Line++
		p.Col = 1
	}
	return p
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// SortedKeys returns a map's keys in order, for deterministic messages.
func SortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Locate returns the file position of every rune of a scalar's value. The
// value and its source differ by quotes, escapes, indentation and folded
// line breaks, so the two are walked side by side: a value rune is matched
// with the next source rune equal to it, a space or line break of the value
// may stand for a line break of the source, and the source runes in between
// (quotes, backslashes, indentation) are skipped. Nil without the source.
func (r *Reader) Locate(n *yaml.Node) []ir.Pos {
	if f := r.Foreign[n]; f != nil {
		return f.Locate(n)
	}
	if r.src == nil || n.Kind != yaml.ScalarNode || n.Line < 1 {
		return nil
	}
	if r.lines == nil {
		// Once per file: Locate runs for every expression, and splitting
		// the whole file each time made compiling quadratic in its size.
		r.lines = runeLines(r.src)
	}
	start := r.ContentPos(n)
	c := &cursor{lines: r.lines, line: start.Line - 1, col: start.Col - 1}
	if n.Style == yaml.LiteralStyle || n.Style == yaml.FoldedStyle {
		c.skipBlank()
	}
	value := []rune(n.Value)
	out := make([]ir.Pos, len(value))
	for i, v := range value {
		out[i] = c.match(v, r.File)
	}
	return out
}

// cursor walks the source rune by rune, knowing its line and column.
type cursor struct {
	lines     [][]rune
	line, col int // 0-based
}

func runeLines(src []byte) [][]rune {
	var lines [][]rune
	for _, l := range bytes.SplitAfter(src, []byte("\n")) {
		lines = append(lines, []rune(string(l)))
	}
	return lines
}

// maxSkip bounds how far a value rune is looked for: escapes and
// indentation are short, so a longer gap means the two have drifted apart.
const maxSkip = 16

func (c *cursor) at() (rune, bool) {
	if c.line >= len(c.lines) || c.col >= len(c.lines[c.line]) {
		return 0, false
	}
	return c.lines[c.line][c.col], true
}

func (c *cursor) advance() {
	if r, ok := c.at(); ok && r == '\n' {
		c.line, c.col = c.line+1, 0
		return
	}
	c.col++
}

func (c *cursor) pos(file string) ir.Pos { return ir.Pos{File: file, Line: c.line + 1, Col: c.col + 1} }

func (c *cursor) match(v rune, file string) ir.Pos {
	saveLine, saveCol := c.line, c.col
	for i := 0; i < maxSkip; i++ {
		r, ok := c.at()
		if !ok {
			break
		}
		if r == v || (r == '\n' && (v == ' ' || v == '\n')) {
			p := c.pos(file)
			c.advance()
			if r == '\n' {
				c.skipIndent()
			}
			return p
		}
		c.advance()
	}
	c.line, c.col = saveLine, saveCol
	return c.pos(file)
}

// skipIndent moves past the indentation at the start of a line.
func (c *cursor) skipIndent() {
	for r, ok := c.at(); ok && (r == ' ' || r == '\t'); r, ok = c.at() {
		c.col++
	}
}

// skipBlank moves to the first content rune of a block scalar, past the rest
// of its header line and any blank lines.
func (c *cursor) skipBlank() {
	c.col = 0
	for c.line < len(c.lines) && len(bytes.TrimSpace([]byte(string(c.lines[c.line])))) == 0 {
		c.line++
	}
	c.skipIndent()
}
