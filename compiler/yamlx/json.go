package yamlx

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/flowc-dev/flowc/ir"
)

// ParseSource reads a definition's source into its root node: by the
// rules of JSON when r.File ends in .json, else as YAML.
//
// yaml.v3 reads JSON as the YAML it also is, which gives every node its
// position, but YAML spells some strings otherwise: it has no \/ escape,
// no surrogate pairs (\ud834\udd1e), and it refuses some characters JSON
// allows raw in a string (DEL, C1 controls, U+FFFE) or takes them for line
// breaks (U+0085, U+2028, U+2029). So the strings of a valid JSON file are
// respelt, each character meaning what encoding/json makes of it, before
// yaml.v3 reads them, and the nodes are moved back to their columns in
// src. A .json file that is not valid JSON is read as YAML; notJSON then
// says where encoding/json stopped, for a dialect that takes JSON alone
// (the States Language, as AWS does) to report.
func (r *Reader) ParseSource(src []byte) (root *yaml.Node, notJSON *NotJSON) {
	if !strings.HasSuffix(r.File, ".json") {
		return r.Parse(src), nil
	}
	if !json.Valid(src) {
		return r.Parse(src), notJSONAt(r.File, src)
	}
	resp := respell(src)
	root = r.Parse(resp.out)
	resp.restore(root)
	return root, nil
}

// NotJSON is where and why encoding/json refused a .json file that yaml.v3
// read, such as one with a trailing comma.
type NotJSON struct {
	Pos ir.Pos
	Err error
}

// Report adds the refusal to r's diagnostics.
func (n *NotJSON) Report(r *Reader) { r.Diags.Errorf(n.Pos, "invalid JSON: %v", n.Err) }

// notJSONAt places encoding/json's error in src at the offending character.
func notJSONAt(file string, src []byte) *NotJSON {
	dec := json.NewDecoder(bytes.NewReader(src))
	var v any
	err := dec.Decode(&v)
	if err == nil { // valid JSON followed by more: json.Valid refused the rest
		err = fmt.Errorf("more after the JSON value")
	}
	offset := dec.InputOffset()
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		offset = syn.Offset
	}
	return &NotJSON{Pos: offsetPos(file, src, offset), Err: err}
}

// offsetPos turns a byte offset into a line and column; encoding/json
// points just past the offending character.
func offsetPos(file string, src []byte, offset int64) ir.Pos {
	offset = max(min(offset, int64(len(src))), 1)
	before := src[:offset-1]
	line := bytes.Count(before, []byte("\n")) + 1
	col := len(before) - bytes.LastIndexByte(before, '\n')
	return ir.Pos{File: file, Line: line, Col: col}
}

// respelling is a JSON source with its strings spelt for yaml.v3, and the
// column shifts that made on each line.
type respelling struct {
	out    []byte
	line   int                // 1-based, the same in both texts: no line break is added or removed
	col    int                // column of the next character of out, 1-based, in characters as yaml.v3 counts
	shift  int                // column in src minus column in out, from col on
	shifts map[int][]colShift // by line
}

// colShift: from column from of out on (to the next shift), a node's
// column in src is its column in out plus by.
type colShift struct{ from, by int }

// respell respells the strings of src, which is valid JSON. Outside
// strings JSON has only ASCII, copied as it is.
func respell(src []byte) *respelling {
	r := &respelling{out: make([]byte, 0, len(src)), line: 1, col: 1, shifts: map[int][]colShift{}}
	inString := false
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case !inString:
			r.copy(src[i : i+1])
			if c == '"' {
				inString = true
			}
			i++
		case c == '"':
			r.copy(src[i : i+1])
			inString = false
			i++
		case c == '\\':
			i += r.escape(src[i:])
		default:
			i += r.char(src[i:])
		}
	}
	return r
}

// copy writes text of one character per byte (ASCII) as it is.
func (r *respelling) copy(text []byte) {
	r.out = append(r.out, text...)
	if len(text) == 1 && text[0] == '\n' {
		r.line, r.col, r.shift = r.line+1, 1, 0
		return
	}
	r.col += len(text)
}

// write puts text (ASCII) for srcCols characters of src.
func (r *respelling) write(text string, srcCols int) {
	r.out = append(r.out, text...)
	r.col += len(text)
	if srcCols != len(text) {
		r.shift += srcCols - len(text)
		r.shifts[r.line] = append(r.shifts[r.line], colShift{from: r.col, by: r.shift})
	}
}

// escape respells the escape at the start of s and returns its length:
// \/ is a plain slash, a surrogate pair the character it encodes, and a
// lone surrogate U+FFFD, as encoding/json decodes them.
func (r *respelling) escape(s []byte) int {
	switch s[1] {
	case '/':
		r.write("/", 2)
		return 2
	case 'u':
		c1 := hex4(s[2:6])
		if !utf16.IsSurrogate(c1) {
			r.copy(s[:6])
			return 6
		}
		if len(s) >= 12 && s[6] == '\\' && s[7] == 'u' {
			if c := utf16.DecodeRune(c1, hex4(s[8:12])); c != utf8.RuneError {
				r.write(fmt.Sprintf(`\U%08X`, c), 12)
				return 12
			}
		}
		r.write(`\uFFFD`, 6)
		return 6
	}
	r.copy(s[:2])
	return 2
}

// char respells the raw character at the start of s and returns its
// length in bytes: one yaml.v3 refuses or takes for a line break becomes
// an escape, an invalid byte U+FFFD.
func (r *respelling) char(s []byte) int {
	c, size := utf8.DecodeRune(s)
	switch {
	case c == utf8.RuneError && size == 1:
		r.write(`\uFFFD`, 1)
	case !yamlPrintable(c):
		r.write(fmt.Sprintf(`\u%04X`, c), 1)
	default:
		r.out = append(r.out, s[:size]...)
		r.col++
	}
	return size
}

// yamlPrintable reports whether yaml.v3 reads c raw inside a quoted
// string as itself (YAML 1.2 §5.1 c-printable, less its line breaks).
func yamlPrintable(c rune) bool {
	switch {
	case c == 0x85, c == 0x2028, c == 0x2029:
		return false
	case c == '\t', c >= 0x20 && c <= 0x7E:
		return true
	}
	return c >= 0xA0 && c <= 0xD7FF || c >= 0xE000 && c <= 0xFFFD || c >= 0x10000 && c <= utf8.MaxRune
}

func hex4(s []byte) rune {
	var c rune
	for _, h := range s {
		switch {
		case h >= '0' && h <= '9':
			c = c<<4 | rune(h-'0')
		case h >= 'a' && h <= 'f':
			c = c<<4 | rune(h-'a'+10)
		default:
			c = c<<4 | rune(h-'A'+10)
		}
	}
	return c
}

// restore moves n and the nodes under it back to their columns in src.
func (r *respelling) restore(n *yaml.Node) {
	if n == nil {
		return
	}
	var by int
	for _, s := range r.shifts[n.Line] {
		if s.from > n.Column {
			break
		}
		by = s.by
	}
	n.Column += by
	for _, c := range n.Content {
		r.restore(c)
	}
}
