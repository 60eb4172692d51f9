package asl

import (
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/flowc-dev/flowc/compiler/yamlx"
	"github.com/flowc-dev/flowc/ir"
)

// operandKind is what a comparison operator compares with.
type operandKind int

const (
	opString operandKind = iota
	opNumber
	opBool
	opTimestamp
	opPath  // the ...Path variants
	opCheck // Is*: true or false
)

var comparisons = func() map[string]operandKind {
	ops := map[string]operandKind{
		"StringMatches": opString, "IsNull": opCheck, "IsPresent": opCheck, "IsNumeric": opCheck,
		"IsString": opCheck, "IsBoolean": opCheck, "IsTimestamp": opCheck,
		"BooleanEquals": opBool, "BooleanEqualsPath": opPath,
	}
	for _, kind := range []struct {
		prefix string
		kind   operandKind
	}{{"String", opString}, {"Numeric", opNumber}, {"Timestamp", opTimestamp}} {
		for _, rel := range []string{"Equals", "LessThan", "GreaterThan", "LessThanEquals", "GreaterThanEquals"} {
			ops[kind.prefix+rel] = kind.kind
			ops[kind.prefix+rel+"Path"] = opPath
		}
	}
	return ops
}()

var ruleKeys = func() []string {
	keys := []string{"Variable", "Variable.$", "Next", "Comment", "And", "Or", "Not", "Condition", "Assign", "Output"}
	for op := range comparisons {
		keys = append(keys, op)
	}
	return keys
}()

// choice reads a Choice state: its rules become the cases of a switch.
func (l *lowerer) choice(m yamlx.Map, s *ir.State) {
	l.routes(m, s, true)
}

// routes reads Choices and Default into a switch transition; required says
// whether Choices must be there (Choice) or may be (Approval).
func (l *lowerer) routes(m yamlx.Map, s *ir.State, required bool) {
	t := &ir.Transition{Pos: s.Pos, Kind: ir.TransSwitch}
	s.Next = t
	n := m.Get("Choices")
	switch {
	case n == nil && required:
		l.Diags.Errorf(s.Pos, "Choice state %q needs `Choices`", s.ID)
	case n != nil:
		for _, item := range l.Seq(n, "Choices") {
			rule, next := l.topRule(item, s)
			s.ASL.Rules = append(s.ASL.Rules, rule)
			t.Cases = append(t.Cases, &ir.Case{Pos: rule.Pos, To: next})
		}
		if n.Kind == yaml.SequenceNode && len(n.Content) == 0 {
			l.Diags.Errorf(l.Pos(n), "`Choices` needs at least one rule")
		}
	}
	if d := m.Get("Default"); d != nil {
		id, _ := l.String(d, "Default")
		t.Default = &ir.Ref{Pos: l.ContentPos(d), ID: id}
	}
}

// rule reads a choice rule of state self, or a nested rule when self is nil.
// A top-level rule needs Next; a rule nested in And, Or or Not must not
// have one. A missing Next is reported here and points back at self, so the
// checker does not report it again.
func (l *lowerer) rule(n *yaml.Node, self *ir.State) (*ir.ChoiceRule, ir.Ref) {
	top := self != nil // not the name: "" is a (bad) name too
	r := &ir.ChoiceRule{Pos: l.Pos(n)}
	back := ir.Ref{Pos: r.Pos}
	if top {
		back.ID = self.ID
	}
	var next ir.Ref
	m, ok := l.Mapping(n, "a choice rule", ruleKeys...)
	if !ok {
		return r, back
	}
	nn := m.Get("Next")
	switch {
	case top && nn == nil:
		l.Diags.Errorf(r.Pos, "a choice rule needs `Next`")
		next = back
	case !top && nn != nil:
		l.Diags.Errorf(l.Pos(m.Entries["Next"].Key), "a rule inside And, Or or Not cannot have `Next`; only top-level rules do")
	case nn != nil:
		id, _ := l.String(nn, "Next")
		next = ir.Ref{Pos: l.ContentPos(nn), ID: id}
	}
	if c := m.Get("Comment"); c != nil {
		l.String(c, "Comment")
	}
	ops := operators(m)
	switch len(ops) {
	case 0:
		l.Diags.Errorf(r.Pos, "a choice rule needs one comparison operator (such as StringEquals) or And, Or or Not")
		return r, next
	case 1:
	default:
		l.Diags.Errorf(l.Pos(m.Entries[ops[1]].Key), "a choice rule takes one operator, found %s", strings.Join(ops, " and "))
		return r, next
	}
	r.Op = ops[0]
	if r.Op == "And" || r.Op == "Or" || r.Op == "Not" {
		l.compound(m, r)
	} else {
		l.comparison(m, r)
	}
	return r, next
}

// operators lists the operator keys of a rule in source order.
func operators(m yamlx.Map) []string {
	var ops []string
	for i := 0; i+1 < len(m.Node.Content); i += 2 {
		k := m.Node.Content[i].Value
		if _, isCmp := comparisons[k]; isCmp || k == "And" || k == "Or" || k == "Not" {
			ops = append(ops, k)
		}
	}
	return ops
}

func (l *lowerer) compound(m yamlx.Map, r *ir.ChoiceRule) {
	if v := m.Get("Variable"); v != nil {
		l.Diags.Errorf(l.Pos(m.Entries["Variable"].Key), "`Variable` does not go with %s; put it in the rules inside", r.Op)
	}
	n := m.Get(r.Op)
	if r.Op == "Not" {
		arg, _ := l.rule(n, nil)
		r.Args = []*ir.ChoiceRule{arg}
		foldCompound(r)
		return
	}
	if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
		l.Diags.Errorf(l.Pos(n), "%s needs a non-empty list of rules", r.Op)
		return
	}
	for _, item := range n.Content {
		arg, _ := l.rule(item, nil)
		r.Args = append(r.Args, arg)
	}
	foldCompound(r)
}

func (l *lowerer) comparison(m yamlx.Map, r *ir.ChoiceRule) {
	switch v := m.Get("Variable"); {
	case l.computedVariable(m, r):
	case v != nil && l.constVariables[v]:
	case v != nil:
		r.Variable = l.path(v, "Variable", false, true)
	default:
		l.Diags.Errorf(r.Pos, "a %s rule needs `Variable`", r.Op)
	}
	n := m.Get(r.Op)
	switch comparisons[r.Op] {
	case opString:
		r.Value = l.operandString(n, r.Op)
	case opNumber:
		v := l.Float(n, r.Op, -1e308, 1e308)
		r.Value = v
	case opBool, opCheck:
		r.Value = l.Bool(n, r.Op)
	case opTimestamp:
		s := l.operandString(n, r.Op)
		if _, err := time.Parse(time.RFC3339Nano, s); err != nil && s != "" {
			l.Diags.Errorf(l.ContentPos(n), "%s needs an RFC 3339 timestamp such as 2026-01-02T15:04:05Z, got %q", r.Op, s)
		}
		r.Value = s
	case opPath:
		r.Other = l.path(n, r.Op, false, true)
	}
	if v := m.Get("Variable"); v != nil && l.constVariables[v] {
		l.constComparison(v, r)
	}
}

func (l *lowerer) operandString(n *yaml.Node, what string) string {
	if n.Kind != yaml.ScalarNode || n.Tag != "!!str" {
		l.Diags.Errorf(l.Pos(n), "%s needs a string", what)
		return ""
	}
	return n.Value
}
