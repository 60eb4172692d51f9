package chain

import (
	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/codegen/internal/emit"
	"github.com/flowc-dev/flowc/ir"
)

// step emits the method that runs one task and picks the next. The
// transition is generated Go: on_failure first, then the branches top to
// bottom, each composing before it moves on.
func (g *chainGen) step(f *jen.File, s *ir.State) {
	f.Line()
	f.Comment(emit.StepMethod(s) + " runs task " + emit.Quote(s.ID) + " and returns the task to run next.")
	f.Func().Params(jen.Id("w").Op("*").Id(g.n.Workflow)).Id(emit.StepMethod(s)).
		Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("s").Op("*").Add(emit.Flowcrt("ChainState"))).
		Params(jen.Id(g.n.Step), jen.Error()).BlockFunc(func(b *jen.Group) {
		eval := jen.Id("eval")
		if !chainTestsEval(s) && (len(s.Next.Branches) == 0 || s.Next.HasDefaultBranch()) {
			eval = jen.Id("_")
		}
		b.List(eval, jen.Err()).Op(":=").Id("s").Dot("RunTask").Call(
			jen.Id("ctx"), jen.Op("&").Id("w").Dot("cfg"), jen.Op("&").Id(g.taskVar(s)), g.handler(s),
		)
		b.If(jen.Err().Op("!=").Nil()).BlockFunc(func(eb *jen.Group) {
			if of := s.Next.OnFailure; of != nil {
				eb.Comment("on_failure takes a failure of the handler; its target's input is this task's input.")
				eb.If(ch("ChainTaskFailed").Call(jen.Err())).Block(
					jen.Id("s").Dot("Traverse").Call(jen.Lit(s.ID), jen.Lit(of.ID)),
					jen.Return(g.target(*of), jen.Nil()),
				)
			}
			eb.Return(jen.Id(g.n.EndConst()), jen.Err())
		})
		g.branches(b, s)
	})
}

// chainTestsEval reports whether any branch of a task reads the eval
// string (see chainMatch for those that do not).
func chainTestsEval(s *ir.State) bool {
	for _, br := range s.Next.Branches {
		switch br.Operator {
		case ir.OpDefault, ir.OpEdgeTraversedAtLeast:
		default:
			return true
		}
	}
	return false
}

var builtinFuncs = map[ir.Builtin]string{
	ir.BuiltinNoop:           "BuiltinNoop",
	ir.BuiltinRaiseError:     "BuiltinRaiseError",
	ir.BuiltinPromptToString: "BuiltinPromptToString",
	ir.BuiltinPromptToInt:    "BuiltinPromptToInt",
}

func (g *chainGen) handler(s *ir.State) jen.Code {
	if fn, ok := builtinFuncs[s.Handler.Builtin]; ok {
		return ch(fn)
	}
	return g.userHandler(s) // handlers.go
}

func (g *chainGen) target(r ir.Ref) *jen.Statement {
	if r.IsEnd() {
		return jen.Id(g.n.EndConst())
	}
	return jen.Id(g.n.StepConst(g.w.State(r.ID)))
}

// branches: the first match top to bottom wins, a default only after all
// the others. A task without branches ends the chain with its output; a
// task whose branches all miss fails it, as contenox's evaluateTransitions
// (runtime/taskengine/taskenv.go) does.
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
				sw.Case(chainMatch(s, br)).Block(body...)
			}
		})
	}
	switch {
	case t.HasDefaultBranch():
	case len(t.Branches) > 0:
		b.Return(jen.Id(g.n.EndConst()), ch("NoBranchMatched").Call(jen.Lit(s.ID), jen.Id("eval")))
	default:
		b.Comment("No branches: the chain ends with this task's output.")
		b.Return(jen.Id(g.n.EndConst()), jen.Nil())
	}
}

// taken is the body of a branch: compose, then go to its target.
func (g *chainGen) taken(s *ir.State, br *ir.Branch) []jen.Code {
	var body []jen.Code
	if c := br.Compose; c != nil {
		body = append(body, jen.If(
			jen.Err().Op("=").Id("s").Dot("Compose").Call(jen.Lit(s.ID), jen.Lit(c.WithVar), ch(strategyFunc(c.Strategy))),
			jen.Err().Op("!=").Nil(),
		).Block(jen.Return(jen.Id(g.n.EndConst()), jen.Err())))
	}
	if !br.To.IsEnd() {
		body = append(body, jen.Id("s").Dot("Traverse").Call(jen.Lit(s.ID), jen.Lit(br.To.ID)))
	}
	return append(body, jen.Return(g.target(br.To), jen.Nil()))
}

// chainMatch is the test of a branch that is not `default`. An
// edge_traversed_at_least branch reads the run's edge counts; the numeric
// operators read the first number of the eval string (flowcrt.ChainNumber);
// an equals branch of a chat_completion on the tool-call token takes both
// of its spellings.
func chainMatch(s *ir.State, br *ir.Branch) jen.Code {
	eval := jen.Id("eval")
	if other, ok := toolCallSpellings[br.When]; ok && br.Operator == ir.OpEquals && s.Chain.Kind == ir.ChainChatCompletion {
		return eval.Clone().Op("==").Lit(br.When).Op("||").Add(eval.Clone()).Op("==").Lit(other)
	}
	switch br.Operator {
	case ir.OpEdgeTraversedAtLeast:
		if e := br.Edge; e != nil {
			return jen.Id("s").Dot("Traversed").Call(jen.Lit(e.From + "->" + e.To)).Op(">=").Lit(e.Count)
		}
	case ir.OpGreater:
		return ch("EvalGreater").Call(eval, jen.Lit(br.Num))
	case ir.OpLess:
		return ch("EvalLess").Call(eval, jen.Lit(br.Num))
	case ir.OpInRange:
		return ch("EvalInRange").Call(eval, jen.Lit(br.Min), jen.Lit(br.Max))
	}
	return emit.BranchMatch(br)
}

// toolCallSpellings: contenox's chat_completion said "tool-call" (the seed
// page; taskexec.go at 0c28a698) and says "tool_call" (taskexec.go today,
// flowc's control token), and real chains branch on both.
var toolCallSpellings = map[string]string{"tool-call": "tool_call", "tool_call": "tool-call"}

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
