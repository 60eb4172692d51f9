package asl

import (
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/ir"
)

// choiceStep emits a Choice state: InputPath, the rules in order, then
// OutputPath of the effective input.
func (g *aslGen) choiceStep(b *jen.Group, s *ir.State, spec string) {
	b.Id("cx").Op(":=").Id("x").Dot("Enter").Call(jen.Id("ctx"), jen.Lit(s.ID))
	b.List(jen.Id("in"), jen.Err()).Op(":=").Id(spec).Dot("Input").Call(jen.Id("in"), jen.Id("cx"))
	b.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Id(g.n.EndConst()), jen.Nil(), jen.Err()))
	g.routeOn(b, s, "in", spec)
}

// routeOn emits the rules of a Choice or routed Approval state, evaluated
// against the variable v. The first rule that holds picks the next state;
// a rule that fails (a Variable that points nowhere) fails the state; with
// no match the Default is taken, or States.NoChoiceMatched raised. When
// spec names the state's spec, its OutputPath is then applied to v (a
// Choice); else v is the output as it is (an Approval, already processed).
func (g *aslGen) routeOn(b *jen.Group, s *ir.State, v, spec string) {
	t := s.Next
	cx := jen.Id("cx")
	if spec == "" {
		cx = jen.Nil()
	}
	b.Id("c").Op(":=").Add(al("NewChoice")).Call(jen.Id(v), cx)
	next := jen.Id(g.n.EndConst())
	if t.Default != nil {
		next = g.ref(*t.Default)
	}
	b.Id("next").Op(":=").Add(next)
	if spec != "" {
		b.Id("rule").Op(":=").Lit(-1).Comment("the Default")
	}
	b.Switch().BlockFunc(func(sw *jen.Group) {
		for i, r := range s.ASL.Rules {
			if r.Fixed != nil && !*r.Fixed {
				continue // a template parameter's constant that never matches
			}
			picked := []jen.Code{jen.Id("next").Op("=").Add(g.ref(t.Cases[i].To))}
			if spec != "" {
				picked = append(picked, jen.Id("rule").Op("=").Lit(i))
			}
			if r.Fixed != nil { // always matches: the later rules are never reached
				sw.Default().Block(picked...)
				break
			}
			sw.Case(g.caseOf(i, r)).Block(picked...)
		}
	})
	b.If(jen.Err().Op(":=").Id("c").Dot("Err").Call(), jen.Err().Op("!=").Nil()).Block(
		jen.Return(jen.Id(g.n.EndConst()), jen.Nil(), jen.Err()),
	)
	if t.Default == nil {
		b.If(jen.Id("next").Op("==").Id(g.n.EndConst())).Block(
			jen.Return(jen.Id(g.n.EndConst()), jen.Nil(), al("NoChoiceMatched").Call(jen.Lit(s.ID))),
		)
	}
	if spec == "" {
		b.Return(jen.Id("next"), jen.Id(v), jen.Nil())
		return
	}
	b.List(jen.Id("out"), jen.Err()).Op(":=").Id(spec).Dot("Chosen").Call(jen.Id("cx"), jen.Id(v), jen.Id("rule"))
	b.Return(jen.Id("next"), jen.Id("out"), jen.Err())
}

// caseOf is the condition of the i-th rule r of a switch.
func (g *aslGen) caseOf(i int, r *ir.ChoiceRule) *jen.Statement {
	cond := g.rule(r)
	if i > 0 { // once a rule has failed, no later one may match
		cond = jen.Id("c").Dot("Err").Call().Op("==").Nil().Op("&&").Add(cond)
	}
	return cond
}

// rule renders a choice rule as a Go boolean expression over c.
func (g *aslGen) rule(r *ir.ChoiceRule) *jen.Statement {
	if r.Fixed != nil {
		return jen.Lit(*r.Fixed)
	}
	if r.Call != nil {
		return g.callRule(r)
	}
	switch r.Op {
	case "And", "Or":
		op := "&&"
		if r.Op == "Or" {
			op = "||"
		}
		expr := g.rule(r.Args[0])
		for _, a := range r.Args[1:] {
			expr = expr.Op(op).Add(g.rule(a))
		}
		return jen.Parens(expr)
	case "Not":
		return jen.Op("!").Add(g.rule(r.Args[0]))
	case "Condition":
		return jen.Id("c").Dot("Condition").Call(g.templateVar("Condition", r.Condition))
	case "StringMatches":
		return jen.Id("c").Dot("Matches").Call(g.pathVar(r.Variable), jen.Lit(r.Value))
	}
	if strings.HasPrefix(r.Op, "Is") {
		return jen.Id("c").Dot("Is").Call(al(r.Op), g.pathVar(r.Variable), jen.Lit(r.Value))
	}
	if base, ok := strings.CutSuffix(r.Op, "Path"); ok {
		return jen.Id("c").Dot("CmpPath").Call(al(base), g.pathVar(r.Variable), g.pathVar(r.Other))
	}
	return jen.Id("c").Dot("Cmp").Call(al(r.Op), g.pathVar(r.Variable), jen.Lit(r.Value))
}

// pathVar declares a path once at package level, so that evaluating a rule
// allocates nothing for it, and returns its name.
func (g *aslGen) pathVar(p *ir.Path) jen.Code {
	if name, ok := g.pathVars[p]; ok {
		return jen.Id(name)
	}
	name := g.ids.Fresh(g.n.Prefix + "Path" + itoa(len(g.pathVars)+1))
	g.pathVars[p] = name
	g.vars = append(g.vars, jen.Id(name).Op("=").Add(g.path(p)))
	return jen.Id(name)
}

// templateVar declares a template once at package level and returns its
// name.
func (g *aslGen) templateVar(what string, t *ir.Template) jen.Code {
	name := g.ids.Fresh(g.n.Prefix + what + itoa(len(g.vars)+1))
	g.vars = append(g.vars, jen.Id(name).Op("=").Add(g.template(t)))
	return jen.Id(name)
}
