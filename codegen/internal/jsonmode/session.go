package jsonmode

import (
	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/codegen/internal/emit"
	"github.com/flowc-dev/flowc/ir"
	"github.com/flowc-dev/flowc/ir/plan"
)

// Sessions of JSON-mode workflows run on the emitter's sessions (see
// plan.jsonSessions): their state is the run's flowcrt.JSONState, saved after
// every top-level state, and their methods take and return the context
// store. A run interrupted before a state resumes there once Decide
// answers.

// SessionHooks: the runtime makes, decodes and merges a JSONState.
func (g *jsonGen) SessionHooks() []jen.Code {
	return []jen.Code{
		jen.Id("Fresh").Op(":").Add(js("FreshJSONState")),
		jen.Id("Decode").Op(":").Add(js("DecodeJSONState")),
		jen.Id("Merge").Op(":").Add(js("MergeJSONInput")),
	}
}

// RunAt attaches the session to the state, whose run saves through it.
func (g *jsonGen) RunAt() []jen.Code {
	return []jen.Code{
		jen.Id("s").Dot("Attach").Call(jen.Id("sess")),
		jen.Err().Op(":=").Id("w").Dot("run").Call(jen.Id("ctx"), jen.Id("sess"), jen.Op("&").Id("s"), jen.Id("step"), jen.Id(g.n.EndConst())),
		jen.Return(jen.Id("s"), jen.Err()),
	}
}

// Invoke emits Invoke, which takes and returns the context store.
func (g *jsonGen) Invoke(f *jen.File) {
	start := emit.Quote(g.w.Start.ID)
	f.Line()
	emit.Doc(f, "Invoke runs the workflow as session sessionID, saving a checkpoint after every top-level state "+
		"through the checkpointer of flowcrt.WithCheckpointer. A new session starts at "+start+" on input. An "+
		"existing one goes on from its last checkpoint with input merged into its context store (nil: unchanged); "+
		"one whose last run finished starts again at "+start+". It returns the context store.")
	f.Func().Params(jen.Id("w").Op("*").Id(g.n.Workflow)).Id("Invoke").
		Params(emit.CtxParam(), jen.Id("sessionID").String(), jen.Id("input").Any()).Params(jen.Any(), jen.Error()).Block(
		jen.Var().Id("in").Op("*").Any(),
		jen.If(jen.Id("input").Op("!=").Nil()).Block(jen.Id("in").Op("=").Op("&").Id("input")),
		jen.List(jen.Id("s"), jen.Err()).Op(":=").Id("w").Dot("sessions").Call().Dot("Invoke").Call(jen.Id("ctx"), jen.Op("&").Id("w").Dot("cfg"), jen.Id("sessionID"), jen.Id("in")),
		jen.Return(jen.Id("s").Dot("Context"), jen.Err()),
	)
	if g.p.StopsInFanOuts() {
		emit.DecideAt(f, g.n.Workflow, g.p.Sessions.Out)
	}
}

// resumeRegion starts the step of s, when it opens a fan-out, with the
// way back into it: a session's run resumed or redriven inside the
// fan-out takes the output s saved instead of running s again.
func (g *jsonGen) resumeRegion(b *jen.Group, s *ir.State) {
	fan := g.p.FanOutAt(s.ID)
	if fan == nil {
		return
	}
	args, out := []jen.Code{jen.Id("ctx"), jen.Id("s")}, "_"
	if fan.Items {
		args, out = append(args, jen.Id("out")), "out"
	}
	b.Comment("A session resumed inside the fan-out goes straight to it: " + emit.Quote(s.ID) + " has run.")
	b.If(jen.List(jen.Id(out), jen.Id("ok")).Op(":=").Id("s").Dot("ResumeFanOut").Call(jen.Id("ctx"), jen.Lit(s.ID)), jen.Id("ok")).Block(
		jen.Return(jen.Id("w").Dot(fan.Method).Call(args...)),
	)
}

// fanOutStops runs a fan-out whose progress a session's run saves, so
// that a run resumed or redriven inside it runs only the branches or
// items that had not finished, and a session can stop in it: each of the
// states in list runs from entry, or from where its checkpoint says it
// stopped, until the fan-out's exit.
func (g *jsonGen) fanOutStops(fan *plan.FanOut, list string, entry jen.Code) *jen.Statement {
	out := jen.Id("out")
	if !fan.Items {
		out = js("JSONOutput").Values()
	}
	step := jen.Id(g.n.Step)
	return js("FanOutStops").Call(jen.Id("ctx"), jen.Id("s"), jen.Lit(fan.From.ID), out, jen.Id(list),
		js("FanOutLimit").Call(jen.Id("w").Dot("h"), jen.Lit(fan.Limit)), jen.Id(g.n.IdsVar()).Index(jen.Empty(), jen.Empty()),
		jen.Func().Params(jen.Id("i").Int()).Add(step).Block(jen.Return(entry)),
		jen.Func().Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("i").Int(), jen.Id("step").Add(step)).Error().Block(
			jen.Return(jen.Id("w").Dot(fan.Loops[0].Method).Call(jen.Id("ctx"), jen.Nil(), jen.Op("&").Id(list).Index(jen.Id("i")), jen.Id("step"), g.target(fan.Exit))),
		))
}
