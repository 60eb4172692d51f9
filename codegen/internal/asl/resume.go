package asl

import (
	"slices"

	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/codegen/internal/emit"
	"github.com/flowc-dev/flowc/ir"
	"github.com/flowc-dev/flowc/ir/plan"
)

// sessionStates lists the states a session checkpoints after: the top-level
// ones and those of the compiled-in children (Includes, started executions)
// they run, at any depth, but none inside a Parallel branch or Map iterator.
func sessionStates(states []*ir.State, into map[*ir.State]bool) {
	for _, s := range states {
		into[s] = true
		if hasChild(s) {
			sessionStates(s.ASL.Branches[0].States, into)
		}
	}
}

// hasChild reports whether s runs a compiled-in child state machine.
func hasChild(s *ir.State) bool {
	return s.ASL.Include != nil && len(s.ASL.Branches) > 0
}

// childMachine emits the run loop of a compiled-in child a session
// checkpoints in: a loop that starts at a given step and saves after every
// state, and the method that runs it from the child's start or, when the
// run resumes inside the child, from the state its checkpoint names.
func (g *aslGen) childMachine(f *jen.File, method, what string, l *emit.Loop, m *ir.Machine) {
	n := g.n
	from := method + "From"
	l.Method = from
	l.Doc = from + " runs " + what + " from step and returns its output; with a session it saves a " +
		"checkpoint after every state."
	l.Save = jen.Err().Op("=").Id("x").Dot("SaveChild").Call(jen.Id("ctx"), jen.Id(n.IdsVar()).Index(jen.Id("next")), jen.Id("in"), jen.Err())
	f.Line()
	emit.Doc(f, method+" runs "+what+" from its start or, in a session resumed inside it, from the state its "+
		"checkpoint names, and returns its output.")
	f.Func().Params(jen.Id("w").Op("*").Id(n.Workflow)).Id(method).
		Params(emit.CtxParam(), jen.Id("x").Op("*").Add(al("ASLExec")), jen.Id("in").Any()).Params(jen.Any(), jen.Error()).Block(
		jen.List(jen.Id("step"), jen.Id("in"), jen.Err()).Op(":=").Add(al("ResumeChild")).Call(jen.Id("ctx"), jen.Id("x"),
			jen.Id(n.IdsVar()).Index(jen.Empty(), jen.Empty()), jen.Index().Id(n.Step).Values(machineSteps(n, m)...), jen.Id("in")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Return(jen.Id("w").Dot(from).Call(jen.Id("ctx"), jen.Id("x"), jen.Id("in"), jen.Id("step"))),
	)
}

// stopsInChild reports whether m is a compiled-in child that runs inside
// a Parallel branch or a Map iterator and in which a session's run can
// stop (canStop): its run loop, as a top-level child's, starts where the
// stop of its branch says (runtime/impl/asl/resume.go, ResumeChild).
func (g *aslGen) stopsInChild(m *ir.Machine) bool {
	for _, s := range ir.AllStates(g.w.States) {
		if hasChild(s) && s.ASL.Branches[0] == m {
			return canStop(m)
		}
	}
	return false
}

// canStop reports whether m holds an Approval or a callback Task, at any
// depth.
func canStop(m *ir.Machine) bool {
	return slices.ContainsFunc(ir.AllStates(m.States), func(s *ir.State) bool {
		return s.ASL.Type == ir.ASLApproval && s.ASL.Include == nil || isCallback(s)
	})
}

// stopsInBranch reports whether m is a Parallel branch or a Map iterator
// in which a session's run can stop for a decision or a task token: it
// holds an Approval or a callback Task (callback.go), at any depth. Its
// run loop then starts where the checkpoint says the branch stopped
// (branchMachine).
func (g *aslGen) stopsInBranch(m *ir.Machine) bool {
	for _, s := range ir.AllStates(g.w.States) {
		if s.ASL.Include == nil && slices.Contains(s.ASL.Branches, m) {
			return canStop(m)
		}
	}
	return false
}

// branchMachine emits the run loop of a Parallel branch or Map iterator a
// session's run can stop in: a loop that starts at a given step, and the
// method that runs it from the branch's start or, when the run resumes
// inside this branch, from the state it stopped at.
func (g *aslGen) branchMachine(f *jen.File, method, what string, l *emit.Loop, m *ir.Machine) {
	n := g.n
	from := method + "From"
	l.Method = from
	l.Doc = from + " runs " + what + " from step and returns its output."
	f.Line()
	emit.Doc(f, method+" runs "+what+" from its start or, in a session resumed inside it, from the state it "+
		"stopped at, and returns its output.")
	f.Func().Params(jen.Id("w").Op("*").Id(n.Workflow)).Id(method).
		Params(emit.CtxParam(), jen.Id("x").Op("*").Add(al("ASLExec")), jen.Id("in").Any()).Params(jen.Any(), jen.Error()).Block(
		jen.List(jen.Id("step"), jen.Id("in"), jen.Err()).Op(":=").Add(al("ResumeBranch")).Call(jen.Id("ctx"), jen.Id("x"),
			jen.Id(n.IdsVar()).Index(jen.Empty(), jen.Empty()), jen.Index().Id(n.Step).Values(machineSteps(n, m)...), jen.Id("in")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Return(jen.Id("w").Dot(from).Call(jen.Id("ctx"), jen.Id("x"), jen.Id("in"), jen.Id("step"))),
	)
}

// machineSteps are the steps of m's states, its start first.
func machineSteps(n plan.Names, m *ir.Machine) []jen.Code {
	steps := []jen.Code{jen.Id(n.StepConst(stateIn(m.States, m.Start.ID)))}
	for _, s := range m.States {
		if s.ID != m.Start.ID {
			steps = append(steps, jen.Id(n.StepConst(s)))
		}
	}
	return steps
}

// SessionHooks: the runtime makes, decodes and merges the saved input.
func (g *aslGen) SessionHooks() []jen.Code {
	return []jen.Code{
		jen.Id("Fresh").Op(":").Add(al("EmptyASLInput")),
		jen.Id("Decode").Op(":").Add(emit.Rt("DecodeASLInput")),
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
	if slices.ContainsFunc(ir.AllStates(g.w.States), func(s *ir.State) bool {
		return slices.ContainsFunc(s.ASL.Branches, g.stopsInBranch)
	}) {
		emit.DecideAt(f, g.n.Workflow, plan.SessionOut{Typ: plan.BasicType("any")})
	}
}
