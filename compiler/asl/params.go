package asl

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/flowc-dev/flowc/compiler/yamlx"
	"github.com/flowc-dev/flowc/ir"
)

// A template workflow declares `Parameters` at the top and uses them as
// {{name}}, {{name | default: 'x'}}, {{name | upper}}, {{name | lower}} or
// {{name | json}} inside its strings. flowc substitutes them when it
// compiles, so they may name states, agents and paths: an Include state
// sets them, and a template compiled on its own takes their Defaults.

var placeholder = regexp.MustCompile(`\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\|\s*(default:\s*'([^']*)'|upper|lower|json)\s*)?\}\}`)

var paramKeys = []string{"Type", "Description", "Required", "Default", "Enum"}

// substitute replaces the placeholders of the workflow root with the
// parameters' values: given ones, else Defaults.
func (l *lowerer) substitute(root *yaml.Node, given map[string]any, at ir.Pos) {
	if root == nil || root.Kind != yaml.MappingNode {
		return
	}
	var decl *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "Parameters" {
			decl = root.Content[i+1]
		}
	}
	values := l.paramValues(decl, given, at)
	if decl == nil {
		return // not a template: {{...}} in its strings is text
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i+1] != decl {
			l.fill(root.Content[i+1], values)
		}
	}
}

// paramValues reads the declarations: each parameter's value is the one
// given, else its Default; a Required one without either is a warning and
// takes its first Enum value or the zero value of its Type.
func (l *lowerer) paramValues(decl *yaml.Node, given map[string]any, at ir.Pos) map[string]any {
	values := map[string]any{}
	if decl == nil {
		for _, k := range yamlx.SortedKeys(given) {
			l.Diags.Errorf(at, "the template takes no parameter %q", k)
		}
		return values
	}
	if decl.Kind != yaml.MappingNode {
		l.Diags.Errorf(l.Pos(decl), "Parameters must be an object of parameter declarations")
		return values
	}
	for _, e := range l.Pairs(decl) {
		m, ok := l.Mapping(e.Value, "parameter "+quote(e.Key.Value), paramKeys...)
		if !ok {
			values[e.Key.Value] = nil // declared, if badly: no second error where it is used
			continue
		}
		v, isGiven := given[e.Key.Value]
		switch {
		case isGiven:
		case m.Has("Default"):
			v = l.jsonValue(m.Get("Default"))
		default:
			v = l.zeroParam(m)
			if r := m.Get("Required"); r != nil && l.Bool(r, "Required") {
				l.Diags.Warnf(l.Pos(e.Key), "template parameter %q is required and not set; compiled on its own the template uses %s", e.Key.Value, jsonText(v))
			}
		}
		if enum := m.Get("Enum"); enum != nil && !l.inEnum(v, enum) {
			l.Diags.Errorf(l.Pos(e.Key), "template parameter %q is %s, not one of its Enum", e.Key.Value, jsonText(v))
		}
		values[e.Key.Value] = v
	}
	for _, k := range yamlx.SortedKeys(given) {
		if _, ok := values[k]; !ok {
			l.Diags.Errorf(at, "the template takes no parameter %q", k)
		}
	}
	return values
}

func (l *lowerer) zeroParam(m yamlx.Map) any {
	if enum := m.Get("Enum"); enum != nil && enum.Kind == yaml.SequenceNode && len(enum.Content) > 0 {
		return l.jsonValue(enum.Content[0])
	}
	t := ""
	if n := m.Get("Type"); n != nil {
		t, _ = l.String(n, "Type")
	}
	switch t {
	case "integer", "number":
		return 0.0
	case "boolean":
		return false
	case "array":
		return []any{}
	case "object":
		return map[string]any{}
	}
	return ""
}

func (l *lowerer) inEnum(v any, enum *yaml.Node) bool {
	if enum.Kind != yaml.SequenceNode {
		l.Diags.Errorf(l.Pos(enum), "Enum must be a list of values")
		return true
	}
	for _, item := range enum.Content {
		if jsonText(l.jsonValue(item)) == jsonText(v) {
			return true
		}
	}
	return false
}

// fill substitutes inside n, keys and values. A string that is one
// placeholder takes the parameter's value with its type.
func (l *lowerer) fill(n *yaml.Node, values map[string]any) {
	switch n.Kind {
	case yaml.MappingNode, yaml.SequenceNode:
		for _, c := range n.Content {
			l.fill(c, values)
		}
		return
	case yaml.ScalarNode:
	default:
		return
	}
	if n.Tag != "!!str" || !strings.Contains(n.Value, "{{") {
		return
	}
	if m := placeholder.FindStringSubmatchIndex(n.Value); m != nil && m[0] == 0 && m[1] == len(n.Value) {
		if v, ok := l.paramValue(n, n.Value, values); ok {
			if _, isString := v.(string); !isString && !strings.Contains(n.Value, "|") {
				replaceNode(n, v)
				return
			}
		}
	}
	n.Value = placeholder.ReplaceAllStringFunc(n.Value, func(p string) string {
		v, ok := l.paramValue(n, p, values)
		if !ok {
			return p
		}
		return paramText(v, placeholder.FindStringSubmatch(p)[2])
	})
}

func (l *lowerer) paramValue(n *yaml.Node, p string, values map[string]any) (any, bool) {
	sub := placeholder.FindStringSubmatch(p)
	v, ok := values[sub[1]]
	if (!ok || v == nil || v == "") && strings.HasPrefix(sub[2], "default:") {
		return sub[3], true
	}
	if !ok {
		l.Diags.Errorf(l.ContentPos(n), "unknown template parameter %q: declare it in the workflow's `Parameters`", sub[1])
	}
	return v, ok
}

func paramText(v any, filter string) string {
	s, isString := v.(string)
	if !isString || filter == "json" {
		s = jsonText(v)
	}
	switch filter {
	case "upper":
		return strings.ToUpper(s)
	case "lower":
		return strings.ToLower(s)
	}
	return s
}

// replaceNode makes n the YAML form of the JSON value v, keeping its
// position for diagnostics.
func replaceNode(n *yaml.Node, v any) {
	var repl yaml.Node
	if err := repl.Encode(v); err != nil {
		return
	}
	line, col := n.Line, n.Column
	*n = repl
	setPos(n, line, col)
}

func setPos(n *yaml.Node, line, col int) {
	n.Line, n.Column = line, col
	for _, c := range n.Content {
		setPos(c, line, col)
	}
}

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
