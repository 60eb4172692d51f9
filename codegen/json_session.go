package codegen

import (
	"github.com/dave/jennifer/jen"
)

// Sessions of JSON-mode workflows: Invoke, Resume and Decide over
// flowcrt.Sessions, whose state is the run's flowcrt.JSONState, saved
// after every top-level state. A run interrupted before a state resumes
// there once Decide answers.

// sessions emits the session methods and the loop that runs a session
// from a top-level state.
func (g *jsonGen) sessions(f *jen.File) {
	n, start := g.n, quote(g.w.Start.ID)
	ctx := jen.Id("ctx").Qual("context", "Context")
	f.Line()
	doc(f, "Invoke runs the workflow as session sessionID, saving a checkpoint after every top-level state "+
		"through the checkpointer of flowcrt.WithCheckpointer. A new session starts at "+start+" on input. An "+
		"existing one goes on from its last checkpoint with input merged into its context store (nil: unchanged); "+
		"one whose last run finished starts again at "+start+". It returns the context store.")
	f.Func().Params(jen.Id("w").Op("*").Id(n.Workflow)).Id("Invoke").
		Params(ctx.Clone(), jen.Id("sessionID").String(), jen.Id("input").Any()).Params(jen.Any(), jen.Error()).Block(
		jen.Var().Id("in").Op("*").Any(),
		jen.If(jen.Id("input").Op("!=").Nil()).Block(jen.Id("in").Op("=").Op("&").Id("input")),
		jen.List(jen.Id("s"), jen.Err()).Op(":=").Id("w").Dot("sessions").Call().Dot("Invoke").Call(jen.Id("ctx"), jen.Op("&").Id("w").Dot("cfg"), jen.Id("sessionID"), jen.Id("in")),
		jen.Return(jen.Id("s").Dot("Context"), jen.Err()),
	)
	for _, m := range []struct{ name, text string }{
		{"Resume", "Resume continues session sessionID from its last checkpoint, without running again the states that completed; a session whose last run finished returns its context store."},
		{"Decide", "Decide answers the interrupt_before that session sessionID waits at with decision, \"continue\" or \"cancel\", and goes on."},
	} {
		params, args := []jen.Code{ctx.Clone(), jen.Id("sessionID").String()}, []jen.Code{jen.Id("ctx"), jen.Op("&").Id("w").Dot("cfg"), jen.Id("sessionID")}
		if m.name == "Decide" {
			params, args = append(params, jen.Id("decision").String()), append(args, jen.Id("decision"))
		}
		f.Line()
		doc(f, m.text)
		f.Func().Params(jen.Id("w").Op("*").Id(n.Workflow)).Id(m.name).Params(params...).Params(jen.Any(), jen.Error()).Block(
			jen.List(jen.Id("s"), jen.Err()).Op(":=").Id("w").Dot("sessions").Call().Dot(m.name).Call(args...),
			jen.Return(jen.Id("s").Dot("Context"), jen.Err()),
		)
	}
	g.sessionsValue(f)
	g.runAt(f)
}

// sessionsValue describes the workflow to the runtime's session functions.
func (g *jsonGen) sessionsValue(f *jen.File) {
	types := []jen.Code{rt("JSONState"), jen.Any()}
	f.Line()
	f.Comment("sessions describes the workflow to the runtime's session functions: its state is the run's")
	f.Comment("JSONState, with no schema to check.")
	f.Func().Params(jen.Id("w").Op("*").Id(g.n.Workflow)).Id("sessions").Params().Op("*").Add(rt("Sessions")).Types(types...).Block(
		jen.Return(jen.Op("&").Add(rt("Sessions")).Types(types...).Custom(multiline,
			jen.Id("Workflow").Op(":").Lit(g.w.ID),
			jen.Id("Schema").Op(":").Lit("json"),
			jen.Id("Start").Op(":").Lit(g.w.Start.ID),
			jen.Id("Fresh").Op(":").Add(rt("FreshJSONState")),
			jen.Id("Decode").Op(":").Add(rt("DecodeJSONState")),
			jen.Id("Merge").Op(":").Add(rt("MergeJSONInput")),
			jen.Id("Run").Op(":").Id("w").Dot("runAt"),
		)),
	)
}

// runAt emits the session loop: from the top-level state a checkpoint
// names, each state runs and a checkpoint is saved naming the next one.
func (g *jsonGen) runAt(f *jen.File) {
	n := g.n
	f.Line()
	f.Comment("runAt runs session sess from the top-level state a checkpoint names, saving a checkpoint after")
	f.Comment("each state; a fan-out is one step.")
	f.Func().Params(jen.Id("w").Op("*").Id(n.Workflow)).Id("runAt").Params(
		jen.Id("ctx").Qual("context", "Context"), jen.Id("sess").Op("*").Add(rt("Session")),
		jen.Id("s").Add(rt("JSONState")), jen.Id("state").String(),
	).Params(rt("JSONState"), jen.Error()).BlockFunc(func(b *jen.Group) {
		b.Id("s").Dot("Attach").Call(jen.Id("sess"))
		b.Var().Id("step").Id(n.Step)
		b.Switch(jen.Id("state")).BlockFunc(func(sw *jen.Group) {
			for _, s := range g.w.States {
				if g.w.RegionOf(s.ID) == nil {
					sw.Case(jen.Lit(s.ID)).Id("step").Op("=").Id(n.stepConst(s))
				}
			}
			sw.Default().Return(jen.Id("s"), jen.Id("sess").Dot("UnknownState").Call(jen.Id("state")))
		})
		b.For(jen.Id("step").Op("!=").Id(n.endConst())).BlockFunc(func(loop *jen.Group) {
			loop.If(jen.Err().Op(":=").Id("ctx").Dot("Err").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Id("s"), jen.Err()))
			loop.Var().Id("next").Id(n.Step)
			loop.Var().Err().Error()
			loop.Switch(jen.Id("step")).BlockFunc(func(sw *jen.Group) {
				for _, s := range g.w.States {
					if g.w.RegionOf(s.ID) == nil {
						sw.Case(jen.Id(n.stepConst(s))).List(jen.Id("next"), jen.Err()).Op("=").Id("w").Dot(stepMethod(s)).Call(jen.Id("ctx"), jen.Op("&").Id("s"))
					}
				}
			})
			loop.If(jen.Err().Op("=").Id("sess").Dot("Save").Call(jen.Id("ctx"), g.stepID("next"), jen.Id("s"), jen.Err()), jen.Err().Op("!=").Nil()).Block(
				jen.Return(jen.Id("s"), jen.Err()),
			)
			loop.Id("step").Op("=").Id("next")
		})
		b.Return(jen.Id("s"), jen.Nil())
	})
}

// stepID is the id of the state a step variable names, "" for the end.
func (g *jsonGen) stepID(v string) *jen.Statement {
	return jen.Func().Params().String().Block(
		jen.Switch(jen.Id(v)).BlockFunc(func(sw *jen.Group) {
			for _, s := range g.w.States {
				if g.w.RegionOf(s.ID) == nil {
					sw.Case(jen.Id(g.n.stepConst(s))).Return(jen.Lit(s.ID))
				}
			}
		}),
		jen.Return(jen.Lit("")),
	).Call()
}
