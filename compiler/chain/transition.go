package chain

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/flowc-dev/flowc/compiler/diag"
	"github.com/flowc-dev/flowc/ir"
	flowcchain "github.com/flowc-dev/flowc/runtime/impl/chain"
)

var (
	operators = []string{"equals", "contains", "starts_with", "ends_with", ">", "<", "in_range", "edge_traversed_at_least", "default"}
	// aliases are older spellings of operators.
	aliases    = map[string]ir.Operator{"gt": ir.OpGreater, "lt": ir.OpLess}
	strategies = []string{"override", "merge_chat_histories", "append_string_to_chat_history"}
	// The keys of a branch and of its compose; schema.go describes them too.
	branchKeys  = []string{"operator", "when", "goto", "edge", "compose"}
	composeKeys = []string{"with_var", "strategy"}
)

// transition reads a task's transition. A task without one, like a task
// whose branches all fail to match, ends the chain after it runs.
func (l *lowerer) transition(n *yaml.Node, s *ir.State) *ir.Transition {
	t := &ir.Transition{Pos: s.Pos, Kind: ir.TransBranches}
	if isAbsent(n) {
		return t
	}
	t.Pos = l.Pos(n)
	m, ok := l.mapping(n, "transition", transitionKeys...)
	if !ok {
		return t
	}
	// An empty on_failure, which contenox writes for "none", is none.
	if of := m.Get("on_failure"); !isAbsent(of) {
		switch ref := l.ref(of, "on_failure"); {
		case isPlaceholder(ref.ID):
			l.Diags.Warnf(ref.Pos, "on_failure %q is a placeholder for a task filled in before the chain runs; here a failure ends the chain", ref.ID)
		case ref.ID == ir.EndID:
			// contenox's validateChain rejects it; older engines failed
			// the chain when they could not find the task "end".
			l.Diags.Warnf(ref.Pos, "on_failure must name a task, and `end` is none: a failure here fails the chain")
		case ref.ID != "":
			t.OnFailure = &ref
		}
	}
	if bs := m.Get("branches"); !isAbsent(bs) {
		for _, item := range l.Seq(bs, "branches") {
			if b := l.branch(item); b != nil {
				t.Branches = append(t.Branches, b)
			}
		}
		l.checkNoopToken(s, t.Branches)
		if s.Handler.Builtin == ir.BuiltinRaiseError && len(t.Branches) > 0 {
			l.Diags.Warnf(l.Pos(bs), "the branches of a `raise_error` task are never evaluated: the task always fails")
		}
	}
	l.checkOrder(t.Branches)
	return t
}

// checkNoopToken warns about a noop branch that waits for the token
// "noop": today's contenox engine returns it, but the seed documentation,
// which flowc follows, says a noop's eval string mirrors its input.
func (l *lowerer) checkNoopToken(s *ir.State, bs []*ir.Branch) {
	if s.Handler.Builtin != ir.BuiltinNoop {
		return
	}
	for _, b := range bs {
		if b.Operator == ir.OpEquals && b.When == "noop" {
			l.Diags.Warnf(b.Pos, "a noop task's eval string is its input, not the token `noop`; this branch matches only the input \"noop\"")
		}
	}
}

// isAbsent: JSON writers often spell an absent optional member as null.
func isAbsent(n *yaml.Node) bool {
	return n == nil || (n.Kind == yaml.ScalarNode && n.Tag == "!!null")
}

func (l *lowerer) branch(n *yaml.Node) *ir.Branch {
	m, ok := l.mapping(n, "a branch", branchKeys...)
	if !ok {
		return nil
	}
	b := &ir.Branch{Pos: l.Pos(n)}
	if op := m.Get("operator"); op != nil {
		b.Pos = l.ContentPos(op)
		if s, ok := l.String(op, "operator"); ok {
			b.Operator = ir.Operator(s)
			if a, ok := aliases[s]; ok {
				b.Operator = a
			}
			l.when(b, m.Get("when"))
			l.edge(b, m.Get("edge"))
		}
	} else {
		l.Diags.Errorf(b.Pos, "a branch needs an `operator`")
	}
	b.To = l.requiredRef(m.Get("goto"), n, "goto")
	switch {
	case b.To.ID == "":
		b.To.ID = ir.EndID // an empty goto ends the chain, as `end` does
	case isPlaceholder(b.To.ID):
		l.Diags.Warnf(b.To.Pos, "goto %q is a placeholder for a task filled in before the chain runs; here the chain ends", b.To.ID)
		b.To.ID = ir.EndID
	}
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
	if msg := numbers(b); msg != "" {
		l.Diags.Errorf(l.ContentPos(n), "%s", msg)
	} else if _, err := strconv.ParseFloat(strings.TrimSpace(text), 64); err != nil && (b.Operator == ir.OpGreater || b.Operator == ir.OpLess) {
		l.Diags.Warnf(l.ContentPos(n), "`when` %q is not a number; it is read as the first number in it, %v", text, b.Num)
	}
	if b.Operator == ir.OpEdgeTraversedAtLeast {
		count, err := strconv.Atoi(strings.TrimSpace(text))
		if err != nil || count < 0 {
			l.Diags.Errorf(l.ContentPos(n), "`when` of an `edge_traversed_at_least` branch must be a whole number of traversals, got %q", text)
		}
		b.Edge = &ir.Edge{Pos: b.Pos, Count: count}
	}
}

// numbers reads `when` for a numeric operator into b.Num, or b.Min and
// b.Max, as the engine reads it (flowcchain.ChainNumber, ChainRange). It
// returns what is wrong with `when`, or "".
func numbers(b *ir.Branch) string {
	var ok bool
	switch b.Operator {
	case ir.OpGreater, ir.OpLess:
		if b.Num, ok = flowcchain.ChainNumber(b.When); !ok {
			return fmt.Sprintf("`when` of a `%s` branch must hold a number, got %q", b.Operator, b.When)
		}
	case ir.OpInRange:
		if b.Min, b.Max, ok = flowcchain.ChainRange(b.When); !ok {
			return fmt.Sprintf("`when` of an `in_range` branch must be `min-max` or `min,max` with min <= max, got %q", b.When)
		}
	}
	return ""
}

// edge reads the `edge` of an edge_traversed_at_least branch, "from->to";
// the checker's task ids are checked in checkEdges.
func (l *lowerer) edge(b *ir.Branch, n *yaml.Node) {
	if b.Operator != ir.OpEdgeTraversedAtLeast {
		if !isAbsent(n) {
			l.Diags.Warnf(l.Pos(n), "`edge` is read only by `edge_traversed_at_least` branches")
		}
		return
	}
	if isAbsent(n) {
		l.Diags.Errorf(b.Pos, "an `edge_traversed_at_least` branch needs `edge: from->to`")
		return
	}
	text, ok := l.String(n, "edge")
	if !ok || b.Edge == nil {
		return
	}
	from, to, found := strings.Cut(text, "->")
	from, to = strings.TrimSpace(from), strings.TrimSpace(to)
	b.Edge.Pos = l.ContentPos(n)
	if !found || from == "" || to == "" {
		l.Diags.Errorf(b.Edge.Pos, "`edge` must be `from->to` with two task ids, got %q", text)
		return
	}
	b.Edge.From, b.Edge.To = from, to
}

// checkEdges reports edges between tasks that do not exist: their count
// would stay 0 and the branch would never fire.
func (l *lowerer) checkEdges(w *ir.Workflow) {
	var ids []string
	for _, s := range w.States {
		ids = append(ids, s.ID)
	}
	for _, s := range w.States {
		for _, b := range s.Next.Branches {
			e := b.Edge
			if e == nil || e.From == "" {
				continue
			}
			for _, id := range []string{e.From, e.To} {
				if !slices.Contains(ids, id) && (id != ir.EndID || id == e.From) {
					l.Diags.Errorf(e.Pos, "edge %q names task %q, which is not in the chain%s", e.From+"->"+e.To, id, diag.DidYouMean(id, ids))
				}
			}
		}
	}
}

// checkOrder: branches are tried top to bottom, but `default` only after
// all the others, wherever it stands (as contenox does). One default is
// all a transition can use.
func (l *lowerer) checkOrder(bs []*ir.Branch) {
	var first *ir.Branch
	for i, b := range bs {
		switch {
		case b.Operator != ir.OpDefault:
		case first != nil:
			l.Diags.Errorf(b.Pos, "a second `default` branch: the one on line %d is always taken first", first.Pos.Line)
		default:
			first = b
			if i < len(bs)-1 {
				l.Diags.Warnf(b.Pos, "the `default` branch is taken only when no other branch matches, wherever it stands; put it last")
			}
		}
	}
}

func (l *lowerer) compose(n *yaml.Node) *ir.Compose {
	c := &ir.Compose{Pos: l.Pos(n)}
	m, ok := l.mapping(n, "compose", composeKeys...)
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

// isPlaceholder reports a target such as __next_step__, which contenox's
// plan compiler replaces with a real task before the chain is run.
func isPlaceholder(id string) bool {
	return len(id) > 4 && strings.HasPrefix(id, "__") && strings.HasSuffix(id, "__")
}
