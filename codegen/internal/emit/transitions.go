package emit

import (
	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/ir"
)

// TestsEval reports whether any branch reads the eval string.
func TestsEval(t *ir.Transition) bool {
	for _, br := range t.Branches {
		if br.Operator != ir.OpDefault {
			return true
		}
	}
	return false
}

// ExitWords names where a region exits to, for a comment or error.
func ExitWords(r ir.Ref) string {
	if r.IsEnd() {
		return "the end of the run"
	}
	return Quote(r.ID)
}

// OnlyDefault reports whether the branches are only the default one.
func OnlyDefault(bs []*ir.Branch) bool {
	for _, b := range bs {
		if b.Operator != ir.OpDefault {
			return false
		}
	}
	return true
}

// BranchSwitch tests the eval string against each branch in turn; end is
// what happens when none matches and none is the default.
func BranchSwitch(b *jen.Group, t *ir.Transition, goTo func(ir.Ref) *jen.Statement, end jen.Code) {
	b.Switch().BlockFunc(func(sw *jen.Group) {
		for _, br := range t.Branches {
			if br.Operator == ir.OpDefault {
				sw.Default().Block(goTo(br.To))
				continue
			}
			sw.Case(BranchMatch(br)).Block(goTo(br.To))
		}
	})
	if !t.HasDefaultBranch() {
		b.Add(end)
	}
}

// BranchMatch is the test of eval, a task's output, that takes branch br.
func BranchMatch(br *ir.Branch) jen.Code {
	eval := jen.Id("eval")
	switch br.Operator {
	case ir.OpContains:
		return jen.Qual("strings", "Contains").Call(eval, jen.Lit(br.When))
	case ir.OpStartsWith:
		return jen.Qual("strings", "HasPrefix").Call(eval, jen.Lit(br.When))
	case ir.OpEndsWith:
		return jen.Qual("strings", "HasSuffix").Call(eval, jen.Lit(br.When))
	case ir.OpGreater:
		return Flowcimpl("NumberGreater").Call(eval, jen.Lit(br.Num))
	case ir.OpLess:
		return Flowcimpl("NumberLess").Call(eval, jen.Lit(br.Num))
	case ir.OpInRange:
		return Flowcimpl("NumberInRange").Call(eval, jen.Lit(br.Min), jen.Lit(br.Max))
	}
	return eval.Op("==").Lit(br.When)
}

// CatchesAll: a catcher for ALL takes every error, so it needs no test.
func CatchesAll(c *ir.Catcher) bool {
	for _, e := range c.Errors {
		if e == "ALL" || e == "States.ALL" {
			return true
		}
	}
	return false
}
