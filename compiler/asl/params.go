package asl

import (
	"encoding/json"
	"fmt"
	"math"
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

// given is what an Include state sets of its template's parameters:
// literal values, and the names of the ones given at run time (`key.$`),
// with where each is set in the including file.
type given struct {
	values  map[string]any
	runtime map[string]bool
	at      map[string]ir.Pos
	checks  []ir.ParamCheck // the declarations of the run-time ones
}

// runtimeParam stands for a parameter known at run time only: the template
// reads it as the variable of the same name.
type runtimeParam struct{ at ir.Pos }

// substitute replaces the placeholders of the workflow root with the
// parameters' values: given ones, else Defaults.
func (l *lowerer) substitute(root *yaml.Node, g *given, at ir.Pos) {
	if root == nil || root.Kind != yaml.MappingNode {
		return
	}
	if g == nil {
		g = &given{}
	}
	decl := mapValue(root, "Parameters")
	values := l.paramValues(decl, g, at)
	if decl == nil && len(values) == 0 {
		return // not a template: {{...}} in its strings is text
	}
	f := filler{l: l, values: values}
	f.node(root, fillCtx{skip: decl})
}

// mapValue is the value of key in the mapping n, nil when absent.
func mapValue(n *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// paramValues reads the declarations: each parameter's value is the one
// given, else its Default; a Required one without either is a warning and
// takes its first Enum value or the zero value of its Type.
func (l *lowerer) paramValues(decl *yaml.Node, g *given, at ir.Pos) map[string]any {
	values := map[string]any{}
	if decl != nil && decl.Kind != yaml.MappingNode {
		l.Diags.Errorf(l.Pos(decl), "Parameters must be an object of parameter declarations")
		decl = nil
	}
	if decl != nil {
		for _, e := range l.Pairs(decl) {
			values[e.Key.Value] = l.paramValue(e, g)
		}
	}
	declared := yamlx.SortedKeys(values)
	for _, k := range append(yamlx.SortedKeys(g.values), yamlx.SortedKeys(g.runtime)...) {
		if _, ok := values[k]; ok {
			continue
		}
		l.Diags.Warnf(givenAt(g, k, at), "the template does not declare parameter %q in its `Parameters`%s; flowc substitutes it all the same", k, didYouMean(k, declared))
		values[k] = g.values[k]
		if g.runtime[k] {
			values[k] = runtimeParam{at: g.at[k]}
		}
	}
	return values
}

func givenAt(g *given, k string, at ir.Pos) ir.Pos {
	if p, ok := g.at[k]; ok {
		return p
	}
	return at
}

// paramValue is the value of the declared parameter e: the one given
// (checked against its Type and Enum), else its Default.
func (l *lowerer) paramValue(e yamlx.Entry, g *given) any {
	name := e.Key.Value
	m, ok := l.Mapping(e.Value, "parameter "+quote(name), paramKeys...)
	if !ok {
		return nil // declared, if badly: no second error where it is used
	}
	if g.runtime[name] {
		g.checks = append(g.checks, l.paramCheck(name, m))
		return runtimeParam{at: g.at[name]}
	}
	v, isGiven := g.values[name]
	switch {
	case isGiven:
		l.checkGiven(m, e, v, g.at[name])
		return v
	case m.Has("Default"):
		v = l.jsonValue(m.Get("Default"))
	default:
		v = l.zeroParam(m)
		if r := m.Get("Required"); r != nil && l.Bool(r, "Required") {
			l.Diags.Warnf(l.Pos(e.Key), "template parameter %q is required and not set; compiled on its own the template uses %s", name, jsonText(v))
		}
	}
	if enum := m.Get("Enum"); enum != nil && !l.inEnum(v, enum) {
		l.Diags.Errorf(l.Pos(e.Key), "template parameter %q is %s, not one of its Enum", name, jsonText(v))
	}
	return v
}

// paramCheck is what the run checks of a parameter it gives: the
// declared Type (when flowc knows it) and Enum.
func (l *lowerer) paramCheck(name string, m yamlx.Map) ir.ParamCheck {
	c := ir.ParamCheck{Name: name}
	if t := m.Get("Type"); t != nil && knownTypes[t.Value] {
		c.Type = t.Value
	}
	if enum := m.Get("Enum"); enum != nil && enum.Kind == yaml.SequenceNode {
		for _, item := range enum.Content {
			c.Enum = append(c.Enum, jsonText(l.jsonValue(item)))
		}
	}
	return c
}

// checkGiven reports, where the including state sets it, a literal value
// that is not of the parameter's declared Type or not in its Enum.
func (l *lowerer) checkGiven(m yamlx.Map, e yamlx.Entry, v any, at ir.Pos) {
	decl := l.Pos(e.Key)
	if t := m.Get("Type"); t != nil && !hasType(v, t.Value) {
		l.Diags.Errorf(at, "template parameter %q is %s, not of its Type %q (declared at %s)", e.Key.Value, jsonText(v), t.Value, decl)
	}
	if enum := m.Get("Enum"); enum != nil && !l.inEnum(v, enum) {
		l.Diags.Errorf(at, "template parameter %q is %s, not one of its Enum (declared at %s)", e.Key.Value, jsonText(v), decl)
	}
}

// hasType reports whether v is a JSON value of the JSON Schema type t;
// a type flowc does not know admits anything.
func hasType(v any, t string) bool {
	switch v := v.(type) {
	case string:
		return t == "string" || !knownTypes[t]
	case float64:
		return t == "number" || t == "integer" && v == math.Trunc(v) || !knownTypes[t]
	case bool:
		return t == "boolean" || !knownTypes[t]
	case []any:
		return t == "array" || !knownTypes[t]
	case map[string]any:
		return t == "object" || !knownTypes[t]
	}
	return true // null: as if not given
}

var knownTypes = map[string]bool{"string": true, "number": true, "integer": true, "boolean": true, "array": true, "object": true}

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
