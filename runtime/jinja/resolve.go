package jinja

import (
	"regexp"
	"slices"

	"github.com/flowc-dev/flowc/runtime/pyexpr"
)

// Store is a context store: its keys in order, and their values.
type Store struct {
	Keys   []string
	Values map[string]any
}

// Resolve renders source with the store as the engine's process_string
// does (dynamic_value_utils.py): with an empty store the source stays as
// written; else each string value of the store is first rendered itself,
// the values it names before it (recursive resolution, on by default), and
// source is rendered with the result. A template that fails to render
// stays as written, as the engine keeps it.
func Resolve(source string, store Store) string {
	if len(store.Keys) == 0 {
		return source
	}
	// process_string passes the source to process_values under the name
	// "string_value", so a store value of that name wins.
	out := resolveValue("string_value", source, resolveStore(store))
	if s, ok := out.(string); ok {
		return s
	}
	return pyexpr.Str(out)
}

// ResolveValues renders the values of a tool's arguments as the engine's
// process_values does (dynamic_value_utils.py): with an empty store they
// stay as written; else, the store resolved as for Resolve, an argument
// named like a key of the store whose value is not None takes that value,
// whatever its type (_resolve_dynamic_values); any other string is
// rendered as a template, kept as written when that fails; other values
// stay as they are, strings inside them unrendered.
func ResolveValues(args map[string]any, store Store) map[string]any {
	out := make(map[string]any, len(args))
	if len(store.Keys) == 0 {
		for k, v := range args {
			out[k] = v
		}
		return out
	}
	resolved := resolveStore(store)
	for k, v := range args {
		out[k] = resolveValue(k, v, resolved)
	}
	return out
}

func resolveValue(key string, v any, resolved map[string]any) any {
	if named, ok := resolved[key]; ok && named != nil {
		return named
	}
	s, ok := v.(string)
	if !ok {
		return v
	}
	if out, err := render(s, resolved); err == nil {
		return out
	}
	return s
}

// dependencyPattern finds the names a value's template starts an output
// with (dynamic_value_utils.py, _extract_template_dependencies).
var dependencyPattern = regexp.MustCompile(`\{\{\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*[^}]*\}\}`)

// resolveStore renders the string values of the store in dependency order
// (dynamic_value_utils.py, _resolve_dynamic_values_recursively): each with
// the values resolved before it, keeping a value that fails to render.
func resolveStore(store Store) map[string]any {
	resolved := make(map[string]any, len(store.Keys))
	for _, k := range resolutionOrder(store) {
		v := store.Values[k]
		if s, ok := v.(string); ok {
			if out, err := render(s, resolved); err == nil {
				v = out
			}
		}
		resolved[k] = v
	}
	return resolved
}

// resolutionOrder is Kahn's order of the store's keys by dependency, or the
// store's own order when the dependencies have a cycle
// (dynamic_value_utils.py, _topological_sort and _prepare_resolution_order).
func resolutionOrder(store Store) []string {
	deps := make(map[string][]string, len(store.Keys))
	inDegree := make(map[string]int, len(store.Keys))
	for _, k := range store.Keys {
		s, _ := store.Values[k].(string)
		for _, m := range dependencyPattern.FindAllStringSubmatch(s, -1) {
			if _, ok := store.Values[m[1]]; ok && !slices.Contains(deps[k], m[1]) {
				deps[k] = append(deps[k], m[1])
			}
		}
		inDegree[k] = len(deps[k])
	}
	var queue, order []string
	for _, k := range store.Keys {
		if inDegree[k] == 0 {
			queue = append(queue, k)
		}
	}
	for len(queue) > 0 {
		current := queue[0]
		queue = queue[1:]
		order = append(order, current)
		for _, k := range store.Keys {
			if slices.Contains(deps[k], current) {
				if inDegree[k]--; inDegree[k] == 0 {
					queue = append(queue, k)
				}
			}
		}
	}
	if len(order) != len(store.Keys) {
		return store.Keys
	}
	return order
}
