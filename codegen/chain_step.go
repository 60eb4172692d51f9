package codegen

import (
	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/ir"
)

// step emits the method that runs one task and picks the next. The
// transition is generated Go: on_failure first, then the branches top to
// bottom, each composing before it moves on.
func (g *chainGen) step(f *jen.File, s *ir.State) {
	f.Line()
	f.Comment(stepMethod(s) + " runs task " + quote(s.ID) + " and returns the task to run next.")
	f.Func().Params(jen.Id("w").Op("*").Id(g.n.Workflow)).Id(stepMethod(s)).
		Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("s").Op("*").Add(rt("ChainState"))).
		Params(jen.Id(g.n.Step), jen.Error()).BlockFunc(func(b *jen.Group) {
		eval := jen.Id("eval")
		if !testsEval(s.Next) {
			eval = jen.Id("_")
		}
		b.List(eval, jen.Err()).Op(":=").Id("s").Dot("RunTask").Call(
			jen.Id("ctx"), jen.Op("&").Id("w").Dot("cfg"), jen.Lit(s.ID), g.prompt(s), g.handler(s),
		)
		b.If(jen.Err().Op("!=").Nil()).BlockFunc(func(eb *jen.Group) {
			if of := s.Next.OnFailure; of != nil {
				eb.Comment("on_failure: the target's input is this task's input, which s still holds.")
				eb.Return(g.target(*of), jen.Nil())
				return
			}
			eb.Return(jen.Id(g.n.endConst()), jen.Err())
		})
		g.branches(b, s)
	})
}

// testsEval reports whether any branch reads the eval string.
func testsEval(t *ir.Transition) bool {
	for _, br := range t.Branches {
		if br.Operator != ir.OpDefault {
			return true
		}
	}
	return false
}

func (g *chainGen) prompt(s *ir.State) jen.Code {
	if s.PromptTemplate == "" {
		return jen.Nil()
	}
	return jen.Id(g.promptVar(s))
}

var builtinFuncs = map[ir.Builtin]string{
	ir.BuiltinNoop:           "BuiltinNoop",
	ir.BuiltinRaiseError:     "BuiltinRaiseError",
	ir.BuiltinPromptToString: "BuiltinPromptToString",
	ir.BuiltinPromptToInt:    "BuiltinPromptToInt",
}

func (g *chainGen) handler(s *ir.State) jen.Code {
	if fn, ok := builtinFuncs[s.Handler.Builtin]; ok {
		return rt(fn)
	}
	return jen.Id("w").Dot("h").Dot(s.Handler.Name)
}

func (g *chainGen) target(r ir.Ref) *jen.Statement {
	if r.IsEnd() {
		return jen.Id(g.n.endConst())
	}
	return jen.Id(g.n.stepConst(g.w.State(r.ID)))
}

// branches: the first match top to bottom wins. When none matches, the
// chain ends successfully with this task's output: the seed lets `goto:
// end` finish a chain and a missing on_failure end one with the error, and
// a chain that runs out of branches is finished rather than failed.
func (g *chainGen) branches(b *jen.Group, s *ir.State) {
	t := s.Next
	switch {
	case len(t.Branches) == 1 && t.Branches[0].Operator == ir.OpDefault:
		for _, c := range g.taken(s, t.Branches[0]) {
			b.Add(c)
		}
	case len(t.Branches) > 0:
		b.Switch().BlockFunc(func(sw *jen.Group) {
			for _, br := range t.Branches {
				body := g.taken(s, br)
				if br.Operator == ir.OpDefault {
					sw.Default().Block(body...)
					continue
				}
				sw.Case(branchMatch(br)).Block(body...)
			}
		})
	}
	if hasDefaultBranch(t) {
		return
	}
	if len(t.Branches) > 0 {
		b.Comment("No branch matched: the chain ends with this task's output.")
	} else {
		b.Comment("No branches: the chain ends with this task's output.")
	}
	b.Return(jen.Id(g.n.endConst()), jen.Nil())
}

// taken is the body of a branch: compose, then go to its target.
func (g *chainGen) taken(s *ir.State, br *ir.Branch) []jen.Code {
	var body []jen.Code
	if c := br.Compose; c != nil {
		body = append(body, jen.If(
			jen.Err().Op("=").Id("s").Dot("Compose").Call(jen.Lit(s.ID), jen.Lit(c.WithVar), rt(strategyFunc(c.Strategy))),
			jen.Err().Op("!=").Nil(),
		).Block(jen.Return(jen.Id(g.n.endConst()), jen.Err())))
	}
	return append(body, jen.Return(g.target(br.To), jen.Nil()))
}

func strategyFunc(strategy string) string {
	switch strategy {
	case "override":
		return "ComposeOverride"
	case "merge_chat_histories":
		return "ComposeMergeChatHistories"
	case "append_string_to_chat_history":
		return "ComposeAppendStringToChatHistory"
	}
	return "ComposeAuto"
}
