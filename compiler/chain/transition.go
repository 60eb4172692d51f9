package chain

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/flowc-dev/flowc/compiler/diag"
	"github.com/flowc-dev/flowc/ir"
)

var (
	operators  = []string{"equals", "contains", "starts_with", "ends_with", ">", "<", "in_range", "default"}
	strategies = []string{"override", "merge_chat_histories", "append_string_to_chat_history"}
)

// transition reads a task's transition. A task without one, like a task
// whose branches all fail to match, ends the chain after it runs.
func (l *lowerer) transition(n *yaml.Node, s *ir.State) *ir.Transition {
	t := &ir.Transition{Pos: s.Pos, Kind: ir.TransBranches}
	if isAbsent(n) {
		return t
	}
	t.Pos = l.Pos(n)
	m, ok := l.Mapping(n, "transition", transitionKeys...)
	if !ok {
		return t
	}
	if of := m.Get("on_failure"); !isAbsent(of) {
		ref := l.ref(of, "on_failure")
		t.OnFailure = &ref
	}
	if bs := m.Get("branches"); !isAbsent(bs) {
		for _, item := range l.Seq(bs, "branches") {
			if b := l.branch(item); b != nil {
				t.Branches = append(t.Branches, b)
			}
		}
		if s.Handler.Builtin == ir.BuiltinRaiseError && len(t.Branches) > 0 {
			l.Diags.Warnf(l.Pos(bs), "the branches of a `raise_error` task are never evaluated: the task always fails")
		}
	}
	l.checkOrder(t.Branches)
	return t
}

// isAbsent: JSON writers often spell an absent optional member as null.
func isAbsent(n *yaml.Node) bool {
	return n == nil || (n.Kind == yaml.ScalarNode && n.Tag == "!!null")
}

func (l *lowerer) branch(n *yaml.Node) *ir.Branch {
	m, ok := l.Mapping(n, "a branch", "operator", "when", "goto", "compose")
	if !ok {
		return nil
	}
	b := &ir.Branch{Pos: l.Pos(n)}
	if op := m.Get("operator"); op != nil {
		b.Pos = l.ContentPos(op)
		if s, ok := l.String(op, "operator"); ok {
			b.Operator = ir.Operator(s)
			l.when(b, m.Get("when"))
		}
	} else {
		l.Diags.Errorf(b.Pos, "a branch needs an `operator`")
	}
	b.To = l.requiredRef(m.Get("goto"), n, "goto")
	if c := m.Get("compose"); !isAbsent(c) {
		b.Compose = l.compose(c)
	}
	return b
}

// when checks the operator and reads `when` for it, keeping its numbers for
// the numeric operators. A default branch ignores `when`.
func (l *lowerer) when(b *ir.Branch, n *yaml.Node) {
	switch {
	case b.Operator == ir.OpDefault:
		return
	case !slices.Contains(operators, string(b.Operator)):
		l.Diags.Errorf(b.Pos, "unknown operator %q%s; use %s", b.Operator, diag.DidYouMean(string(b.Operator), operators), orList(operators))
		return
	case isAbsent(n):
		l.Diags.Errorf(b.Pos, "a branch with operator `%s` needs `when`", b.Operator)
		return
	}
	text, ok := l.String(n, "when")
	if !ok {
		return
	}
	b.When = text
	switch b.Operator {
	case ir.OpGreater, ir.OpLess:
		v, ok := number(text)
		if !ok {
			l.Diags.Errorf(l.ContentPos(n), "`when` of a `%s` branch must be a number, got %q", b.Operator, text)
		}
		b.Num = v
	case ir.OpInRange:
		lo, hi, ok := numberRange(text)
		if !ok {
			l.Diags.Errorf(l.ContentPos(n), "`when` of an `in_range` branch must be `min,max` with min <= max, got %q", text)
		}
		b.Min, b.Max = lo, hi
	}
}

func number(s string) (float64, bool) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	return v, err == nil && !math.IsNaN(v) && !math.IsInf(v, 0)
}

func numberRange(s string) (lo, hi float64, ok bool) {
	a, b, found := strings.Cut(s, ",")
	lo, ok1 := number(a)
	hi, ok2 := number(b)
	return lo, hi, found && ok1 && ok2 && lo <= hi
}

// checkOrder keeps `default` last: branches are tried top to bottom and
// `default` always matches, so no branch after it could ever be taken.
func (l *lowerer) checkOrder(bs []*ir.Branch) {
	for i, b := range bs {
		if b.Operator != ir.OpDefault || i == len(bs)-1 {
			continue
		}
		l.Diags.Errorf(b.Pos, "the `default` branch must be the last branch")
		for _, after := range bs[i+1:] {
			l.Diags.Errorf(after.Pos, "unreachable branch: the `default` branch on line %d always matches first", b.Pos.Line)
		}
		return
	}
}

func (l *lowerer) compose(n *yaml.Node) *ir.Compose {
	c := &ir.Compose{Pos: l.Pos(n)}
	m, ok := l.Mapping(n, "compose", "with_var", "strategy")
	if !ok {
		return c
	}
	if v := m.Get("with_var"); !isAbsent(v) {
		if c.WithVar, ok = l.String(v, "with_var"); ok && c.WithVar == "" {
			l.Diags.Errorf(l.ContentPos(v), "`with_var` must name a chain variable")
		}
	} else {
		l.Diags.Errorf(c.Pos, "compose needs `with_var`")
	}
	// An empty strategy, like a missing one, asks for the automatic choice.
	if v := m.Get("strategy"); !isAbsent(v) {
		c.Strategy, ok = l.String(v, "strategy")
		if ok && c.Strategy != "" && !slices.Contains(strategies, c.Strategy) {
			l.Diags.Errorf(l.ContentPos(v), "unknown strategy %q%s; use %s, or leave it out for the automatic choice",
				c.Strategy, diag.DidYouMean(c.Strategy, strategies), orList(strategies))
		}
	}
	return c
}

func (l *lowerer) ref(n *yaml.Node, what string) ir.Ref {
	s, _ := l.String(n, what)
	return ir.Ref{Pos: l.ContentPos(n), ID: strings.TrimSpace(s)}
}

// requiredRef reads a reference that must be present in parent.
func (l *lowerer) requiredRef(n, parent *yaml.Node, key string) ir.Ref {
	if isAbsent(n) {
		l.Diags.Errorf(l.Pos(parent), "a branch needs `%s`", key)
		return ir.Ref{Pos: l.Pos(parent)}
	}
	return l.ref(n, key)
}

// orList renders "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}
