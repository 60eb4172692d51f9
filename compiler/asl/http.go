package asl

import (
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/flowc-dev/flowc/builtin/httpspec"
	"github.com/flowc-dev/flowc/compiler/yamlx"
	"github.com/flowc-dev/flowc/ir"
)

// HTTP Tasks (Resource arn:aws:states:::http:invoke) call an HTTPS API;
// `flowc build` binds them to builtin.HTTPInvoke. What Step Functions
// validates when a state machine is created is checked here, where the
// parameters are literals: known parameter names, ApiEndpoint and Method
// present, a literal Method one Step Functions calls, a literal ApiEndpoint
// an absolute http(s) URL, literal header names allowed, literal Transform
// values known. Values given by paths or expressions are the handler's to
// check at run time.

// httpParam is one parameter of an HTTP Task; dynamic when a path or an
// expression gives its value.
type httpParam struct {
	key, value *yaml.Node
	dynamic    bool
}

// httpTask checks the parameters of a Task when it is an HTTP Task.
func (l *lowerer) httpTask(m yamlx.Map, s *ir.State) {
	if s.ASL.Resource != httpspec.Resource {
		return
	}
	field := "Parameters"
	if s.ASL.JSONata {
		field = "Arguments"
	}
	n := m.Get(field)
	if n == nil {
		l.Diags.Errorf(s.Pos, "HTTP Task %q needs `%s` with `%s` and `%s`", s.ID, field, httpspec.APIEndpoint, httpspec.Method)
		return
	}
	if n.Kind != yaml.MappingNode {
		return // one expression: known at run time only
	}
	what := "HTTP Task " + quote(s.ID)
	params := l.httpParams(n, s.ASL.JSONata, what, httpspec.Fields)
	for _, k := range httpspec.Required {
		if _, ok := params[k]; !ok {
			l.Diags.Errorf(l.Pos(m.Entries[field].Key), "HTTP Task %q needs `%s.%s`", s.ID, field, k)
		}
	}
	l.httpLiteral(what, params[httpspec.Method], httpspec.CheckMethod)
	l.httpLiteral(what, params[httpspec.APIEndpoint], func(v string) error {
		_, err := httpspec.CheckEndpoint(v)
		return err
	})
	for _, field := range []string{httpspec.Authentication, httpspec.InvocationConfig} {
		l.httpConnection(what, params[field], s.ASL.JSONata)
	}
	l.httpHeaders(what, params[httpspec.Headers], s.ASL.JSONata)
	l.httpTransform(what, params[httpspec.Transform], s.ASL.JSONata)
}

// httpParams reads an object of parameters by name, reporting names not in
// known. In a JSONPath state a name ending in `.$` takes a path; in a
// JSONata state a "{% %}" value is an expression.
func (l *lowerer) httpParams(n *yaml.Node, jsonata bool, what string, known []string) map[string]httpParam {
	out := map[string]httpParam{}
	for _, e := range l.Pairs(n) {
		name, p := httpEntry(e, jsonata)
		if !slices.Contains(known, name) {
			l.Diags.Errorf(l.Pos(e.Key), "%s: unknown parameter `%s`%s", what, name, didYouMean(name, known))
			continue
		}
		out[name] = p
	}
	return out
}

// httpEntry is the name and value of one parameter.
func httpEntry(e yamlx.Entry, jsonata bool) (string, httpParam) {
	name, dynamic := e.Key.Value, false
	if jsonata {
		dynamic = e.Value.Kind == yaml.ScalarNode && isExpression(e.Value.Value)
	} else {
		name, dynamic = strings.CutSuffix(name, ".$")
	}
	return name, httpParam{key: e.Key, value: e.Value, dynamic: dynamic}
}

// object reports whether p is given as a literal object.
func (p httpParam) object() bool {
	return p.value != nil && !p.dynamic && p.value.Kind == yaml.MappingNode
}

// httpLiteral checks a literal string parameter; absent and dynamic ones
// pass.
func (l *lowerer) httpLiteral(what string, p httpParam, check func(string) error) {
	if p.value == nil || p.dynamic {
		return
	}
	v, ok := l.String(p.value, p.key.Value)
	if !ok {
		return
	}
	if err := check(v); err != nil {
		l.Diags.Errorf(l.ContentPos(p.value), "%s: %v", what, err)
	}
}

// httpConnection checks a literal Authentication (or InvocationConfig):
// its ConnectionArn names an EventBridge connection.
func (l *lowerer) httpConnection(what string, p httpParam, jsonata bool) {
	if !p.object() {
		return
	}
	c := l.httpParams(p.value, jsonata, what+" "+p.key.Value, []string{httpspec.ConnectionArn})
	arn, ok := c[httpspec.ConnectionArn]
	if !ok {
		l.Diags.Errorf(l.Pos(p.key), "%s: `%s` needs `%s`", what, p.key.Value, httpspec.ConnectionArn)
		return
	}
	l.httpLiteral(what, arn, func(v string) error {
		_, err := httpspec.ConnectionName(v)
		return err
	})
}

// httpHeaders checks literal header names.
func (l *lowerer) httpHeaders(what string, p httpParam, jsonata bool) {
	if !p.object() {
		return
	}
	for _, e := range l.Pairs(p.value) {
		name, _ := httpEntry(e, jsonata)
		if err := httpspec.CheckHeader(name); err != nil {
			l.Diags.Errorf(l.Pos(e.Key), "%s: %v", what, err)
		}
	}
}

// httpTransform checks the literal values of Transform.
func (l *lowerer) httpTransform(what string, p httpParam, jsonata bool) {
	if !p.object() {
		return
	}
	t := l.httpParams(p.value, jsonata, what+" Transform", []string{httpspec.RequestBodyEncoding, httpspec.RequestEncodingOptions})
	l.httpLiteral(what, t[httpspec.RequestBodyEncoding], oneOf(httpspec.RequestBodyEncoding, httpspec.Encodings))
	if opts := t[httpspec.RequestEncodingOptions]; opts.object() {
		o := l.httpParams(opts.value, jsonata, what+" RequestEncodingOptions", []string{httpspec.ArrayFormat})
		l.httpLiteral(what, o[httpspec.ArrayFormat], oneOf(httpspec.ArrayFormat, httpspec.ArrayFormats))
	}
}

func oneOf(field string, allowed []string) func(string) error {
	return func(v string) error {
		if slices.Contains(allowed, v) {
			return nil
		}
		return httpspec.Unknown(field, v, allowed)
	}
}
