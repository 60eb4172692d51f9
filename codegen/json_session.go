package codegen

import (
	"github.com/dave/jennifer/jen"
)

// Sessions of JSON-mode workflows run on the emitter's sessions (see
// sessionSpec): their state is the run's flowcrt.JSONState, saved after
// every top-level state, and their methods take and return the context
// store. A run interrupted before a state resumes there once Decide
// answers.

func (g *jsonGen) sessionSpec() *sessionSpec {
	types := []jen.Code{rt("JSONState"), jen.Any()}
	return &sessionSpec{
		value: rt("JSONState"), arg: "s", zero: jen.Id("s"), decides: stopsForDecision(g.w),
		types:  types,
		schema: jen.Lit("json"),
		fields: []jen.Code{
			jen.Id("Fresh").Op(":").Add(rt("FreshJSONState")),
			jen.Id("Decode").Op(":").Add(rt("DecodeJSONState")),
			jen.Id("Merge").Op(":").Add(rt("MergeJSONInput")),
		},
		doc: []string{
			"sessions describes the workflow to the runtime's session functions: its state is the run's",
			"JSONState, with no schema to check.",
		},
		invoke: g.invoke,
		resume: "Resume continues session sessionID from its last checkpoint, without running again the states " +
			"that completed; a session whose last run finished returns its context store.",
		decide: "Decide answers the interrupt_before that session sessionID waits at with decision, \"continue\" " +
			"or \"cancel\", and goes on.",
		out: sessionOut{typ: jen.Any(), field: "Context"},
		runAtOn: []jen.Code{
			jen.Id("s").Dot("Attach").Call(jen.Id("sess")),
			jen.Err().Op(":=").Id("w").Dot("run").Call(jen.Id("ctx"), jen.Id("sess"), jen.Op("&").Id("s"), jen.Id("step"), jen.Id(g.n.endConst())),
			jen.Return(jen.Id("s"), jen.Err()),
		},
	}
}

// invoke emits Invoke, which takes and returns the context store.
func (g *jsonGen) invoke(f *jen.File) {
	start := quote(g.w.Start.ID)
	f.Line()
	doc(f, "Invoke runs the workflow as session sessionID, saving a checkpoint after every top-level state "+
		"through the checkpointer of flowcrt.WithCheckpointer. A new session starts at "+start+" on input. An "+
		"existing one goes on from its last checkpoint with input merged into its context store (nil: unchanged); "+
		"one whose last run finished starts again at "+start+". It returns the context store.")
	f.Func().Params(jen.Id("w").Op("*").Id(g.n.Workflow)).Id("Invoke").
		Params(ctxParam(), jen.Id("sessionID").String(), jen.Id("input").Any()).Params(jen.Any(), jen.Error()).Block(
		jen.Var().Id("in").Op("*").Any(),
		jen.If(jen.Id("input").Op("!=").Nil()).Block(jen.Id("in").Op("=").Op("&").Id("input")),
		jen.List(jen.Id("s"), jen.Err()).Op(":=").Id("w").Dot("sessions").Call().Dot("Invoke").Call(jen.Id("ctx"), jen.Op("&").Id("w").Dot("cfg"), jen.Id("sessionID"), jen.Id("in")),
		jen.Return(jen.Id("s").Dot("Context"), jen.Err()),
	)
}
