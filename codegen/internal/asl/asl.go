// Package asl is the dialect of the States Language (Amazon States
// Language and Agent State Language): state machines over JSON values, with
// their paths, templates, intrinsics and JSONata.
package asl

import (
	"github.com/dave/jennifer/jen"
	"github.com/flowc-dev/flowc/ir/plan"

	"github.com/flowc-dev/flowc/codegen/internal/emit"
	"github.com/flowc-dev/flowc/internal/naming"
	"github.com/flowc-dev/flowc/ir"
)

// aslGenVersion is the generator version of States Language code; it needs
// the runtime's ASLExec and friends, and its sessions.
const aslGenVersion = 14 // 14: stops and callbacks inside compiled-in children that branches run; 13: mocks through package flowrun; 12: task tokens, stops inside Map and Parallel; 10: the machinery in runtime/impl

// aslGen emits the Go of a States Language state machine (docs/asl.md):
// a handlers interface with one method per Resource, agent and approval,
// one run loop per (sub-)machine switching over a step enum, one step
// method per state, and a mock. Paths, templates, choice rules and
// intrinsic calls become Go values and expressions here.
type aslGen struct {
	w        *ir.Workflow
	n        plan.Names
	ids      naming.Namer         // package-level identifiers
	byID     map[string]*ir.State // every state, nested ones too
	vars     []jen.Code           // package-level path variables, in order of use
	pathVars map[*ir.Path]string  // already declared
	handlers []*aslHandler
	session  map[*ir.State]bool // the states a session checkpoints after (sessionStates)
}

// aslHandler is one method of the handlers interface.
type aslHandler struct {
	h      *ir.Handler
	kind   handlerKind
	users  []string // the states that call it
	origin string   // the Resource or agent name, for the doc comment
}

type handlerKind int

const (
	resourceHandler handlerKind = iota
	agentHandler
	approvalHandler
)

// New is the States Language dialect of w.
func New(w *ir.Workflow) emit.Dialect {
	g := &aslGen{w: w, n: plan.NewNames(w), pathVars: map[*ir.Path]string{}, byID: map[string]*ir.State{}, session: map[*ir.State]bool{}}
	sessionStates(w.States, g.session)
	g.reserve()
	g.collectHandlers()
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

func (g *aslGen) Shell() *plan.Plan {
	n := g.n
	doc := []string{
		n.Handlers + " is the work of the state machine, implemented by you: one method per",
		"Resource and agent. A handler gets the state's effective input (objects as map[string]any)",
		"and returns its result, any value that encodes as JSON. An error fails the state; an",
		"*flowcrt.Error names it for Retry and Catch, any other error is States.TaskFailed.",
	}
	var handlers []plan.Handler
	for _, h := range g.handlers {
		m := plan.Handler{Name: h.h.Name, Doc: h.doc(), Sig: h.sig()}
		if h.kind == resourceHandler {
			m.SigText, m.MockText = "(ctx context.Context, in any) (any, error)", "return m.mocks.RespondASL(ctx, in)"
		}
		if h.kind == approvalHandler {
			m.Doc = ""
			if len(doc) == 4 {
				doc = append(doc, "Handlers that also implement flowcrt.Approver answer the Approval states; without it an",
					"Approval state stops the run with an *flowcrt.Interrupted error, and Decide continues it.")
			}
		}
		handlers = append(handlers, m)
	}
	top := len(g.w.States)
	states := append(g.w.States[:top:top], nested(g.w.States)...)
	reads, writes := distributedIO(g.w)
	return &plan.Plan{
		InputDecoder: "DecodeASLInput", ItemReads: reads, ResultWrites: writes,
		Workflow: g.w, Names: n, GenVersion: aslGenVersion, Noun: "the state machine", Describe: true,
		HandlersDoc: doc, Handlers: handlers,
		States: states, Resumable: top,
		StepDoc: n.Step + " names a state; the zero value means the (sub-)machine is done.",
		Runs: []plan.Entry{{
			Name: "Run",
			Doc: []string{"Run executes the state machine on input, any value that encodes as JSON, and returns its",
				"output. A failure is returned as an error whose *flowcrt.Error holds the name and cause."},
			Sig: plan.Sig{Params: []plan.SigParam{{Name: "input", Typ: plan.BasicType("any")}}, Results: []*ir.Type{plan.BasicType("any")}},
		}},
		Sessions: g.sessionSpec(),
		Mock: plan.MockSpec{
			Caller: "state",
			Doc: []string{"A mocked Return is the state's raw result, any JSON value; a Throw fails the state with",
				"its Error and Cause. A state with no mock returns its effective input. An Approval's Return",
				"is the decision."},
			Marker:       "OrderedValues",
			MarkerDoc:    []string{"OrderedValues makes the mock see objects as *flowcrt.Object, in their JSON order."},
			StateContext: true,
		},
	}
}

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
func (g *aslGen) Steps(f *jen.File, t emit.Target) {
	g.machine(f, t, "run", "the state machine", &ir.Machine{Start: g.w.Start, States: g.w.States})
	g.callbackAPI(f)
	if len(g.vars) > 0 {
		f.Line()
		f.Comment("The compiled paths the choice rules read.")
		f.Var().Defs(g.vars...)
	}
}

// nested lists the states inside Parallel branches and Map iterators.
func nested(states []*ir.State) []*ir.State {
	var out []*ir.State
	for _, s := range states {
		for _, m := range s.ASL.Branches {
			out = append(out, ir.AllStates(m.States)...)
		}
	}
	return out
}

// collectHandlers lists each handler once, in order of first use.
func (g *aslGen) collectHandlers() {
	byName := map[string]*aslHandler{}
	use := func(h *ir.Handler, kind handlerKind, state, origin string) {
		ah := byName[h.Name]
		if ah == nil {
			ah = &aslHandler{h: h, kind: kind, origin: origin}
			byName[h.Name] = ah
			g.handlers = append(g.handlers, ah)
		}
		ah.users = append(ah.users, state)
	}
	for _, s := range ir.AllStates(g.w.States) {
		a := s.ASL
		switch {
		case a.Type == ir.ASLTask && a.Agent != nil:
			use(s.Handler, agentHandler, s.ID, "agent "+emit.Quote(a.Agent.Name))
		case a.Type == ir.ASLTask && s.Handler != nil: // not a compiled-in startExecution
			use(s.Handler, resourceHandler, s.ID, "Resource "+emit.Quote(a.Resource))
		case a.Include != nil && s.Handler != nil: // Include or Workflow state not compiled in
			use(s.Handler, resourceHandler, s.ID, "sub-workflow "+emit.Quote(a.Include.Template))
		case a.Type == ir.ASLApproval:
			use(s.Handler, approvalHandler, s.ID, "")
		case a.Type == ir.ASLDebate:
			for i, h := range a.Debate.Agents {
				use(h, agentHandler, s.ID, "agent "+emit.Quote(a.Debate.Names[i]))
			}
		}
	}
}

// sig is a handler's parameters and results.
func (h *aslHandler) sig() plan.Sig {
	anyType := plan.BasicType("any")
	switch h.kind {
	case agentHandler:
		return plan.Sig{Params: []plan.SigParam{{Name: "in", Typ: anyType}, {Name: "agent", Typ: plan.RtType("Agent")}}, Results: []*ir.Type{anyType}}
	case approvalHandler:
		return plan.Sig{Params: []plan.SigParam{{Name: "req", Typ: plan.RtType("ApprovalRequest")}}, Results: []*ir.Type{plan.BasicType("string")}}
	}
	return plan.Sig{Params: []plan.SigParam{{Name: "in", Typ: anyType}}, Results: []*ir.Type{anyType}}
}

func (h *aslHandler) doc() string {
	users := h.users
	list := ""
	seen := map[string]bool{}
	for _, u := range users {
		if seen[u] {
			continue
		}
		seen[u] = true
		if list != "" {
			list += ", "
		}
		list += emit.Quote(u)
	}
	switch h.kind {
	case approvalHandler:
		return h.h.Name + " answers the Approval states " + list + " with the chosen option."
	case agentHandler:
		return h.h.Name + " is " + h.origin + ", called by " + list + "."
	}
	return h.h.Name + " runs " + h.origin + " for the Task states " + list + "." + callbackNote(h.origin)
}

// machine emits the run loop of a (sub-)machine named method, then the
// steps of its states (and of the machines they hold).
func (g *aslGen) machine(f *jen.File, t emit.Target, method, what string, m *ir.Machine) {
	n := g.n
	top := method == "run"
	l := &emit.Loop{
		Method: method,
		Params: []jen.Code{jen.Id("x").Op("*").Add(emit.Rt("ASLExec")), jen.Id("in").Any()},
		Until:  jen.Id(n.EndConst()),
		Result: jen.Any(), Zero: jen.Nil(), Done: jen.Id("in"),
		States: m.States,
		Call: func(s *ir.State) *jen.Statement {
			return jen.Id("w").Dot(emit.StepMethod(s)).Call(jen.Id("sctx"), jen.Id("x"), jen.Id("in"))
		},
		Outs: []jen.Code{jen.Id("in")},
		Wrap: func(err jen.Code) jen.Code {
			return emit.Rt("StateFailed").Call(jen.Id(n.IdsVar()).Index(jen.Id("step")), err)
		},
	}
	switch {
	case top:
		l.Doc = method + " runs " + what + " from step and returns its output; with a session it saves a " +
			"checkpoint after every state."
		l.Save = g.save()
	case g.session[m.States[0]] || g.stopsInChild(m):
		g.childMachine(f, method, what, l, m)
	case g.stopsInBranch(m):
		g.branchMachine(f, method, what, l, m)
	default:
		l.First = stateIn(m.States, m.Start.ID)
		l.Doc = method + " runs " + what + " from state " + emit.Quote(l.First.ID) + " and returns its output."
	}
	t.Loop(f, n, l)
	for _, s := range m.States {
		g.state(f, t, s)
	}
}

// save records the outcome of a top-level state: the state to run next
// with its input, or the approval the run waits for. Compiled-in children
// save their own (childMachine); Parallel branches and Map iterators save
// nothing: their progress is not checkpointed.
func (g *aslGen) save() jen.Code {
	return jen.Err().Op("=").Id("x").Dot("Save").Call(jen.Id("ctx"), jen.Id(g.n.IdsVar()).Index(jen.Id("next")), jen.Id("in"), jen.Err())
}

func stateIn(states []*ir.State, id string) *ir.State {
	for _, s := range states {
		if s.ID == id {
			return s
		}
	}
	return states[0]
}
