package expression

import (
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/parser/operator"
)

// Python and expr agree on most of the grammar of conditions, but not on
// `not` and on chains of comparisons. This file finds where they part.

// comparisons are the operators Python chains: `a < b == c` means
// `a < b and b == c`.
var comparisons = map[string]bool{"==": true, "!=": true, "<": true, "<=": true, ">": true, ">=": true, "in": true}

// isComparison reports whether n is a comparison as written: a comparison
// operator, a `not in`, or a chain like `1 < x < 9`, which expr turns into
// an `&&` located at its second operator.
func (p *parsed) isComparison(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.BinaryNode:
		return comparisons[n.Operator] || p.isChain(n)
	case *ast.UnaryNode:
		return isNotIn(n)
	}
	return false
}

func (p *parsed) isChain(b *ast.BinaryNode) bool {
	loc := b.Location()
	from, to := min(loc.From, len(p.text)), min(loc.To, len(p.text))
	return b.Operator == "&&" && string(p.text[from:max(from, to)]) != "&&"
}

// isNotIn tells `a not in b` from `not (a in b)`: expr locates the
// negation of the former at its `in`.
func isNotIn(u *ast.UnaryNode) bool {
	b, ok := u.Node.(*ast.BinaryNode)
	return ok && u.Operator == "not" && b.Operator == "in" && b.Location() == u.Location()
}

// mixedChain reports a comparison whose left operand is an unparenthesized
// comparison: expr reads `a < b == c` as `(a < b) == c`, Python as a chain.
// Only chains of < <= > >= mean the same in both.
func (p *parsed) mixedChain(b *ast.BinaryNode) bool {
	return comparisons[b.Operator] && p.isComparison(b.Left) && !p.closedBetween(b.Left.Location().From, b.Location().From)
}

// liftNot gives `not` Python's precedence: expr binds it tighter than
// comparisons, so `not a == b` parses as `(not a) == b`; Python means
// `not (a == b)`.
func (p *parsed) liftNot(root *ast.Node) {
	ast.Walk(root, notLifter{p})
}

type notLifter struct{ p *parsed }

func (l notLifter) Visit(n *ast.Node) {
	if b, ok := (*n).(*ast.BinaryNode); ok {
		*n = l.lift(b)
	}
}

// lift turns b = (not x) op y into not (x op y), unless the `not` is
// parenthesized on its own.
func (l notLifter) lift(b *ast.BinaryNode) ast.Node {
	u, ok := b.Left.(*ast.UnaryNode)
	if !ok || u.Operator != "not" || isNotIn(u) || !l.bindsTighterThanNot(b) || l.p.closedBetween(u.Location().From, b.Location().From) {
		return b
	}
	b.Left = u.Node
	u.Node = l.lift(b)
	return u
}

// bindsTighterThanNot reports whether Python's `not` takes b's whole
// operation as its operand: every operator between `and` and `not` in expr's
// table (comparisons and their chains, `in`, `+`, `-`); `*` and above already
// bind tighter.
func (l notLifter) bindsTighterThanNot(b *ast.BinaryNode) bool {
	prec := operator.Binary[b.Operator].Precedence
	return l.p.isChain(b) || prec > operator.Binary["and"].Precedence && prec < operator.Unary["not"].Precedence
}

// closedBetween reports whether a parenthesis group encloses offset from but
// closes before offset to.
func (p *parsed) closedBetween(from, to int) bool {
	for _, g := range p.groups {
		if g.open < from && from < g.close && g.close < to {
			return true
		}
	}
	return false
}
