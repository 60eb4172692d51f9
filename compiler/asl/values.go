package asl

import (
	"math"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/flowc-dev/flowc/ir"
)

// path compiles a path field. reference asks for a reference path.
func (l *lowerer) path(n *yaml.Node, what string, reference, allowContext bool) *ir.Path {
	s, ok := l.String(n, what)
	if !ok {
		return nil
	}
	at := l.ContentPos(n)
	p, err := parsePath(s, reference, allowContext)
	if err != nil {
		l.Diags.Errorf(at.Shift(err.At), "invalid %s %q: %s", what, s, err.Msg)
		return nil
	}
	p.Pos = at
	l.noteVarPath(p)
	return p
}

// pathField reads InputPath, OutputPath or ResultPath: absent (nil), null,
// or a path; ResultPath must be a reference path into the input.
func (l *lowerer) pathField(n *yaml.Node, what string, result bool) *ir.PathField {
	if n == nil {
		return nil
	}
	f := &ir.PathField{Pos: l.Pos(n)}
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		f.Null = true
		return f
	}
	f.Path = l.path(n, what, result, !result)
	return f
}

// jsonValue converts a node into a JSON value: nil, bool, float64, string,
// []any or map[string]any. YAML-only values (.inf, tags) are errors.
func (l *lowerer) jsonValue(n *yaml.Node) any {
	switch n.Kind {
	case yaml.AliasNode:
		return l.jsonValue(n.Alias)
	case yaml.MappingNode:
		out := map[string]any{}
		for _, e := range l.Pairs(n) {
			out[e.Key.Value] = l.jsonValue(e.Value)
		}
		return out
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, item := range n.Content {
			out = append(out, l.jsonValue(item))
		}
		return out
	}
	switch n.Tag {
	case "!!null":
		return nil
	case "!!bool":
		var b bool
		_ = n.Decode(&b)
		return b
	case "!!int", "!!float":
		v, err := strconv.ParseFloat(strings.ReplaceAll(n.Value, "_", ""), 64)
		if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
			l.Diags.Errorf(l.Pos(n), "%s is not a JSON number", n.Value)
		}
		return v
	case "!!str":
		return n.Value
	}
	l.Diags.Errorf(l.Pos(n), "%s is not a JSON value", n.Value)
	return nil
}

// parameters compiles a state's Parameters. The States Language gives the
// field no type: statelint (data/StateMachine.j2119: "MAY have a field
// named Parameters") accepts a string or an array there, which is then the
// effective input as it is. An Include's Parameters set its template's
// parameters, by name, so they stay an object.
func (l *lowerer) parameters(n *yaml.Node, typ ir.ASLType) *ir.Template {
	if typ == ir.ASLInclude {
		return l.objectTemplate(n, "Parameters")
	}
	return l.template(n)
}

// objectTemplate compiles ItemSelector, ResultSelector and the other
// templates AWS requires to be objects.
func (l *lowerer) objectTemplate(n *yaml.Node, what string) *ir.Template {
	if n.Kind != yaml.MappingNode {
		l.Diags.Errorf(l.Pos(n), "%s must be an object", what)
		return nil
	}
	return l.template(n)
}

// template compiles a payload template node. Objects and arrays stay
// trees, so that object members keep their order; codegen emits a subtree
// without `.$` keys as one literal.
func (l *lowerer) template(n *yaml.Node) *ir.Template {
	return l.tree(n, l.templateField)
}

// literal compiles a value taken as it is (a Pass Result): keys ending in
// ".$" are plain keys there.
func (l *lowerer) literal(n *yaml.Node) *ir.Template {
	return l.tree(n, func(k, v *yaml.Node) *ir.TemplateField {
		return &ir.TemplateField{Pos: l.Pos(k), Key: k.Value, Value: l.literal(v)}
	})
}

func (l *lowerer) tree(n *yaml.Node, field func(k, v *yaml.Node) *ir.TemplateField) *ir.Template {
	t := &ir.Template{Pos: l.Pos(n)}
	switch n.Kind {
	case yaml.AliasNode:
		return l.tree(n.Alias, field)
	case yaml.MappingNode:
		t.Kind = ir.TmplObject
		for _, e := range l.Pairs(n) {
			t.Fields = append(t.Fields, field(e.Key, e.Value))
		}
	case yaml.SequenceNode:
		t.Kind = ir.TmplArray
		for _, item := range n.Content {
			t.Items = append(t.Items, l.tree(item, field))
		}
	default:
		t.Kind, t.Value = ir.TmplValue, l.jsonValue(n)
	}
	return t
}

// templateField compiles one member; a key ending in ".$" takes a path or
// an intrinsic function call.
func (l *lowerer) templateField(key, value *yaml.Node) *ir.TemplateField {
	f := &ir.TemplateField{Pos: l.Pos(key), Key: key.Value}
	name, dynamic := strings.CutSuffix(key.Value, ".$")
	if !dynamic {
		f.Value = l.template(value)
		return f
	}
	f.Key = name
	t := &ir.Template{Pos: l.Pos(value), Kind: ir.TmplValue}
	f.Value = t
	s, ok := value.Value, value.Kind == yaml.ScalarNode && value.Tag == "!!str"
	if !ok {
		l.Diags.Errorf(l.Pos(value), "the value of %q must be a path or an intrinsic function call (a string)", key.Value)
		return f
	}
	if strings.HasPrefix(s, "$") {
		t.Kind, t.Path = ir.TmplPath, l.path(value, "path", false, true)
		return f
	}
	t.Kind, t.Call = ir.TmplIntrinsic, l.intrinsic(value)
	return f
}

// intrinsic compiles an intrinsic call, placing its nodes and errors in the
// file.
func (l *lowerer) intrinsic(n *yaml.Node) *ir.Intrinsic {
	at := l.ContentPos(n)
	call, errs := parseIntrinsic(n.Value)
	for _, e := range errs {
		l.Diags.Errorf(at.Shift(e.At), "invalid intrinsic function call: %s", e.Msg)
	}
	if call != nil {
		place(call, at)
		l.noteVarPaths(call)
	}
	return call
}

// place turns the byte offsets the intrinsic parser stores in Col into file
// positions.
func place(call *ir.Intrinsic, at ir.Pos) {
	call.Pos = at.Shift(call.Pos.Col)
	for _, a := range call.Args {
		a.Pos = at.Shift(a.Pos.Col)
		if a.Path != nil {
			a.Path.Pos = a.Pos
		}
		if a.Call != nil {
			place(a.Call, at)
		}
	}
}

// duration reads "30s", "15m", "24h" or "7d".
func (l *lowerer) duration(n *yaml.Node, what string) time.Duration {
	s, ok := l.String(n, what)
	if !ok {
		return 0
	}
	if days, isDays := strings.CutSuffix(s, "d"); isDays {
		if v, err := strconv.Atoi(days); err == nil && v >= 0 {
			return time.Duration(v) * 24 * time.Hour
		}
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		l.Diags.Errorf(l.ContentPos(n), "%s must be a duration such as 30s, 15m, 24h or 7d, got %q", what, s)
	}
	return d
}

// handler returns the handler for key, creating it with a unique method
// name derived from name on first use.
func (l *lowerer) handler(key, name string, at ir.Pos) *ir.Handler {
	if h := l.handlers[key]; h != nil {
		return h
	}
	h := &ir.Handler{Pos: at, Name: l.methods.Unique(name, "Task")}
	l.handlers[key] = h
	return h
}

// resourceName picks the part of a Resource that names its handler: the
// function of a Lambda ARN, else the last segment ("lambda:invoke" →
// "invoke", "ecs:runTask.sync" → "runTask.sync").
func resourceName(res string) string {
	parts := strings.Split(res, ":")
	for i, p := range parts {
		if p == "function" && i+1 < len(parts) && parts[i+1] != "" {
			return parts[i+1]
		}
	}
	return parts[len(parts)-1]
}

// pathOrCall reads a field that takes a path or, as AWS also allows for
// ErrorPath and CausePath, an intrinsic function call.
func (l *lowerer) pathOrCall(n *yaml.Node, what string) (*ir.Path, *ir.Intrinsic) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!str" && !strings.HasPrefix(n.Value, "$") {
		return nil, l.intrinsic(n)
	}
	return l.path(n, what, false, true), nil
}
