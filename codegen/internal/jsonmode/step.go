package jsonmode

import (
	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/codegen/internal/emit"
	"github.com/flowc-dev/flowc/ir"
	"github.com/flowc-dev/flowc/ir/plan"
)

// step emits the method that runs one state and picks the next: errors go
// to the catch rules, then on_failure; the transition tests the state's
// parsed output.
func (g *jsonGen) step(f *jen.File, s *ir.State) {
	f.Line()
	runs := " runs state " + emit.Quote(s.ID)
	var h jen.Code = jen.Id("w").Dot("h").Dot(s.Handler.Name)
	if g.p.RunsItself(s) {
		runs += ", CodeMie's " + g.p.NodeType(s) + ", which the runtime runs itself,"
		h = jen.Nil()
	}
	f.Comment(emit.StepMethod(s) + runs + " and returns the state to run next.")
	f.Func().Params(jen.Id("w").Op("*").Id(g.n.Workflow)).Id(emit.StepMethod(s)).
		Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("s").Op("*").Add(emit.Flowcrt("JSONState"))).
		Params(jen.Id(g.n.Step), jen.Error()).BlockFunc(func(b *jen.Group) {
		args := []jen.Code{jen.Id("ctx"), jen.Op("&").Id("w").Dot("cfg"), jen.Op("&").Id(g.taskVars[s.ID]), h}
		if g.w.CodeMie != nil {
			args = append(args, jen.Id("w").Dot("h")) // may answer interruptions and summarize
		}
		g.resumeRegion(b, s)
		do := jen.Id("s").Dot("Do").Call(args...)
		if usesOutput(s.Next) {
			b.List(jen.Id("out"), jen.Err()).Op(":=").Add(do)
			b.If(jen.Err().Op("!=").Nil()).BlockFunc(func(eb *jen.Group) { g.onError(eb, s) })
		} else {
			b.If(jen.List(jen.Id("_"), jen.Err()).Op(":=").Add(do), jen.Err().Op("!=").Nil()).BlockFunc(func(eb *jen.Group) { g.onError(eb, s) })
		}
		g.transition(b, s)
	})
}

// usesOutput reports whether a transition tests the state's output.
func usesOutput(t *ir.Transition) bool {
	switch t.Kind {
	case ir.TransCondition, ir.TransSwitch, ir.TransMap:
		return true
	case ir.TransActions:
		return len(t.Actions) > 0
	case ir.TransBranches:
		return emit.TestsEval(t)
	}
	return false
}

// transition picks the next state. Conditions and switch cases read the
// output's keys as variables; an action or eval string is the output text.
func (g *jsonGen) transition(b *jen.Group, s *ir.State) {
	t := s.Next
	switch t.Kind {
	case ir.TransGoto:
		b.Add(g.goTo(t.To))
	case ir.TransCondition:
		b.Id("v").Op(":=").Id("out").Dot("Vars").Call()
		b.If(holds(t.Cond)).Block(g.goTo(t.Then))
		b.Add(g.goTo(t.Otherwise))
	case ir.TransSwitch:
		b.Id("v").Op(":=").Id("out").Dot("Vars").Call()
		b.Switch().BlockFunc(func(sw *jen.Group) {
			for _, c := range t.Cases {
				sw.Case(holds(c.Cond)).Block(g.goTo(c.To))
			}
		})
		b.Add(g.goTo(*t.Default))
	case ir.TransActions:
		g.actions(b, t)
	case ir.TransBranches:
		if usesOutput(t) {
			b.Id("eval").Op(":=").Id("out").Dot("Text")
		}
		g.branches(b, t)
	case ir.TransParallel:
		b.Return(jen.Id("w").Dot(g.p.FanOutAt(s.ID).Method).Call(jen.Id("ctx"), jen.Id("s")))
	case ir.TransMap:
		b.Return(jen.Id("w").Dot(g.p.FanOutAt(s.ID).Method).Call(jen.Id("ctx"), jen.Id("s"), jen.Id("out")))
	default:
		b.Return(jen.Id(g.n.EndConst()), jen.Nil())
	}
}

// region emits the function that runs a fan-out: its branches or items
// each run on a copy of s, through the shared run loop, until the state
// after the fan-out; then they are joined into s in order.
func (g *jsonGen) region(f *jen.File, fan *plan.FanOut) {
	if fan.Items {
		g.mapFunc(f, fan)
		return
	}
	var entries []jen.Code
	var ids []string
	for _, s := range fan.Entries {
		entries = append(entries, jen.Id(g.n.StepConst(s)))
		ids = append(ids, s.ID)
	}
	f.Line()
	emit.Doc(f, fan.Method+" runs the branches "+plan.QuoteList(ids)+plan.ConcurrencyWords(fan.Limit)+", each on its own copy of the context "+
		"store and history. Once all are done it merges them into s in that order (the keys each one set, "+
		"the last one winning, then the messages each one added), and the run goes on at "+emit.ExitWords(fan.Exit)+
		". The first failure cancels the other branches and fails the run.")
	f.Func().Params(jen.Id("w").Op("*").Id(g.n.Workflow)).Id(fan.Method).
		Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("s").Op("*").Add(emit.Flowcrt("JSONState"))).
		Params(jen.Id(g.n.Step), jen.Error()).BlockFunc(func(b *jen.Group) {
		b.Id("entries").Op(":=").Index(jen.Lit(len(entries))).Id(g.n.Step).Values(entries...)
		b.Id("branches").Op(":=").Id("s").Dot("Branches").Call(jen.Len(jen.Id("entries")))
		b.Err().Op(":=").Add(g.fanOut(fan, "branches", jen.Id("entries").Index(jen.Id("i"))))
		g.join(b, "branches", fan.Exit)
	})
}

func (g *jsonGen) mapFunc(f *jen.File, fan *plan.FanOut) {
	r := fan.Region
	f.Line()
	emit.Doc(f, fan.Method+" runs the chain "+plan.QuoteList(ir.RefIDs(r.Body))+" for each item of iter_key "+emit.Quote(r.Items)+
		" in the output of "+emit.Quote(r.From)+plan.ConcurrencyWords(fan.Limit)+", each on its own copy of the "+
		"context store and history, where {{task}} is the item and an object item's keys are context "+
		"variables. Once all are done it merges them into s in item order (the keys each one set, the last "+
		"one winning, then the messages each one added), and the run goes on at "+emit.ExitWords(fan.Exit)+
		". The first failure cancels the other items and fails the run.")
	f.Func().Params(jen.Id("w").Op("*").Id(g.n.Workflow)).Id(fan.Method).
		Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("s").Op("*").Add(emit.Flowcrt("JSONState")), jen.Id("out").Add(js("JSONOutput"))).
		Params(jen.Id(g.n.Step), jen.Error()).BlockFunc(func(b *jen.Group) {
		assign := "="
		switch {
		case r.ItemsPath == nil:
			b.Id("items").Op(":=").Id("out").Dot("Items").Call()
			assign = ":="
		case r.Items[0] == '/':
			args := []jen.Code{jen.Lit(r.Items)}
			for _, tok := range r.ItemsPath {
				args = append(args, jen.Lit(tok))
			}
			g.items(b, r, jen.Id("out").Dot("ItemsAt").Call(args...))
		default:
			g.items(b, r, jen.Id("out").Dot("ItemsKey").Call(jen.Lit(r.Items)))
		}
		b.Id("iterations").Op(":=").Id("s").Dot("Iterations").Call(append([]jen.Code{jen.Id("items")}, iteratorKeys(g.w, r)...)...)
		b.Err().Op(assign).Add(g.fanOut(fan, "iterations", jen.Id(g.n.StepConst(fan.Entries[0]))))
		g.join(b, "iterations", fan.Exit)
	})
}

// items declares the items found by a lookup that can fail, which fails
// the state that opened the fan-out.
func (g *jsonGen) items(b *jen.Group, r *ir.Region, lookup *jen.Statement) {
	b.List(jen.Id("items"), jen.Err()).Op(":=").Add(lookup)
	b.If(jen.Err().Op("!=").Nil()).Block(
		jen.Return(jen.Id(g.n.EndConst()), jen.Op("&").Add(emit.Flowcrt("StateError")).Custom(emit.Multiline,
			jen.Id("State").Op(":").Lit(r.From),
			jen.Id("Err").Op(":").Err(),
		)),
	)
}

// fanOut runs each of the states in list through the run loop from entry
// until the fan-out's exit (FanOutStops, session.go). Handlers that answer
// in call order (mocks) get one at a time, in order.
func (g *jsonGen) fanOut(fan *plan.FanOut, list string, entry jen.Code) *jen.Statement {
	return g.fanOutStops(fan, list, entry)
}

// join ends a region function: fail with the first error, or merge the
// branches into s and go on.
func (g *jsonGen) join(b *jen.Group, list string, exit ir.Ref) {
	b.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Id(g.n.EndConst()), jen.Err()))
	b.Id("s").Dot("Join").Call(jen.Id(list))
	b.Return(g.target(exit), jen.Nil())
}

func (g *jsonGen) target(r ir.Ref) *jen.Statement {
	if r.IsEnd() {
		return jen.Id(g.n.EndConst())
	}
	return jen.Id(g.n.StepConst(g.w.State(r.ID)))
}

func (g *jsonGen) goTo(r ir.Ref) *jen.Statement { return jen.Return(g.target(r), jen.Nil()) }

// onError routes a failure to the first matching catcher, then on_failure;
// otherwise the run fails with the error, tagged with the state.
func (g *jsonGen) onError(b *jen.Group, s *ir.State) {
	for _, c := range s.Catch {
		if emit.CatchesAll(c) {
			b.Add(g.goTo(c.Next))
			return // later catchers and on_failure are unreachable
		}
		b.If(emit.Flowcrt("MatchError").Call(jen.Err(), emit.StringSlice(c.Errors))).Block(g.goTo(c.Next))
	}
	if of := s.Next.OnFailure; of != nil {
		b.Add(g.goTo(*of))
		return
	}
	b.Return(jen.Id(g.n.EndConst()), jen.Op("&").Add(emit.Flowcrt("StateError")).Custom(emit.Multiline,
		jen.Id("State").Op(":").Lit(s.ID),
		jen.Id("Err").Op(":").Err(),
	))
}

// actions: the output text is the action; the matching entry wins, else
// `default`; with neither the run ends, as in PocketFlow.
func (g *jsonGen) actions(b *jen.Group, t *ir.Transition) {
	if len(t.Actions) > 0 {
		b.Switch(jen.Id("out").Dot("Text")).BlockFunc(func(sw *jen.Group) {
			for _, a := range t.Actions {
				sw.Case(jen.Lit(a.Name)).Block(g.goTo(a.To))
			}
		})
	}
	if t.Default != nil {
		b.Add(g.goTo(*t.Default))
		return
	}
	b.Return(jen.Id(g.n.EndConst()), jen.Nil())
}

// branches: the output text is the eval string; the first match top to
// bottom wins, and no match ends the run.
func (g *jsonGen) branches(b *jen.Group, t *ir.Transition) {
	switch {
	case len(t.Branches) == 0:
		b.Return(jen.Id(g.n.EndConst()), jen.Nil())
		return
	case emit.OnlyDefault(t.Branches):
		b.Add(g.goTo(t.Branches[0].To))
		return
	}
	emit.BranchSwitch(b, t, g.goTo, jen.Return(jen.Id(g.n.EndConst()), jen.Nil()))
}
