package asl

import (
	"errors"
	"maps"
	"slices"
	"strings"
	"unicode"

	"github.com/flowc-dev/flowc/runtime/jsonata"
	"gopkg.in/yaml.v3"

	"github.com/flowc-dev/flowc/compiler/yamlx"
	"github.com/flowc-dev/flowc/ir"
)

// Variables (Assign) and the JSONata query language. A state machine or a
// state may set `QueryLanguage: JSONata`; a JSONata state reads Arguments
// and Output instead of the five path fields, and any string of the form
// "{% expression %}" in its fields is a JSONata expression, parsed here so
// that its syntax errors point into the definition.

// queryFields are the fields each state type gains with variables and
// JSONata.
var queryFields = map[ir.ASLType][]string{
	ir.ASLTask:     {"Assign", "Arguments", "Output"},
	ir.ASLPass:     {"Assign", "Output"},
	ir.ASLChoice:   {"Assign", "Output"},
	ir.ASLWait:     {"Assign", "Output"},
	ir.ASLSucceed:  {"Output"},
	ir.ASLParallel: {"Assign", "Arguments", "Output"},
	ir.ASLMap:      {"Assign", "Output", "Items"},
}

func init() {
	for typ, extra := range queryFields {
		stateFields[typ] = append(stateFields[typ], extra...)
	}
}

// Fields of one query language only.
var (
	jsonPathOnly = []string{"InputPath", "OutputPath", "Parameters", "ResultSelector", "ResultPath", "ItemsPath",
		"SecondsPath", "TimestampPath", "TimeoutSecondsPath", "HeartbeatSecondsPath", "MaxConcurrencyPath", "ErrorPath", "CausePath"}
	jsonataOnly = []string{"Arguments", "Output", "Items", "Condition"}
)

const (
	queryJSONPath = "JSONPath"
	queryJSONata  = "JSONata"
)

// queryLanguage reads a QueryLanguage field; def is the language in force
// around it. A state of a JSONata state machine cannot go back to
// JSONPath, as in Step Functions.
func (l *lowerer) queryLanguage(m yamlx.Map, def bool) bool {
	n := m.Get("QueryLanguage")
	if n == nil {
		return def
	}
	s, ok := l.String(n, "QueryLanguage")
	switch {
	case !ok:
		return def
	case s == queryJSONata:
		return true
	case s != queryJSONPath:
		l.Diags.Errorf(l.ContentPos(n), "QueryLanguage must be %q or %q, got %q", queryJSONPath, queryJSONata, s)
	case def:
		l.Diags.Errorf(l.ContentPos(n), "a state of a JSONata state machine cannot use JSONPath")
	}
	return def
}

// queryCommon reads what variables and JSONata add to every state: the
// language, Assign, Arguments and Output. It reports the fields of the
// other language.
func (l *lowerer) queryCommon(m yamlx.Map, s *ir.State) {
	a := s.ASL
	a.JSONata = l.queryLanguage(m, l.jsonata)
	other, lang := jsonataOnly, queryJSONPath
	if a.JSONata {
		other, lang = jsonPathOnly, queryJSONata
	}
	for _, k := range other {
		if e, ok := m.Entries[k]; ok && (k != "Output" || !outcomeLabel(m, a)) {
			l.Diags.Errorf(l.Pos(e.Key), "%s state %q uses %s: `%s` belongs to the other query language", a.Type, s.ID, lang, k)
		}
	}
	if n := m.Get("Assign"); n != nil {
		a.Assign = l.assign(n, a.JSONata)
	}
	if !a.JSONata {
		return
	}
	if n := m.Get("Arguments"); n != nil {
		a.Arguments = l.jsonataTemplate(n)
	}
	if n := m.Get("Output"); n != nil {
		a.Output = l.jsonataTemplate(n)
	}
}

// assign reads an Assign object: its keys are variable names (with `.$`
// for a path or intrinsic in a JSONPath state) and its values what they
// get.
func (l *lowerer) assign(n *yaml.Node, jsonata bool) *ir.Template {
	if n.Kind != yaml.MappingNode {
		l.Diags.Errorf(l.Pos(n), "Assign must be an object of variable names and values")
		return nil
	}
	t := &ir.Template{Pos: l.Pos(n), Kind: ir.TmplObject}
	for _, e := range l.Pairs(n) {
		var f *ir.TemplateField
		if jsonata {
			f = &ir.TemplateField{Pos: l.Pos(e.Key), Key: e.Key.Value, Value: l.jsonataTemplate(e.Value)}
		} else {
			f = l.templateField(e.Key, e.Value)
		}
		l.assigned[f.Key] = true
		if msg := badVariableName(f.Key); msg != "" {
			l.Diags.Errorf(l.Pos(e.Key), "invalid variable name %q: %s", f.Key, msg)
		}
		t.Fields = append(t.Fields, f)
	}
	return t
}

// badVariableName says what is wrong with a variable name, or "".
func badVariableName(name string) string {
	switch {
	case name == "":
		return "a name cannot be empty"
	case name == "states":
		return "`$states` is reserved"
	case len([]rune(name)) > 80:
		return "a name has at most 80 characters"
	}
	for i, r := range name {
		if r != '_' && !unicode.IsLetter(r) && !(i > 0 && unicode.IsDigit(r)) {
			return "use letters, digits and `_`, not starting with a digit"
		}
	}
	return ""
}

// isExpression reports whether a string is a "{% ... %}" JSONata
// expression.
func isExpression(s string) bool {
	return len(s) >= 4 && strings.HasPrefix(s, "{%") && strings.HasSuffix(s, "%}")
}

// jsonataTemplate compiles a JSONata state's field value: any JSON value
// whose strings may be "{% %}" expressions, at any depth.
func (l *lowerer) jsonataTemplate(n *yaml.Node) *ir.Template {
	switch {
	case n.Kind == yaml.AliasNode:
		return l.jsonataTemplate(n.Alias)
	case n.Kind == yaml.ScalarNode && n.Tag == "!!str" && isExpression(n.Value):
		return l.expression(n)
	case n.Kind == yaml.MappingNode:
		t := &ir.Template{Pos: l.Pos(n), Kind: ir.TmplObject}
		for _, e := range l.Pairs(n) {
			t.Fields = append(t.Fields, &ir.TemplateField{Pos: l.Pos(e.Key), Key: e.Key.Value, Value: l.jsonataTemplate(e.Value)})
		}
		return t
	case n.Kind == yaml.SequenceNode:
		t := &ir.Template{Pos: l.Pos(n), Kind: ir.TmplArray}
		for _, item := range n.Content {
			t.Items = append(t.Items, l.jsonataTemplate(item))
		}
		return t
	}
	return l.literal(n)
}

// expressionField reads a field of a JSONata state that takes a number or
// a string or an expression: it returns the expression's template, or nil
// when the field is not one (the caller reads it as usual).
func (l *lowerer) expressionField(s *ir.State, n *yaml.Node) *ir.Template {
	if !s.ASL.JSONata || n.Kind != yaml.ScalarNode || n.Tag != "!!str" || !isExpression(n.Value) {
		return nil
	}
	return l.expression(n)
}

// expression parses a "{% %}" string. A literal becomes a plain value and
// a path from `$states.input`, `.result`, `.errorOutput`, `.context` or a
// variable is marked Simple, for generated code to follow itself.
func (l *lowerer) expression(n *yaml.Node) *ir.Template {
	at := l.ContentPos(n)
	body := n.Value[2 : len(n.Value)-2]
	lead := len(body) - len(strings.TrimLeft(body, " \t\r\n"))
	src := strings.TrimSpace(body)
	t := &ir.Template{Pos: l.Pos(n), Kind: ir.TmplJSONata}
	j := &ir.JSONata{Pos: at.Shift(2 + lead), Source: src}
	t.JSONata = j
	if src == "" {
		l.Diags.Errorf(at, "empty JSONata expression")
		return t
	}
	x, err := jsonata.Compile(src)
	if err != nil {
		l.Diags.Errorf(j.Pos.Shift(jsonataOffset(err, src)), "invalid JSONata expression: %s", err.Error())
		return t
	}
	if v, ok := x.Literal(); ok {
		return &ir.Template{Pos: t.Pos, Kind: ir.TmplValue, Value: v}
	}
	l.exprs = append(l.exprs, checkedExpr{x: x, pos: j.Pos, src: src})
	j.Simple, j.Root, j.Fields = simplePath(x)
	return t
}

// jsonataOffset is where in src an error of the JSONata compiler points:
// the start of the token it names.
func jsonataOffset(err error, src string) int {
	var je *jsonata.Error
	if !errors.As(err, &je) {
		return 0
	}
	return min(max(je.Position-len(je.Token), 0), len(src))
}

var statesRoots = map[string]bool{"input": true, "result": true, "errorOutput": true, "context": true}

// simplePath recognises `$states.<root>.a.b` and `$var.a.b`.
func simplePath(x *jsonata.Expr) (bool, string, []string) {
	variable, names, ok := x.FieldPath()
	if !ok {
		return false, "", nil
	}
	if variable != "states" {
		return true, "$" + variable, names
	}
	if len(names) == 0 || !statesRoots[names[0]] {
		return false, "", nil
	}
	return true, names[0], names[1:]
}

// checkedExpr is a JSONata expression that compiled, checked once the
// whole machine is lowered and every variable it may read is known.
type checkedExpr struct {
	x   *jsonata.Expr
	pos ir.Pos
	src string
}

// checkExprs reports what every JSONata expression of the machine would
// fail on at run time: an unknown function, a wrong number of arguments, a
// field of $states that does not exist, and, when vars is set, a variable
// that no Assign of the definition sets.
func (l *lowerer) checkExprs(vars bool) {
	scope := jsonata.Scope{
		Vars:   append(slices.Sorted(maps.Keys(l.assigned)), "states"),
		Fields: map[string][]string{"states": slices.Sorted(maps.Keys(statesRoots))},
	}
	for _, e := range l.exprs {
		for _, err := range e.x.Check(scope) {
			if err.Code == "V0001" && !vars { // an unbound variable
				continue
			}
			l.Diags.Errorf(e.pos.Shift(jsonataOffset(err, e.src)), "%s", err.Error())
		}
	}
	l.exprs = nil
}

// catcherQuery reads a catcher's Assign and, in a JSONata state, its
// Output (ResultPath belongs to JSONPath).
func (l *lowerer) catcherQuery(m yamlx.Map, s *ir.State) {
	a := s.ASL
	var assign, output *ir.Template
	if n := m.Get("Assign"); n != nil {
		assign = l.assign(n, a.JSONata)
	}
	if e, ok := m.Entries["Output"]; ok && !a.JSONata {
		l.Diags.Errorf(l.Pos(e.Key), "a catcher of JSONPath state %q cannot have `Output`; use ResultPath", s.ID)
	} else if ok {
		output = l.jsonataTemplate(e.Value)
	}
	if e, ok := m.Entries["ResultPath"]; ok && a.JSONata {
		l.Diags.Errorf(l.Pos(e.Key), "a catcher of JSONata state %q cannot have `ResultPath`; use Output", s.ID)
	}
	a.CatchAssign = append(a.CatchAssign, assign)
	a.CatchOutput = append(a.CatchOutput, output)
}

// topRule reads a top-level choice rule: in a JSONPath state a rule as
// usual (plus Assign), in a JSONata state a Condition with its Assign and
// Output.
func (l *lowerer) topRule(n *yaml.Node, s *ir.State) (*ir.ChoiceRule, ir.Ref) {
	if !s.ASL.JSONata {
		r, next := l.rule(n, s)
		for i := 0; n.Kind == yaml.MappingNode && i+1 < len(n.Content); i += 2 {
			switch k, v := n.Content[i], n.Content[i+1]; k.Value {
			case "Condition", "Output":
				l.Diags.Errorf(l.Pos(k), "`%s` belongs to JSONata choice rules; state %q uses JSONPath", k.Value, s.ID)
			case "Assign":
				r.Assign = l.assign(v, false)
			}
		}
		return r, next
	}
	r := &ir.ChoiceRule{Pos: l.Pos(n), Op: "Condition"}
	next := ir.Ref{Pos: r.Pos, ID: s.ID}
	m, ok := l.Mapping(n, "a choice rule", "Condition", "Next", "Comment", "Assign", "Output")
	if !ok {
		return r, next
	}
	if nn := m.Get("Next"); nn != nil {
		id, _ := l.String(nn, "Next")
		next = ir.Ref{Pos: l.ContentPos(nn), ID: id}
	} else {
		l.Diags.Errorf(r.Pos, "a choice rule needs `Next`")
	}
	if c := m.Get("Comment"); c != nil {
		l.String(c, "Comment")
	}
	if c := m.Get("Condition"); c != nil {
		r.Condition = l.jsonataTemplate(c)
	} else {
		l.Diags.Errorf(r.Pos, "a choice rule of JSONata state %q needs `Condition`", s.ID)
	}
	if a := m.Get("Assign"); a != nil {
		r.Assign = l.assign(a, true)
	}
	if o := m.Get("Output"); o != nil {
		r.Output = l.jsonataTemplate(o)
	}
	return r, next
}
