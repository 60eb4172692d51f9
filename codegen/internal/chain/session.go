package chain

import (
	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/codegen/internal/emit"
)

// Sessions of task chains run on the emitter's sessions (plan.chainSessions):
// their state is the run's flowcrt.ChainState, which the run loop saves
// after every task (ChainState.Save) once runAt has attached the session.
// A chain never stops for a decision, so it has no Decide.

// SessionHooks: the runtime makes, decodes and merges a ChainState.
func (g *chainGen) SessionHooks() []jen.Code {
	return []jen.Code{
		jen.Id("Fresh").Op(":").Add(ch("FreshChainState")),
		jen.Id("Decode").Op(":").Add(ch("DecodeChainState")),
		jen.Id("Merge").Op(":").Add(ch("MergeChainInput")),
	}
}

// RunAt attaches the session to the state, whose run saves through it.
func (g *chainGen) RunAt() []jen.Code {
	return []jen.Code{
		jen.Id("s").Dot("Attach").Call(jen.Id("sess")),
		jen.Err().Op(":=").Id("w").Dot("run").Call(jen.Id("ctx"), jen.Op("&").Id("s"), jen.Id("step")),
		jen.Return(jen.Id("s"), jen.Err()),
	}
}

// Invoke emits Invoke, which takes the chain's input.
func (g *chainGen) Invoke(f *jen.File) {
	start := emit.Quote(g.w.Start.ID)
	f.Line()
	emit.Doc(f, "Invoke runs the chain as session sessionID, saving a checkpoint after every task through the "+
		"checkpointer of flowcrt.WithCheckpointer. A new session starts at "+start+" with input, any JSON value, "+
		"as its input. An existing one goes on from its last checkpoint with input as the chain's input "+
		"({{.input}}; nil: unchanged), its next task's input unchanged; one whose last run finished starts a new "+
		"run at "+start+" on the input, keeping the composed variables.")
	f.Func().Params(jen.Id("w").Op("*").Id(g.n.Workflow)).Id("Invoke").
		Params(emit.CtxParam(), jen.Id("sessionID").String(), jen.Id("input").Any()).Params(emit.Flowcrt("ChainState"), jen.Error()).Block(
		jen.List(jen.Id("in"), jen.Err()).Op(":=").Add(ch("ChainSessionInput")).Call(jen.Id("input")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(emit.Flowcrt("ChainState").Values(), jen.Err())),
		jen.Return(jen.Id("w").Dot("sessions").Call().Dot("Invoke").Call(jen.Id("ctx"), jen.Op("&").Id("w").Dot("cfg"), jen.Id("sessionID"), jen.Id("in"))),
	)
}
