package asl

import (
	"cmp"
	"regexp"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/flowc-dev/flowc/compiler/yamlx"
	"github.com/flowc-dev/flowc/ir"
)

// Two forms the Agent State Language's skill templates use: a last state
// labelled with its outcome, and a choice on a template parameter.

// labelled are the state types that take Next or End, and so may carry an
// outcome label instead.
var labelled = map[ir.ASLType]bool{ir.ASLTask: true, ir.ASLPass: true, ir.ASLWait: true, ir.ASLParallel: true, ir.ASLMap: true}

// outcomeLabel reports whether the state m ends its workflow with an
// outcome label, `"Output": "success"`: a JSONPath state with a plain
// string Output and neither Next nor End. The label names the outcome for
// the reader; the state's output is what it would be without it.
func outcomeLabel(m yamlx.Map, a *ir.ASLState) bool {
	return labelled[a.Type] && hasLabel(m.Node, a.JSONata)
}

// hasLabel reports whether the state node st has an outcome label; in a
// JSONata state Output is the state's output.
func hasLabel(st *yaml.Node, jsonata bool) bool {
	n := mapValue(st, "Output")
	return !jsonata && n != nil && n.Kind == yaml.ScalarNode && n.Tag == "!!str" && !isExpression(n.Value) &&
		mapValue(st, "Next") == nil && mapValue(st, "End") == nil
}

// usesJSONata reports whether the machine or state node n sets
// `QueryLanguage: JSONata`.
func usesJSONata(n *yaml.Node) bool {
	ql := mapValue(n, "QueryLanguage")
	return ql != nil && ql.Value == queryJSONata
}

// markConstVariable notes a choice rule's Variable that a template
// parameter known when compiling made something other than a path: the
// rule compares that constant.
func (f filler) markConstVariable(v *yaml.Node) {
	if v.Kind != yaml.ScalarNode || v.Tag == "!!str" && strings.HasPrefix(v.Value, "$") {
		return
	}
	if f.l.constVariables == nil {
		f.l.constVariables = map[*yaml.Node]bool{}
	}
	f.l.constVariables[v] = true
}

// hasKnown reports whether s holds a placeholder of a parameter declared
// or given (one neither stays as text).
func (f filler) hasKnown(s string) bool {
	return f.holds(s, func(_ any, known bool) bool { return known })
}

// constComparison reads a comparison whose Variable v is a constant and
// folds it: the rule always or never holds.
func (l *lowerer) constComparison(v *yaml.Node, r *ir.ChoiceRule) {
	if r.Other != nil {
		l.Diags.Errorf(l.Pos(v), "the Variable of this rule is the constant %s (from a template parameter), which cannot be compared with a path by %s", jsonText(l.jsonValue(v)), r.Op)
		return
	}
	holds := constHolds(r.Op, l.jsonValue(v), r.Value)
	r.Fixed = &holds
}

// foldCompound fixes And, Or or Not whose rules are all fixed.
func foldCompound(r *ir.ChoiceRule) {
	every, some := true, false
	for _, a := range r.Args {
		if a.Fixed == nil {
			return
		}
		every, some = every && *a.Fixed, some || *a.Fixed
	}
	holds := some
	switch r.Op {
	case "And":
		holds = every
	case "Not":
		holds = !some
	}
	r.Fixed = &holds
}

// constHolds applies the comparison op with operand w to the constant c,
// as the run would to a value it read.
func constHolds(op string, c, w any) bool {
	switch op {
	case "IsPresent":
		return w == true
	case "IsNull", "IsNumeric", "IsString", "IsBoolean", "IsTimestamp":
		return isType(op, c) == w
	case "BooleanEquals":
		b, ok := c.(bool)
		return ok && b == w
	case "StringMatches":
		s, ok := c.(string)
		return ok && wildcard(w.(string)).MatchString(s)
	}
	rel, order, ok := "", 0, false
	switch {
	case strings.HasPrefix(op, "String"):
		rel = op[len("String"):]
		order, ok = compareAs[string](c, w)
	case strings.HasPrefix(op, "Numeric"):
		rel = op[len("Numeric"):]
		order, ok = compareAs[float64](c, w)
	case strings.HasPrefix(op, "Timestamp"):
		rel = op[len("Timestamp"):]
		a, ok1 := timestampOf(c)
		b, ok2 := timestampOf(w)
		order, ok = a.Compare(b), ok1 && ok2
	}
	return ok && relHolds(rel, order)
}

func compareAs[T string | float64](c, w any) (int, bool) {
	a, ok1 := c.(T)
	b, ok2 := w.(T)
	return cmp.Compare(a, b), ok1 && ok2
}

func relHolds(rel string, order int) bool {
	switch rel {
	case "Equals":
		return order == 0
	case "LessThan":
		return order < 0
	case "GreaterThan":
		return order > 0
	case "LessThanEquals":
		return order <= 0
	}
	return order >= 0
}

func isType(op string, c any) bool {
	switch c.(type) {
	case nil:
		return op == "IsNull"
	case float64:
		return op == "IsNumeric"
	case bool:
		return op == "IsBoolean"
	case string:
		_, isTime := timestampOf(c)
		return op == "IsString" || op == "IsTimestamp" && isTime
	}
	return false
}

func timestampOf(v any) (time.Time, bool) {
	s, _ := v.(string)
	t, err := time.Parse(time.RFC3339Nano, s)
	return t, err == nil
}

// wildcard is a StringMatches pattern as a regular expression: * matches
// any run of characters, \* and \\ stand for themselves.
func wildcard(pattern string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString(`^`)
	escaped := false
	for _, r := range pattern {
		switch {
		case escaped:
			escaped = false
			b.WriteString(regexp.QuoteMeta(string(r)))
		case r == '\\':
			escaped = true
		case r == '*':
			b.WriteString(`(?s:.*)`)
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	if escaped {
		b.WriteString(`\\`)
	}
	b.WriteString(`$`)
	return regexp.MustCompile(b.String())
}
