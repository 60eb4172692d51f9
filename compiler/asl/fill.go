package asl

import (
	"encoding/json"
	"strings"

	"gopkg.in/yaml.v3"
)

// fillCtx says where in a template a node lies.
type fillCtx struct {
	skip    *yaml.Node // the Parameters declarations, left as they are
	payload bool       // inside a payload template
	jsonata bool       // inside a JSONata machine or state
	comment bool       // a Comment, which keeps a run-time parameter as text
}

// payloadFields hold payload templates, or (Error, Cause, Prompt) values
// that a `.$` form computes: their values are computed when the state
// runs, so they may read a parameter given at run time.
var payloadFields = map[string]bool{
	"Parameters": true, "ResultSelector": true, "ItemSelector": true, "Assign": true,
	"Input": true, "Arguments": true, "Output": true, "Error": true, "Cause": true, "Prompt": true,
}

// filler substitutes the parameters of one template. A parameter known
// when flowc compiles becomes text (or, alone in a string, a value of its
// type); one given at run time becomes a read of the variable of its name
// where the state computes a value: `"k": "{{p}}"` in a payload template
// turns into `"k.$": "$p"` (States.Format around other text), a choice
// comparison with it into its ...Path form, and in JSONata `$p`.
type filler struct {
	l      *lowerer
	values map[string]any
}

func (f filler) node(n *yaml.Node, c fillCtx) {
	switch n.Kind {
	case yaml.MappingNode:
		f.mapping(n, c)
	case yaml.SequenceNode:
		for _, item := range n.Content {
			f.node(item, c)
		}
	case yaml.ScalarNode:
		f.scalar(n, c)
	}
}

func (f filler) mapping(n *yaml.Node, c fillCtx) {
	if ql := mapValue(n, "QueryLanguage"); ql != nil {
		c.jsonata = ql.Value == queryJSONata
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if v == c.skip {
			continue
		}
		f.scalar(k, fillCtx{})
		vc := c
		vc.payload = c.payload || payloadFields[k.Value]
		vc.comment = k.Value == "Comment"
		if f.reference(k, v, vc) {
			continue
		}
		filled := k.Value == "Variable" && v.Kind == yaml.ScalarNode && f.hasKnown(v.Value)
		f.node(v, vc)
		if filled {
			f.markConstVariable(v)
		}
	}
}

// reference rewrites a JSONPath member k: v whose string v holds a
// run-time parameter into one that reads it; it reports whether it did.
func (f filler) reference(k, v *yaml.Node, c fillCtx) bool {
	if c.jsonata || strings.HasSuffix(k.Value, ".$") {
		return false
	}
	if v.Kind == yaml.SequenceNode && c.payload {
		return f.array(k, v)
	}
	if v.Kind != yaml.ScalarNode || v.Tag != "!!str" || !f.hasRuntime(v.Value) {
		return false
	}
	switch {
	case c.payload:
		expr, ok := f.intrinsic(v)
		if ok {
			k.Value += ".$"
			v.Value = expr
		}
	case comparisons[k.Value+"Path"] == opPath:
		name, ok := f.wholeRuntime(v.Value)
		if !ok {
			return false
		}
		k.Value += "Path"
		v.Value = "$" + name
	case k.Value == "Variable":
		name, ok := f.wholeRuntime(v.Value) // compared as a value, never read as a path
		if !ok {
			return false
		}
		v.Value = "$" + name
	default:
		return false
	}
	return true
}

// array rewrites a JSONPath payload member k: [...] of scalars, some
// holding run-time parameters, into `"k.$": "States.Array(...)"`.
func (f filler) array(k, v *yaml.Node) bool {
	var args []string
	runtime := false
	for _, item := range v.Content {
		if item.Kind != yaml.ScalarNode {
			return false
		}
		if item.Tag == "!!str" && f.hasRuntime(item.Value) {
			expr, ok := f.intrinsic(item)
			if !ok {
				return true // the filter was reported
			}
			args, runtime = append(args, expr), true
			continue
		}
		f.scalar(item, fillCtx{})
		args = append(args, intrinsicLiteral(item))
	}
	if !runtime {
		return false
	}
	k.Value += ".$"
	*v = *scalarAt(v, "States.Array("+strings.Join(args, ", ")+")", "!!str")
	return true
}

// intrinsicLiteral is a scalar as an intrinsic function's argument.
func intrinsicLiteral(n *yaml.Node) string {
	if n.Tag == "!!str" {
		return "'" + escapeIntrinsic(n.Value) + "'"
	}
	return n.Value
}

// scalar substitutes inside a string.
func (f filler) scalar(n *yaml.Node, c fillCtx) {
	if n.Kind != yaml.ScalarNode || n.Tag != "!!str" || !strings.Contains(n.Value, "{{") {
		return
	}
	if m := placeholder.FindStringSubmatch(n.Value); m != nil && m[0] == n.Value && m[2] == "" {
		if v, ok := f.lookup(n, m[1], ""); ok {
			switch v.(type) {
			case string, runtimeParam:
			default:
				replaceNode(n, v)
				return
			}
		}
	}
	if c.jsonata && (c.payload || isExpression(n.Value)) && f.hasRuntime(n.Value) {
		n.Value = f.jsonata(n)
		return
	}
	n.Value = f.text(n, func(p string, v any, filter string) string {
		if _, ok := v.(runtimeParam); ok && c.comment {
			return p
		}
		if _, ok := v.(runtimeParam); ok {
			f.l.Diags.Errorf(f.l.ContentPos(n), "template parameter %q is given at run time (at %s), so it cannot be used here: flowc needs its value when it compiles; a payload template (Parameters, ItemSelector, ResultSelector, Assign, Input), a Fail's Error or Cause, an Approval's Prompt or a choice comparison can read it", placeholder.FindStringSubmatch(p)[1], v.(runtimeParam).at)
			return p
		}
		return paramText(v, filter)
	}, nil)
}

// text substitutes every placeholder of n through sub; lit, when not nil,
// rewrites the text between them.
func (f filler) text(n *yaml.Node, sub func(p string, v any, filter string) string, lit func(string) string) string {
	if lit == nil {
		lit = func(s string) string { return s }
	}
	var b strings.Builder
	last := 0
	for _, m := range placeholder.FindAllStringSubmatchIndex(n.Value, -1) {
		b.WriteString(lit(n.Value[last:m[0]]))
		p := n.Value[m[0]:m[1]]
		sm := placeholder.FindStringSubmatch(p)
		if v, ok := f.lookup(n, sm[1], sm[2]); ok {
			b.WriteString(sub(p, v, sm[2]))
		} else {
			b.WriteString(lit(p))
		}
		last = m[1]
	}
	b.WriteString(lit(n.Value[last:]))
	return b.String()
}

// intrinsic is the JSONPath value of a string holding run-time
// parameters: `$p` for one alone, else a States.Format call; false when
// none could be read (a filter on one was reported).
func (f filler) intrinsic(n *yaml.Node) (string, bool) {
	if name, ok := f.wholeRuntime(n.Value); ok {
		return "$" + name, true
	}
	var args []string
	format := f.text(n, func(p string, v any, filter string) string {
		if _, ok := v.(runtimeParam); ok {
			args = append(args, "$"+placeholder.FindStringSubmatch(p)[1])
			return "{}"
		}
		return escapeIntrinsic(paramText(v, filter))
	}, escapeIntrinsic)
	return "States.Format('" + format + "', " + strings.Join(args, ", ") + ")", len(args) > 0
}

// jsonata is the JSONata form of a string holding run-time parameters:
// inside an expression each becomes its variable; a plain string becomes
// an expression joining its text and the variables.
func (f filler) jsonata(n *yaml.Node) string {
	if isExpression(n.Value) {
		return f.text(n, func(p string, v any, filter string) string {
			if _, ok := v.(runtimeParam); ok {
				return "$" + placeholder.FindStringSubmatch(p)[1]
			}
			return paramText(v, filter)
		}, nil)
	}
	var parts []string
	lit := func(s string) string {
		if s != "" {
			b, _ := json.Marshal(s)
			parts = append(parts, string(b))
		}
		return ""
	}
	f.text(n, func(p string, v any, filter string) string {
		if _, ok := v.(runtimeParam); ok {
			parts = append(parts, "$"+placeholder.FindStringSubmatch(p)[1])
			return ""
		}
		return lit(paramText(v, filter))
	}, lit)
	return "{% " + strings.Join(parts, " & ") + " %}"
}

// lookup is the value of the parameter name, or the text of its default:
// filter when it has none; a parameter given at run time takes no filter.
func (f filler) lookup(n *yaml.Node, name, filter string) (any, bool) {
	v, ok := f.values[name]
	if rp, isRuntime := v.(runtimeParam); isRuntime && filter != "" {
		f.l.Diags.Errorf(f.l.ContentPos(n), "template parameter %q is given at run time (at %s): it takes no filter", name, rp.at)
		return nil, false
	}
	if (!ok || v == nil || v == "") && strings.HasPrefix(filter, "default:") {
		return placeholder.FindStringSubmatch("{{x|" + filter + "}}")[3], true
	}
	if !ok {
		f.l.Diags.Warnf(f.l.ContentPos(n), "unknown template parameter %q: neither declared in the workflow's `Parameters` nor given, so it stays as text", name)
	}
	return v, ok
}

// hasRuntime reports whether s holds a placeholder of a run-time parameter.
func (f filler) hasRuntime(s string) bool {
	return f.holds(s, func(v any, _ bool) bool {
		_, ok := v.(runtimeParam)
		return ok
	})
}

// holds reports whether s holds a placeholder whose value (and whether the
// parameter is known) passes test.
func (f filler) holds(s string, test func(v any, known bool) bool) bool {
	for _, m := range placeholder.FindAllStringSubmatch(s, -1) {
		if v, ok := f.values[m[1]]; test(v, ok) {
			return true
		}
	}
	return false
}

// wholeRuntime is the run-time parameter that s is, alone and unfiltered.
func (f filler) wholeRuntime(s string) (string, bool) {
	m := placeholder.FindStringSubmatch(s)
	if m == nil || m[0] != s || m[2] != "" {
		return "", false
	}
	_, ok := f.values[m[1]].(runtimeParam)
	return m[1], ok
}

// escapeIntrinsic makes s the text of an intrinsic's 'string' literal.
func escapeIntrinsic(s string) string {
	return strings.NewReplacer(`\`, `\\`, `'`, `\'`, `{`, `\{`, `}`, `\}`).Replace(s)
}
