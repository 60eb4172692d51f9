// Package asl is the dialect of the States Language (Amazon States
// Language and Agent State Language): state machines over JSON values, with
// their paths, templates, intrinsics and JSONata.
package asl

import (
	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/codegen/internal/emit"
	"github.com/flowc-dev/flowc/internal/naming"
	"github.com/flowc-dev/flowc/ir"
	"github.com/flowc-dev/flowc/ir/plan"
)

// aslGen emits the Go of a States Language state machine (docs/asl.md):
// a handlers interface with one method per Resource, agent and approval,
// one run loop per (sub-)machine switching over a step enum, one step
// method per state, and a mock. Paths, templates, choice rules and
// intrinsic calls become Go values and expressions here.
type aslGen struct {
	p        *plan.Plan
	w        *ir.Workflow
	n        plan.Names
	ids      naming.Namer         // package-level identifiers
	byID     map[string]*ir.State // every state, nested ones too
	vars     []jen.Code           // package-level path variables, in order of use
	pathVars map[*ir.Path]string  // already declared
}

// New is the States Language dialect of the plan p.
func New(p *plan.Plan) emit.Dialect {
	g := &aslGen{p: p, w: p.Workflow, n: p.Names, pathVars: map[*ir.Path]string{}, byID: map[string]*ir.State{}}
	g.reserve()
	return g
}

// reserve takes the fixed package-level names and the step constants, so
// that the variables named after states cannot clash with them.
func (g *aslGen) reserve() {
	n := g.n
	g.ids.Reserve(n.Workflow, "New"+n.Workflow, n.Handlers, n.Mock, "New"+n.Mock, "New"+n.Mock+"Handlers",
		n.Step, n.EndConst(), n.IdsVar())
	for _, s := range ir.AllStates(g.w.States) {
		g.byID[s.ID] = s
		g.ids.Reserve(n.StepConst(s))
	}
}

func (g *aslGen) Types(*jen.File) {}

// EntryBody: Run is runAt at the start, without a session.
func (g *aslGen) EntryBody(plan.Entry) []jen.Code {
	return []jen.Code{jen.Return(jen.Id("w").Dot("runAt").Call(jen.Id("ctx"), jen.Nil(), jen.Id("input"), jen.Lit(g.w.Start.ID)))}
}

// MockBody answers an Approval (the method without a doc) from the
// approval mocks, any other handler from the mock of its state.
func (g *aslGen) MockBody(h plan.Handler) []jen.Code {
	if h.Doc == "" {
		return emit.AnswerFromMocks("RespondApproval", jen.Id("ctx"), jen.Id("req"))
	}
	return emit.AnswerFromMocks("RespondASL", jen.Id("ctx"), jen.Id("in"))
}

// MockHelpers: the mock bodies share nothing.
func (g *aslGen) MockHelpers(*jen.File) {}

// Steps emits the top-level machine, its states and the machines they
// hold, then the compiled paths the choice rules read.
func (g *aslGen) Steps(f *jen.File, t emit.Writer) {
	g.machine(f, t, g.p.Loops[0])
	g.callbackAPI(f)
	if len(g.vars) > 0 {
		f.Line()
		f.Comment("The compiled paths the choice rules read.")
		f.Var().Defs(g.vars...)
	}
}

// machine emits the run loop of a (sub-)machine, then the steps of its
// states (and of the machines they hold).
func (g *aslGen) machine(f *jen.File, t emit.Writer, pl *plan.Loop) {
	n := g.n
	l := &emit.Loop{
		Loop:   pl,
		Params: []jen.Code{jen.Id("x").Op("*").Add(al("ASLExec")), jen.Id("in").Any()},
		Result: jen.Any(), Zero: jen.Nil(), Done: jen.Id("in"),
		Call: func(s *ir.State) *jen.Statement {
			return jen.Id("w").Dot(emit.StepMethod(s)).Call(jen.Id("sctx"), jen.Id("x"), jen.Id("in"))
		},
		Outs: []jen.Code{jen.Id("in")},
		Wrap: func(err jen.Code) jen.Code {
			return al("StateFailed").Call(jen.Id(n.IdsVar()).Index(jen.Id("step")), err)
		},
	}
	switch pl.Session {
	case plan.RunSession, plan.ChildSession:
		l.Doc = pl.Method + " runs " + pl.What + " from step and returns its output; with a session it saves a " +
			"checkpoint after every state."
		l.Save = g.save(pl.Session)
	case plan.StopSession:
		l.Doc = pl.Method + " runs " + pl.What + " from step and returns its output."
	default:
		l.Doc = pl.Method + " runs " + pl.What + " from state " + emit.Quote(pl.Start.ID) + " and returns its output."
	}
	if pl.Entry != pl.Method {
		g.entry(f, pl)
	}
	t.Loop(f, n, l)
	for _, s := range pl.Machine.States {
		g.state(f, t, s)
	}
}

// save records the outcome of a top-level state: the state to run next
// with its input, or the approval the run waits for. Compiled-in children
// save their own (SaveChild); Parallel branches and Map iterators save
// nothing: their progress is not checkpointed.
func (g *aslGen) save(session plan.LoopSession) jen.Code {
	method := "Save"
	if session == plan.ChildSession {
		method = "SaveChild"
	}
	return jen.Err().Op("=").Id("x").Dot(method).Call(jen.Id("ctx"), jen.Id(g.n.IdsVar()).Index(jen.Id("next")), jen.Id("in"), jen.Err())
}

// al names the States Language machinery: package asl, which generated
// code imports as flowcasl.
func al(name string) *jen.Statement { return jen.Qual(plan.ASLPath, name) }
