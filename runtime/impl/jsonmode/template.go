package jsonmode

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/flowc-dev/flowc/runtime/jinja"
	"github.com/flowc-dev/flowc/runtime/pyexpr"

	"github.com/flowc-dev/flowc/runtime/impl"
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
		text, _ := impl.ValueText(v)
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

// taskText is the task a state's handler gets, as CodeMie's agent node
// builds it (agent_node.py, get_task): a state an iteration sends items to
// has "Current task: " and the item, as Python prints it, appended to its
// task ("-" when it has none) before the task is rendered; outside an
// iteration that state reads no item and the line ends empty.
func (s *JSONState) taskText(t *JSONTask) string {
	if !t.CurrentTask {
		return s.renderPrompt(t.Task, t.Resolve)
	}
	var item any = ""
	if s.iterating {
		item = s.Input
	}
	line := "\nCurrent task: " + pyexpr.Str(item)
	task := t.Task
	if templateText(task) == "" {
		task = []Piece{{Text: "-"}}
	}
	if t.Resolve {
		return jinja.Resolve(templateText(task)+line, s.templateStore())
	}
	return s.renderPrompt(task, false) + line
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
// order, and in an iteration chain an object item's keys and `task`, the
// item (agent_node.py, get_task, and tool_node.py, _get_tool_args, add the
// item's keys; the seed page names the item {{task}}).
func (s *JSONState) templateStore() jinja.Store {
	return s.storeOf(s.Context)
}

// storeOf is values as a template store, with the iteration's item as in
// templateStore.
func (s *JSONState) storeOf(values map[string]any) jinja.Store {
	if s.iterating {
		values = maps.Clone(values)
		if values == nil {
			values = map[string]any{}
		}
		if obj, ok := s.Input.(map[string]any); ok {
			maps.Copy(values, obj)
		}
		values["task"] = s.Input
	}
	return jinja.Store{Keys: slices.Sorted(maps.Keys(values)), Values: values}
}

// argStore is what a tool's arguments render from: the template store,
// or with the tool's input_key the object at that path of the context
// store (nothing when it holds no object) with the iteration's item
// (tool_node.py, _get_tool_args).
func (s *JSONState) argStore(tool *JSONTool) jinja.Store {
	if tool == nil || tool.InputKey == "" {
		return s.templateStore()
	}
	ns, _ := s.lookup(tool.InputKey)
	values, _ := ns.(map[string]any)
	return s.storeOf(values)
}
