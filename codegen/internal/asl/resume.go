package asl

import (
	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/codegen/internal/emit"
	"github.com/flowc-dev/flowc/ir/plan"
)

// entry emits the method that runs the loop of a machine a session's run
// can resume inside: from the machine's start or, in a session resumed
// inside it, from the state its checkpoint names (a compiled-in child,
// which saves its own) or the state it stopped at (a Parallel branch or
// Map iterator).
func (g *aslGen) entry(f *jen.File, l *plan.Loop) {
	n := g.n
	resume, where := "ResumeBranch", "the state it stopped at"
	if l.Session == plan.ChildSession {
		resume, where = "ResumeChild", "the state its checkpoint names"
	}
	f.Line()
	emit.Doc(f, l.Entry+" runs "+l.What+" from its start or, in a session resumed inside it, from "+where+
		", and returns its output.")
	f.Func().Params(jen.Id("w").Op("*").Id(n.Workflow)).Id(l.Entry).
		Params(emit.CtxParam(), jen.Id("x").Op("*").Add(al("ASLExec")), jen.Id("in").Any()).Params(jen.Any(), jen.Error()).Block(
		jen.List(jen.Id("step"), jen.Id("in"), jen.Err()).Op(":=").Add(al(resume)).Call(jen.Id("ctx"), jen.Id("x"),
			jen.Id(n.IdsVar()).Index(jen.Empty(), jen.Empty()), jen.Index().Id(n.Step).Values(startFirst(n, l)...), jen.Id("in")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Return(jen.Id("w").Dot(l.Method).Call(jen.Id("ctx"), jen.Id("x"), jen.Id("in"), jen.Id("step"))),
	)
}

// startFirst are the steps of l's states, its start first.
func startFirst(n plan.Names, l *plan.Loop) []jen.Code {
	steps := []jen.Code{jen.Id(n.StepConst(l.Start))}
	for _, s := range l.States {
		if s != l.Start {
			steps = append(steps, jen.Id(n.StepConst(s)))
		}
	}
	return steps
}

// SessionHooks: the runtime makes, decodes and merges the saved input.
func (g *aslGen) SessionHooks() []jen.Code {
	return []jen.Code{
		jen.Id("Fresh").Op(":").Add(al("EmptyASLInput")),
		jen.Id("Decode").Op(":").Add(emit.Flowcrt("DecodeASLInput")),
		jen.Id("Merge").Op(":").Add(al("MergeASLInput")),
	}
}

// RunAt runs the machine from step on an execution that saves through the
// session, and returns its output as plain JSON values.
func (g *aslGen) RunAt() []jen.Code {
	return []jen.Code{
		jen.List(jen.Id("x"), jen.Id("in"), jen.Err()).Op(":=").Add(al("NewASLExec")).Call(
			jen.Op("&").Id("w").Dot("cfg"), jen.Lit(g.w.ID), jen.Id("w").Dot("h"), jen.Id("input")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Id("x").Dot("SetSession").Call(jen.Id("sess")),
		jen.List(jen.Id("out"), jen.Err()).Op(":=").Id("w").Dot("run").Call(jen.Id("ctx"), jen.Id("x"), jen.Id("in"), jen.Id("step")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Return(al("Plain").Call(jen.Id("out")), jen.Nil()),
	}
}

// Invoke emits Invoke, which merges its input into the session's.
func (g *aslGen) Invoke(f *jen.File) {
	start := emit.Quote(g.w.Start.ID)
	f.Line()
	emit.Doc(f, "Invoke runs the state machine as session sessionID, saving a checkpoint after every top-level "+
		"state through the checkpointer of flowcrt.WithCheckpointer. A new session starts at "+start+" on input. "+
		"An existing one goes on from its last checkpoint, with input merged into its saved input (an object's "+
		"members replace those of the same name; nil: unchanged); one whose last run finished starts again at "+start+".")
	f.Func().Params(jen.Id("w").Op("*").Id(g.n.Workflow)).Id("Invoke").
		Params(emit.CtxParam(), jen.Id("sessionID").String(), jen.Id("input").Any()).
		Params(jen.Any(), jen.Error()).Block(
		jen.Var().Id("in").Op("*").Any(),
		jen.If(jen.Id("input").Op("!=").Nil()).Block(jen.Id("in").Op("=").Op("&").Id("input")),
		jen.Return(jen.Id("w").Dot("sessions").Call().Dot("Invoke").Call(jen.Id("ctx"), jen.Op("&").Id("w").Dot("cfg"), jen.Id("sessionID"), jen.Id("in"))),
	)
	if g.p.StopsInFanOuts() {
		emit.DecideAt(f, g.n.Workflow, plan.SessionOut{Typ: plan.BasicType("any")})
	}
}
