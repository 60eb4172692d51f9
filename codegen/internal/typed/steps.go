package typed

import (
	"slices"

	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/codegen/internal/emit"
	"github.com/flowc-dev/flowc/ir"
	"github.com/flowc-dev/flowc/ir/plan"
)

// Steps emits the run loop, then each state's step, its transition and
// the fan-out it opens.
func (g *typedGen) Steps(f *jen.File, t emit.Writer) {
	n := g.n
	var prelude []jen.Code
	var fold jen.Code
	if slices.ContainsFunc(g.w.States, g.p.Tests) || len(g.p.Into) > 0 {
		prelude = append(prelude, jen.Var().Id("u").Id(n.Update).Comment("the update of a state the loop runs itself"))
	}
	plain := g.plainStates()
	if plain != nil {
		prelude, fold = append(prelude, g.plainBuffers()...), g.fold()
	}
	t.Loop(f, g.n, &emit.Loop{
		Loop:   g.p.Loops[0],
		Doc:    "run executes the workflow from step; with a session it saves a checkpoint after every state.",
		Params: []jen.Code{jen.Id("sess").Op("*").Add(emit.Flowcimpl("Session")), jen.Id("in").Id(n.State)},
		Result: jen.Id(n.State), Zero: jen.Id("s"), Done: jen.Id("s"), Works: "s", In: "in",
		Plain: plain, Prelude: prelude, Fold: fold,
		Call: func(s *ir.State) *jen.Statement {
			args := []jen.Code{jen.Id("sctx"), jen.Op("&").Id("s")}
			if takesSession(s) {
				args = append(args, jen.Id("sess"))
			}
			return jen.Id("w").Dot(emit.StepMethod(s)).Call(args...)
		},
		Case: g.testsCase,
		Ctx:  true, Quiet: true,
		Save: jen.If(jen.Id("sess").Op("!=").Nil()).Block(
			jen.Comment("The state's outcome: the state to run next, or the approval the run waits for."),
			jen.Err().Op("=").Id("sess").Dot("Save").Call(jen.Id("ctx"), jen.Id(n.IdsVar()).Index(jen.Id("next")), jen.Id("s"), jen.Err()),
		),
	})
	for _, s := range g.w.States {
		if s.Kind == ir.StateApproval {
			g.approvalStep(f, s)
			g.transitionFunc(f, s)
			continue
		}
		if plan.HasPolicy(s) {
			g.policy(f, s)
		}
		if !g.p.Inline(s) && !g.p.Tests(s) {
			g.step(f, s)
		}
		g.transitionFunc(f, s)
		if fan := g.p.FanOutAt(s.ID); fan != nil {
			g.region(f, fan, t)
		}
	}
}

// plainStates tells the run loop how to run the inline states: from a
// table of their handlers and next steps, one call site per handler.
func (g *typedGen) plainStates() *emit.PlainSpec {
	if len(g.p.Into) == 0 {
		return nil
	}
	return &emit.PlainSpec{
		Handlers: g.p.Into, Handler: g.plainHandler, Next: g.plainNext, Call: g.plainCall, InPlace: g.inPlaceCall,
		InPlaceFold: []jen.Code{
			jen.Id("s").Dot("apply").Call(jen.Id("into")),
			jen.Op("*").Id("into").Op("=").Id(g.n.Update).Values(),
		},
	}
}

// plainHandler is the handler of an inline state, "" for the others.
func (g *typedGen) plainHandler(s *ir.State) string {
	if !g.p.Inline(s) {
		return ""
	}
	return s.Handler.Name
}

// plainNext is the step after an inline state.
func (g *typedGen) plainNext(s *ir.State) string {
	if s.Next.Kind == ir.TransGoto && !s.Next.To.IsEnd() {
		return g.n.StepConst(g.w.State(s.Next.To.ID))
	}
	return g.n.EndConst()
}

// plainCall calls a plain state's handler, which returns its update.
func (g *typedGen) plainCall(handler string) []string {
	return []string{"u, err = w.h." + handler + "(sctx, s)"}
}

// inPlaceCall calls the in-place form of a plain state's handler.
func (g *typedGen) inPlaceCall(handler string) []string {
	return []string{"e = w.into." + handler + "Into(ctx, s, into)"}
}

// testsCase is the case of a state whose transition tests the state (see
// plan.Tests): the handler's call, the fold and the transition, with
// no step method, whose pointer to the state would cost a copy of it.
func (g *typedGen) testsCase(s *ir.State) []jen.Code {
	if !g.p.Tests(s) {
		return nil
	}
	return []jen.Code{jen.If(
		jen.List(jen.Id("u"), jen.Err()).Op("=").Id("w").Dot("h").Dot(s.Handler.Name).Call(jen.Id("sctx"), jen.Id("s")),
		jen.Err().Op("!=").Nil(),
	).Block(
		jen.Err().Op("=").Add(stateError(s.ID)),
	).Else().Block(
		jen.Id("s").Dot("apply").Call(jen.Op("&").Id("u")),
		jen.Id("next").Op("=").Id("s").Dot(nextMethod(s)).Call(),
	)}
}

// plainBuffers are where the in-place handlers write the updates of plain
// states: into, one per run, allocated only for handlers that implement
// n.Into, since it escapes to them. Those run plain states in a loop of
// their own when nothing happens between states (see
// the native writer's inPlace); a returned update goes to u.
func (g *typedGen) plainBuffers() []jen.Code {
	return []jen.Code{
		jen.Comment("Handlers that implement " + g.n.Into + " write a plain state's update here."),
		jen.Var().Id("into").Op("*").Id(g.n.Update),
		jen.If(jen.Id("w").Dot("into").Op("!=").Nil()).Block(jen.Id("into").Op("=").New(jen.Id(g.n.Update))),
		jen.Id("fast").Op(":=").Id("into").Op("!=").Nil().Op("&&").Op("!").Id("hooked"),
	}
}

// fold is what the loop does after a plain state: tag its error with the
// state, or apply its update.
func (g *typedGen) fold() jen.Code {
	plain := jen.Id("call").Op("!=").Id(g.n.NoCall())
	return jen.If(plain.Clone().Op("&&").Err().Op("!=").Nil()).Block(
		jen.Err().Op("=").Op("&").Add(emit.Flowcrt("StateError")).Values(jen.Id("State").Op(":").Id(g.n.IdsVar()).Index(jen.Id("step")), jen.Id("Err").Op(":").Err()),
	).Else().If(plain).Block(jen.Id("s").Dot("apply").Call(jen.Op("&").Id("u")))
}

func (g *typedGen) policy(f *jen.File, s *ir.State) {
	f.Line()
	f.Var().Id(g.n.PolicyVar(s)).Op("=").Add(emit.Flowcimpl("Policy")).CustomFunc(emit.Multiline, func(vals *jen.Group) { emit.PolicyFields(vals, s) })
}
