package asl

import (
	"errors"
	"fmt"
	"strings"
	"unicode"

	"github.com/flowc-dev/flowc/ir"
	"github.com/flowc-dev/flowc/runtime/jsonpath"
)

// The JSONPath of the States Language is Jayway JsonPath, which Step
// Functions evaluates: `$` (the input), `$$` (the context object) or
// `$name` (a variable), then what runtime/jsonpath reads: names, indexes,
// wildcards, deep scan, unions, slices, filters and path functions. It is
// parsed here to report errors where they are; the generated code keeps
// the text, which the runtime parses the same way. A reference path, which
// AWS asks for where a single node must be named (ResultPath), allows only
// names and indexes, which become the path's segments.

// pathError is a problem at byte offset At of the path text.
type pathError struct {
	At  int
	Msg string
}

// parsePath checks src; reference limits it to a reference path and
// allowContext admits `$$` and variables (`$name`).
func parsePath(src string, reference, allowContext bool) (*ir.Path, *pathError) {
	path := &ir.Path{Source: src}
	if !strings.HasPrefix(src, "$") {
		return nil, &pathError{0, fmt.Sprintf("a path starts with `$`, got %q", src)}
	}
	rootLen := 1
	switch {
	case strings.HasPrefix(src, "$$"):
		if !allowContext {
			return nil, &pathError{0, "the context object (`$$`) cannot be used here"}
		}
		path.Context, rootLen = true, 2
	case len(src) > 1 && isNameStart(rune(src[1])):
		if !allowContext {
			return nil, &pathError{0, "a variable cannot be used here"}
		}
		path.Var = variableName(src[1:])
		rootLen += len(path.Var)
	}
	// The query starts at the `$` of the root, which stands for what the
	// root reads.
	query, err := jsonpath.Parse("$" + src[rootLen:])
	if err != nil {
		return nil, queryError(err, rootLen-1)
	}
	if reference {
		steps, err := query.Steps()
		if err != nil {
			e := queryError(err, rootLen-1)
			e.Msg = "a reference path names a single node: only `.name`, `['name']` and `[n]` are allowed here"
			return nil, e
		}
		path.Segments = segments(steps)
	}
	return path, nil
}

// queryError places an error of runtime/jsonpath in the path text, the
// query starting shift bytes in.
func queryError(err error, shift int) *pathError {
	var syntax *jsonpath.SyntaxError
	if errors.As(err, &syntax) {
		return &pathError{syntax.Offset + shift, syntax.Msg}
	}
	return &pathError{shift, err.Error()}
}

func segments(steps []jsonpath.Step) []ir.Segment {
	segs := make([]ir.Segment, len(steps))
	for i, s := range steps {
		segs[i] = ir.Segment{Kind: ir.SegField, Name: s.Name}
		if s.IsIndex {
			segs[i] = ir.Segment{Kind: ir.SegIndex, Index: s.Index}
		}
	}
	return segs
}

// noteVarPath keeps p for checkVarPaths when it reads a variable.
func (l *lowerer) noteVarPath(p *ir.Path) {
	if p.Var != "" {
		l.varPaths = append(l.varPaths, p)
	}
}

// noteVarPaths notes the paths among the arguments of call, at any depth.
func (l *lowerer) noteVarPaths(call *ir.Intrinsic) {
	for _, a := range call.Args {
		if a.Path != nil {
			l.noteVarPath(a.Path)
		}
		if a.Call != nil {
			l.noteVarPaths(a.Call)
		}
	}
}

// checkVarPaths reports, once the whole machine is lowered, every `$name`
// path whose variable no Assign sets. Such a path would fail at run time,
// and read as a JSONPath it is no path at all: Jayway and the consensus
// of JSONPath implementations reject `$a`, which needs `.` or `[` after
// the `$` (json-path-comparison, dot_notation_without_dot).
func (l *lowerer) checkVarPaths() {
	for _, p := range l.varPaths {
		if !l.assigned[p.Var] {
			l.Diags.Errorf(p.Pos.Shift(1), "invalid path %q: no Assign sets a variable %q, and a path into the input needs `.` or `[` after `$` (`$.%s`)", p.Source, p.Var, p.Var)
		}
	}
	l.varPaths = nil
}

// variableName reads the name of a variable at the start of s: up to a
// `.`, a bracket, a parenthesis, a quote or a space.
func variableName(s string) string {
	if i := strings.IndexAny(s, ".[]()'\" "); i >= 0 {
		return s[:i]
	}
	return s
}

// isNameStart reports whether c may begin a variable name.
func isNameStart(c rune) bool { return c == '_' || unicode.IsLetter(c) || c >= 0x80 }

// pathEnd returns where a path written inside other text (a filter, an
// intrinsic call) ends: at one of the bytes of stops outside brackets,
// parentheses and quotes.
func pathEnd(src string, i int, stops string) int {
	depth, quote := 0, byte(0)
	for ; i < len(src); i++ {
		c := src[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '[' || c == '(':
			depth++
		case (c == ']' || c == ')') && depth > 0:
			depth--
		case depth == 0 && strings.IndexByte(stops, c) >= 0:
			return i
		}
	}
	return len(src)
}
