package emit

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/ir"
)

// Render formats the file. Output that does not parse is a generator bug:
// it is reported, never written.
func Render(f *jen.File) ([]byte, error) {
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		return nil, fmt.Errorf("flowc generated invalid Go (a bug in flowc, please report it): %v", err)
	}
	return groupImports(buf.Bytes()), nil
}

// groupImports puts the standard library's imports apart from the others,
// as goimports would, so that the file passes the linters of the repos it
// lands in. jennifer has formatted the file and sorted its one import
// block, so each group stays sorted; a second pass through the formatter
// would double the time a large workflow takes to generate.
func groupImports(src []byte) []byte {
	const open, closing = "\nimport (\n", "\n)\n"
	start := bytes.Index(src, []byte(open))
	if start < 0 {
		return src
	}
	start += len(open)
	end := start + bytes.Index(src[start:], []byte(closing))
	var std, other [][]byte
	for line := range bytes.Lines(src[start : end+1]) {
		if isStd(line) {
			std = append(std, line)
		} else {
			other = append(other, line)
		}
	}
	if len(std) == 0 || len(other) == 0 {
		return src
	}
	out := make([]byte, 0, len(src)+1)
	out = append(out, src[:start]...)
	out = append(out, bytes.Join(std, nil)...)
	out = append(out, '\n')
	out = append(out, bytes.Join(other, nil)...)
	return append(out, src[end+1:]...)
}

// isStd reports whether an import line names a standard package: one whose
// path has no dot before its first slash.
func isStd(line []byte) bool {
	_, path, _ := bytes.Cut(line, []byte(`"`))
	return isStdPath(string(path))
}

// OneLine makes definition text safe inside a // comment: no line breaks,
// and characters Go source may not hold (NUL, a byte order mark) or that
// would hide text (other control and format characters) escaped as in a
// Go string; invalid UTF-8 becomes U+FFFD.
func OneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.ValidString(s) && !strings.ContainsFunc(s, Unprintable) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if Unprintable(r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Unprintable reports whether r must be escaped in a comment.
func Unprintable(r rune) bool { return !unicode.IsPrint(r) }

// Comment writes a line comment. The "// " prefix is added here, so jennifer
// prints it verbatim and text from a definition can never start a directive.
func Comment(text string) *jen.Statement {
	return jen.Comment("// " + OneLine(text))
}

// Multiline renders a composite literal one element per line, in the order
// given (jen.Dict would sort the keys).
var Multiline = jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}

// Doc writes a paragraph as line comments wrapped at 100 columns, the
// width of the rest of the generated code.
func Doc(f *jen.File, text string) {
	line := ""
	for _, word := range strings.Fields(text) {
		if line != "" && len(line)+1+len(word) > 96 {
			f.Add(Comment(line))
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += word
	}
	if line != "" {
		f.Add(Comment(line))
	}
}

// DropUnusedImport removes the import of path under alias when the file
// names nothing of it: a target's text template imports the machinery of
// the runtime before its body knows whether a workflow needs it.
func DropUnusedImport(src []byte, alias, path string) []byte {
	if bytes.Contains(src, []byte(alias+".")) {
		return src
	}
	return bytes.Replace(src, []byte("\t"+alias+" "+strconv.Quote(path)+"\n"), nil, 1)
}

// AnswerFromMocks is a mock method's body that returns what method of its
// flowcrun.Mocks answers with args.
func AnswerFromMocks(method string, args ...jen.Code) []jen.Code {
	return []jen.Code{jen.Return(jen.Id("m").Dot("mocks").Dot(method).Call(args...))}
}

// StepMethod is the unexported method that runs one state.
func StepMethod(s *ir.State) string { return "step" + s.GoName }
