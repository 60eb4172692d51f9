package flowyaml

import (
	"strings"
	"unicode"

	"gopkg.in/yaml.v3"

	"github.com/flowc-dev/flowc/ir"
	"github.com/flowc-dev/flowc/runtime/jinja"
)

// JSON-mode templates. In a workflow without a `state:` schema, a task, a
// system prompt and the values of `tool_args` are Jinja2 templates that
// CodeMie renders from the context store (runtime/jinja): tool_args
// always, a task and a system prompt only when their state sets
// resolve_dynamic_values_in_prompt, but for the references {{task}} and
// {{name}} in an iteration chain, which CodeMie documents. Their parts are
// parsed here: text and references {{path}}. A template Jinja2 cannot
// parse is no error: CodeMie sends it as written, and checkJinja warns
// where CodeMie would render it. A run of more than two braces keeps the
// extra ones as text ({{{x}}} is "{", x, "}").

// template parses text, the value of the scalar n, into parts; what names
// it in messages. Outside JSON mode templates are not rendered, so it
// returns nil.
func (l *lowerer) template(n *yaml.Node, text, what string) []ir.TemplatePart {
	if !l.json {
		return nil
	}
	where := l.Locate(n)
	at := func(i int) ir.Pos {
		if i < len(where) {
			return where[i]
		}
		return l.ContentPos(n).Shift(i)
	}
	runes := []rune(text)
	var parts []ir.TemplatePart
	lit := 0 // where the literal text not yet in parts starts
	for i := 0; i+1 < len(runes); i++ {
		if runes[i] != '{' || runes[i+1] != '{' {
			continue
		}
		for i+2 < len(runes) && runes[i+2] == '{' {
			i++
		}
		end := closing(runes, i+2)
		if end < 0 {
			break // literal text, as Jinja2's failure leaves it in CodeMie (checkJinja warns where it renders)
		}
		if lit < i {
			parts = append(parts, ir.TemplatePart{Text: string(runes[lit:i])})
		}
		parts = append(parts, ir.TemplatePart{Text: string(runes[i : end+2]), Ref: l.reference(runes, i, end, at, what)})
		i, lit = end+1, end+2
	}
	if lit < len(runes) {
		parts = append(parts, ir.TemplatePart{Text: string(runes[lit:])})
	}
	return parts
}

// checkJinja warns when a template CodeMie renders (a task its state has
// rendered, a tool argument) is no Jinja2 template: CodeMie sends it as
// written (dynamic_value_utils.py).
func (l *lowerer) checkJinja(n *yaml.Node, text, what string) {
	if err := jinja.Check(text); err != nil {
		l.Diags.Warnf(l.ContentPos(n), "%s is no Jinja2 template (%v): CodeMie sends it as written", what, err)
	}
}

// reference returns the path of the reference that opens at runes[open]
// and closes at runes[end]. Jinja beyond a path (filters, expressions)
// is not rendered: a warning says it stays as written.
func (l *lowerer) reference(runes []rune, open, end int, at func(int) ir.Pos, what string) string {
	name, bad := refName(runes[open+2 : end])
	switch {
	case name == "":
		return "" // literal: Jinja2 fails on it, and CodeMie sends the text as written
	case bad >= 0 && l.jinja:
		return "" // Jinja2 renders it
	case bad >= 0:
		l.Diags.Warnf(at(open+2+bad), "template syntax `%s` in %s is not rendered and stays as written: flowc renders references {{name}}, {{a.b}} and {{a[0]}}, where name is a key of the context store or `task`",
			string(runes[open:end+2]), what)
		return ""
	}
	return name
}

// closing returns the index of the `}}` that closes a reference whose
// name starts at from, or -1.
func closing(runes []rune, from int) int {
	for j := from; j+1 < len(runes); j++ {
		if runes[j] == '}' && runes[j+1] == '}' {
			return j
		}
	}
	return -1
}

// refName returns the path inside {{ }}, spaces around it trimmed, and the
// index in inner of the character that makes it no path, or -1. A path is
// names of letters, digits, _ and -, joined by dots, each maybe followed
// by [n] indexes; the character blamed is the first that cannot be there,
// else the first space (`{{a b}}`).
func refName(inner []rune) (string, int) {
	name := strings.TrimSpace(string(inner))
	lead := len(inner) - len([]rune(strings.TrimLeftFunc(string(inner), unicode.IsSpace)))
	space := -1
	rs := []rune(name)
	for j, r := range rs {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-':
		case pathPunct(rs, j):
		case unicode.IsSpace(r):
			if space < 0 {
				space = lead + j
			}
		default:
			return name, lead + j
		}
	}
	return name, space
}

// pathPunct reports whether the dot or bracket at rs[j] fits a path: a
// dot between names, brackets around digits after a name.
func pathPunct(rs []rune, j int) bool {
	nameChar := func(i int) bool {
		return i >= 0 && i < len(rs) && (unicode.IsLetter(rs[i]) || unicode.IsDigit(rs[i]) || rs[i] == '_' || rs[i] == '-')
	}
	switch rs[j] {
	case '.':
		return j > 0 && (nameChar(j-1) || rs[j-1] == ']') && nameChar(j+1)
	case '[':
		return j > 0 && (nameChar(j-1) || rs[j-1] == ']') && j+1 < len(rs) && unicode.IsDigit(rs[j+1])
	case ']':
		return j > 0 && unicode.IsDigit(rs[j-1])
	}
	return false
}
