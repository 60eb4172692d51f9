package impl

import (
	"slices"
	"strconv"
	"strings"
)

// Template references. A reference is a path into the context store: a
// key, then `.name` for a key of an object and `[n]` for an element of a
// list ({{user.profile.name}}, {{files[0].name}}); `task` is the task
// input. A path that leads nowhere renders as written.

// lookup resolves a reference path against the context store and the
// task input.
func (s *JSONState) lookup(ref string) (any, bool) {
	if ref == "" {
		return nil, false
	}
	steps, ok := splitPath(ref)
	if !ok {
		return nil, false
	}
	var v any
	if steps[0] == "task" {
		v = s.Input
	} else if v, ok = s.Context[steps[0]]; !ok {
		return nil, false
	}
	for _, st := range steps[1:] {
		if v, ok = pointerStep(v, st); !ok {
			return nil, false
		}
	}
	return v, true
}

// splitPath splits a.b[0].c into a, b, 0, c.
func splitPath(ref string) ([]string, bool) {
	var out []string
	for _, part := range strings.Split(ref, ".") {
		name, rest, _ := strings.Cut(part, "[")
		if name == "" && len(out) == 0 {
			return nil, false
		}
		if name != "" {
			out = append(out, name)
		}
		for rest != "" {
			idx, after, found := strings.Cut(rest, "]")
			if _, err := strconv.Atoi(idx); !found || err != nil {
				return nil, false
			}
			out = append(out, idx)
			rest = strings.TrimPrefix(after, "[")
		}
	}
	return out, len(out) > 0
}

// maxResolveDepth bounds how many levels of references inside referenced
// values are resolved, as CodeMie bounds it.
const maxResolveDepth = 10

// render renders a parsed template. With deep, a string value that holds
// references is rendered in turn, up to maxResolveDepth levels; a value
// that refers back to itself is left as it is.
func (s *JSONState) render(pieces []Piece) string {
	return s.renderDeep(pieces, false, nil)
}

func (s *JSONState) renderDeep(pieces []Piece, deep bool, visiting []string) string {
	var b strings.Builder
	for _, p := range pieces {
		v, ok := s.lookup(p.Ref)
		if !ok {
			b.WriteString(p.Text)
			continue
		}
		// Plain JSON values always encode.
		text, _ := valueText(v)
		if str, isStr := v.(string); isStr && deep && len(visiting) < maxResolveDepth && !slices.Contains(visiting, p.Ref) {
			text = s.renderDeep(parseTemplate(str), true, append(visiting, p.Ref))
		}
		b.WriteString(text)
	}
	return b.String()
}

// renderText renders the references in text, which the compiler did not
// parse: a value inside a structured tool argument, a tool's response.
func (s *JSONState) renderText(text string) string {
	return s.render(parseTemplate(text))
}

// parseTemplate splits text into literal pieces and references. What is
// between {{ and }} is a reference when it is a path, spaces around it
// allowed; anything else (a Jinja filter or expression) stays as written.
func parseTemplate(text string) []Piece {
	var out []Piece
	for {
		open := strings.Index(text, "{{")
		if open < 0 {
			break
		}
		for open+2 < len(text) && text[open+2] == '{' {
			open++
		}
		end := strings.Index(text[open+2:], "}}")
		if end < 0 {
			break
		}
		end += open + 2
		if open > 0 {
			out = append(out, Piece{Text: text[:open]})
		}
		ref := strings.TrimSpace(text[open+2 : end])
		if _, ok := splitPath(ref); !ok || strings.ContainsAny(ref, " \t|()'\"+") {
			ref = ""
		}
		out = append(out, Piece{Text: text[open : end+2], Ref: ref})
		text = text[end+2:]
	}
	if text != "" {
		out = append(out, Piece{Text: text})
	}
	return out
}

// renderValue renders the strings inside a structured value.
func (s *JSONState) renderValue(v any) any {
	switch v := v.(type) {
	case string:
		return s.renderText(v)
	case []any:
		out := make([]any, len(v))
		for i, item := range v {
			out[i] = s.renderValue(item)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, item := range v {
			out[k] = s.renderValue(item)
		}
		return out
	}
	return v
}
