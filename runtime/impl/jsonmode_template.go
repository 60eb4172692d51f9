package impl

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/flowc-dev/flowc/runtime/jinja"
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

// render renders a parsed template's references.
func (s *JSONState) render(pieces []Piece) string {
	var b strings.Builder
	for _, p := range pieces {
		v, ok := s.lookup(p.Ref)
		if !ok {
			b.WriteString(p.Text)
			continue
		}
		// Plain JSON values always encode.
		text, _ := valueText(v)
		b.WriteString(text)
	}
	return b.String()
}

// renderPrompt renders a task or a system prompt as CodeMie's agent node
// does (agent_node.py, get_task): only when the state sets
// resolve_dynamic_values_in_prompt, then as a Jinja2 template over the
// context store (runtime/jinja), where in an iteration chain `task` is the
// item. Without it the text goes as written, but in an iteration chain,
// whose references CodeMie's documentation renders: {{task}}, the item,
// and the keys of the store, an object item's among them.
func (s *JSONState) renderPrompt(pieces []Piece, resolve bool) string {
	switch {
	case resolve:
		return jinja.Resolve(templateText(pieces), s.templateStore())
	case s.iterating:
		return s.render(pieces)
	}
	return templateText(pieces)
}

// templateText is a parsed template's text as written.
func templateText(pieces []Piece) string {
	var b strings.Builder
	for _, p := range pieces {
		b.WriteString(p.Text)
	}
	return b.String()
}

// templateStore is what a Jinja template reads: the context store, keys in
// order, and in an iteration chain `task`, the item.
func (s *JSONState) templateStore() jinja.Store {
	values := s.Context
	if s.iterating {
		values = maps.Clone(s.Context)
		if values == nil {
			values = map[string]any{}
		}
		values["task"] = s.Input
	}
	return jinja.Store{Keys: slices.Sorted(maps.Keys(values)), Values: values}
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
