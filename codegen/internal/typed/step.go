package typed

import (
	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/codegen/internal/emit"
	"github.com/flowc-dev/flowc/ir"
	"github.com/flowc-dev/flowc/ir/plan"
)

// step emits the method that runs one state and picks the next. Inside a
// fan-out the method also takes the item (of an iteration) and the list
// the branch records its updates into, for the join.
func (g *typedGen) step(f *jen.File, s *ir.State) {
	r := g.w.RegionOf(s.ID)
	text := emit.StepMethod(s) + " runs state " + emit.Quote(s.ID) + " and returns the state to run next."
	if r != nil {
		text += " It runs inside the fan-out at " + emit.Quote(r.From) + ", on the copy of the state of one " + branchWord(r) +
			", and records its update in rec for the join."
	}
	f.Line()
	emit.Doc(f, text)
	f.Func().Params(jen.Id("w").Op("*").Id(g.n.Workflow)).Id(emit.StepMethod(s)).
		Params(g.stepParams(s)...).Params(jen.Id(g.n.Step), jen.Error()).BlockFunc(func(b *jen.Group) {
		if fan := g.p.FanOutAt(s.ID); fan != nil {
			b.If(jen.Id("sess").Dot("InFanOut").Call(jen.Lit(s.ID))).Block(
				jen.Comment("Resumed inside its fan-out: the handler has run, its update is in s."),
				jen.Return(jen.Id("w").Dot(fan.Method).Call(jen.Id("ctx"), jen.Id("s"), jen.Id("sess"))),
			)
		}
		g.call(b, s)
		g.onError(b, s)
		if r != nil {
			// The state's output in a session's history is its update, what
			// it produced: the branch's state after it would cost a copy
			// for the state that leaves the fan-out, which applies none.
			b.Add(emit.Flowcimpl("ReportOutput")).Call(jen.Id("ctx"), jen.Id("w").Dot("cfg").Dot("Observer"), jen.Id("u"))
		}
		if r == nil || !g.leavesRegion(s, r) {
			b.Id("s").Dot("apply").Call(jen.Op("&").Id("u"))
		}
		if r != nil {
			b.Op("*").Id("rec").Op("=").Append(jen.Op("*").Id("rec"), jen.Id("u"))
		}
		g.transition(b, s)
	})
}

// stepParams: inside a fan-out a step also takes the item (of an
// iteration) and the branch's record; see takesSession for the session.
func (g *typedGen) stepParams(s *ir.State) []jen.Code {
	params := []jen.Code{jen.Id("ctx").Qual("context", "Context"), jen.Id("s").Op("*").Id(g.n.State)}
	if r := g.w.RegionOf(s.ID); r != nil {
		params = append(params, g.regionParams(r)...)
	}
	if takesSession(s) {
		params = append(params, jen.Id("sess").Op("*").Add(emit.Flowcimpl("Session")))
	}
	return params
}

func branchWord(r *ir.Region) string {
	if r.Kind == ir.RegionMap {
		return "item"
	}
	return "branch"
}

// leavesRegion: a state that always goes on to the join (or the state after
// an iteration) need not apply its update to the branch's copy, which
// nothing reads any more; the join applies it from the record.
func (g *typedGen) leavesRegion(s *ir.State, r *ir.Region) bool {
	return s.Next.Kind == ir.TransGoto && s.Next.To.ID == g.p.FanOutAt(r.From).Exit.ID
}

// resultLabel names the handler's action or eval result: "" for handlers
// without one, "_" when no transition tests it.
func resultLabel(s *ir.State) string {
	switch {
	case s.Handler.Kind == ir.HandlerAction && len(s.Next.Actions) > 0:
		return "action"
	case s.Handler.Kind == ir.HandlerEval && !emit.OnlyDefault(s.Next.Branches):
		return "eval"
	case s.Handler.Kind == ir.HandlerUpdate:
		return ""
	}
	return "_"
}

// resultVars are the handler's results besides the error.
func resultVars(label string) []jen.Code {
	if label == "" {
		return []jen.Code{jen.Id("u")}
	}
	return []jen.Code{jen.Id("u"), jen.Id(label)}
}

func (g *typedGen) call(b *jen.Group, s *ir.State) {
	label := resultLabel(s)
	vars := resultVars(label)
	args := []jen.Code{jen.Id("ctx"), jen.Op("*").Id("s")}
	if g.c.HandlerItem(s) != nil {
		args = append(args, jen.Id("item"))
	}
	invoke := jen.Id("w").Dot("h").Dot(s.Handler.Name).Call(args...)
	if !plan.HasPolicy(s) {
		b.List(append(vars, jen.Err())...).Op(":=").Add(invoke)
		return
	}
	b.Var().Id("u").Id(g.n.Update)
	if label != "" && label != "_" {
		b.Var().Id(label).String()
	}
	b.Err().Op(":=").Add(emit.Flowcimpl("Call")).Call(
		jen.Id("ctx"), jen.Op("&").Id("w").Dot("cfg"), jen.Op("&").Id(g.n.PolicyVar(s)),
		jen.Func().Params(jen.Id("ctx").Qual("context", "Context")).Error().Block(
			jen.Var().Err().Error(),
			jen.List(append(vars, jen.Err())...).Op("=").Add(invoke),
			jen.Return(jen.Err()),
		),
	)
}

// onError routes a failure to the first matching catcher, then on_failure;
// otherwise the run fails with the error, tagged with the state.
func (g *typedGen) onError(b *jen.Group, s *ir.State) {
	b.If(jen.Err().Op("!=").Nil()).BlockFunc(func(eb *jen.Group) {
		for _, c := range s.Catch {
			if emit.CatchesAll(c) {
				eb.Return(g.target(c.Next), jen.Nil())
				return // later catchers and on_failure are unreachable
			}
			eb.If(emit.Flowcrt("MatchError").Call(jen.Err(), emit.StringSlice(c.Errors))).Block(
				jen.Return(g.target(c.Next), jen.Nil()),
			)
		}
		if of := s.Next.OnFailure; of != nil {
			eb.Return(g.target(*of), jen.Nil())
			return
		}
		eb.Return(jen.Id(g.n.EndConst()), stateError(s.ID))
	})
}

// stateError tags err with the state it failed.
func stateError(id string) *jen.Statement {
	return jen.Op("&").Add(emit.Flowcrt("StateError")).Values(jen.Id("State").Op(":").Lit(id), jen.Id("Err").Op(":").Err())
}

func (g *typedGen) target(r ir.Ref) *jen.Statement {
	if r.IsEnd() {
		return jen.Id(g.n.EndConst())
	}
	return jen.Id(g.n.StepConst(g.w.State(r.ID)))
}

// goTo ends a transition function at the state r.
func (g *typedGen) goTo(r ir.Ref) *jen.Statement { return jen.Return(g.target(r)) }

// transition ends a step: at a fan-out, or at the state the state's
// transition function picks.
func (g *typedGen) transition(b *jen.Group, s *ir.State) {
	t := s.Next
	switch {
	case t.Kind == ir.TransGoto:
		b.Return(g.target(t.To), jen.Nil())
	case t.Kind == ir.TransParallel || t.Kind == ir.TransMap:
		b.Return(jen.Id("w").Dot(g.p.FanOutAt(s.ID).Method).Call(jen.Id("ctx"), jen.Id("s"), jen.Id("sess")))
	case decides(t):
		var args []jen.Code
		for _, p := range g.nextParams(s) {
			args = append(args, jen.Id(p.name))
		}
		b.Return(jen.Id("s").Dot(nextMethod(s)).Call(args...), jen.Nil())
	default:
		b.Return(jen.Id(g.n.EndConst()), jen.Nil())
	}
}

// decides: the transitions that test something have a function of their
// own, free of handler calls, which any engine's loop can call.
func decides(t *ir.Transition) bool {
	switch t.Kind {
	case ir.TransCondition, ir.TransSwitch, ir.TransActions, ir.TransBranches:
		return true
	}
	return false
}

func nextMethod(s *ir.State) string { return "next" + s.GoName }

type nextParam struct {
	name string
	typ  jen.Code
}

// nextParams are what a transition reads besides the state: the item of
// an iteration, and the action, eval string or decision it tests.
func (g *typedGen) nextParams(s *ir.State) []nextParam {
	var out []nextParam
	if r := g.w.RegionOf(s.ID); r != nil && r.Kind == ir.RegionMap {
		out = append(out, nextParam{"item", g.itemType(g.c.Items(r).Item)})
	}
	if s.Kind == ir.StateApproval {
		if g.usesDecision(s.Next) {
			out = append(out, nextParam{"decision", jen.String()})
		}
		return out
	}
	if label := resultLabel(s); label != "" && label != "_" {
		out = append(out, nextParam{label, jen.String()})
	}
	return out
}

// transitionFunc emits the transition of a state that tests something.
func (g *typedGen) transitionFunc(f *jen.File, s *ir.State) {
	t := s.Next
	if !decides(t) {
		return
	}
	var params []jen.Code
	for _, p := range g.nextParams(s) {
		params = append(params, jen.Id(p.name).Add(p.typ))
	}
	f.Line()
	f.Comment(nextMethod(s) + " picks the state after " + emit.Quote(s.ID) + ".")
	f.Func().Params(jen.Id("s").Op("*").Id(g.n.State)).Id(nextMethod(s)).Params(params...).Id(g.n.Step).BlockFunc(func(b *jen.Group) {
		switch t.Kind {
		case ir.TransCondition:
			b.If(emit.Condition(g.c.Cond(t.Cond))).Block(g.goTo(t.Then))
			b.Add(g.goTo(t.Otherwise))
		case ir.TransSwitch:
			b.Switch().BlockFunc(func(sw *jen.Group) {
				for _, c := range t.Cases {
					sw.Case(emit.Condition(g.c.Cond(c.Cond))).Block(g.goTo(c.To))
				}
			})
			b.Add(g.goTo(*t.Default))
		case ir.TransActions:
			g.actions(b, t)
		case ir.TransBranches:
			g.branches(b, t)
		}
	})
}

// actions: the matching entry wins, else `default`; with neither the run
// ends, as in PocketFlow.
func (g *typedGen) actions(b *jen.Group, t *ir.Transition) {
	if len(t.Actions) > 0 {
		b.Switch(jen.Id("action")).BlockFunc(func(sw *jen.Group) {
			for _, a := range t.Actions {
				sw.Case(jen.Lit(a.Name)).Block(g.goTo(a.To))
			}
		})
	}
	if t.Default != nil {
		b.Add(g.goTo(*t.Default))
		return
	}
	b.Return(jen.Id(g.n.EndConst()))
}

// branches: first match top to bottom wins; no match ends the run.
func (g *typedGen) branches(b *jen.Group, t *ir.Transition) {
	if emit.OnlyDefault(t.Branches) && len(t.Branches) > 0 {
		b.Add(g.goTo(t.Branches[0].To))
		return
	}
	emit.BranchSwitch(b, t, g.goTo, jen.Return(jen.Id(g.n.EndConst())))
}
