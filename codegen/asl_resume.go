package codegen

import (
	"slices"

	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/ir"
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
func (g *aslGen) childMachine(f *jen.File, method, what string, l *loop, m *ir.Machine) {
	n := g.n
	from := method + "From"
	l.method = from
	l.doc = from + " runs " + what + " from step and returns its output; with a session it saves a " +
		"checkpoint after every state."
	l.save = jen.Err().Op("=").Id("x").Dot("SaveChild").Call(jen.Id("ctx"), jen.Id(n.idsVar()).Index(jen.Id("next")), jen.Id("in"), jen.Err())
	f.Line()
	doc(f, method+" runs "+what+" from its start or, in a session resumed inside it, from the state its "+
		"checkpoint names, and returns its output.")
	f.Func().Params(jen.Id("w").Op("*").Id(n.Workflow)).Id(method).
		Params(ctxParam(), jen.Id("x").Op("*").Add(rt("ASLExec")), jen.Id("in").Any()).Params(jen.Any(), jen.Error()).Block(
		jen.List(jen.Id("step"), jen.Id("in"), jen.Err()).Op(":=").Add(rt("ResumeChild")).Call(jen.Id("ctx"), jen.Id("x"),
			jen.Id(n.idsVar()).Index(jen.Empty(), jen.Empty()), jen.Index().Id(n.Step).Values(machineSteps(n, m)...), jen.Id("in")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Return(jen.Id("w").Dot(from).Call(jen.Id("ctx"), jen.Id("x"), jen.Id("in"), jen.Id("step"))),
	)
}

// stopsInBranch reports whether m is a Parallel branch or a Map iterator
// in which a session's run can stop for a decision or a task token: it
// holds an Approval or a callback Task (asl_callback.go), at any depth. Its run loop then starts where the checkpoint says the
// branch stopped (branchMachine).
func (g *aslGen) stopsInBranch(m *ir.Machine) bool {
	for _, s := range ir.AllStates(g.w.States) {
		if s.ASL.Include != nil || !slices.Contains(s.ASL.Branches, m) {
			continue
		}
		for _, in := range ir.AllStates(m.States) {
			if in.ASL.Type == ir.ASLApproval && in.ASL.Include == nil || isCallback(in) {
				return true
			}
		}
	}
	return false
}

// branchMachine emits the run loop of a Parallel branch or Map iterator a
// session's run can stop in: a loop that starts at a given step, and the
// method that runs it from the branch's start or, when the run resumes
// inside this branch, from the state it stopped at.
func (g *aslGen) branchMachine(f *jen.File, method, what string, l *loop, m *ir.Machine) {
	n := g.n
	from := method + "From"
	l.method = from
	l.doc = from + " runs " + what + " from step and returns its output."
	f.Line()
	doc(f, method+" runs "+what+" from its start or, in a session resumed inside it, from the state it "+
		"stopped at, and returns its output.")
	f.Func().Params(jen.Id("w").Op("*").Id(n.Workflow)).Id(method).
		Params(ctxParam(), jen.Id("x").Op("*").Add(rt("ASLExec")), jen.Id("in").Any()).Params(jen.Any(), jen.Error()).Block(
		jen.List(jen.Id("step"), jen.Id("in"), jen.Err()).Op(":=").Add(rt("ResumeBranch")).Call(jen.Id("ctx"), jen.Id("x"),
			jen.Id(n.idsVar()).Index(jen.Empty(), jen.Empty()), jen.Index().Id(n.Step).Values(machineSteps(n, m)...), jen.Id("in")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Return(jen.Id("w").Dot(from).Call(jen.Id("ctx"), jen.Id("x"), jen.Id("in"), jen.Id("step"))),
	)
}

// machineSteps are the steps of m's states, its start first.
func machineSteps(n names, m *ir.Machine) []jen.Code {
	steps := []jen.Code{jen.Id(n.stepConst(stateIn(m.States, m.Start.ID)))}
	for _, s := range m.States {
		if s.ID != m.Start.ID {
			steps = append(steps, jen.Id(n.stepConst(s)))
		}
	}
	return steps
}
