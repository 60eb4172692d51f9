package codegen

import (
	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/internal/naming"
	"github.com/flowc-dev/flowc/ir"
)

// aslGenVersion is the generator version of States Language code; it needs
// the runtime's ASLExec and friends, and its sessions.
const aslGenVersion = 12 // 12: task tokens, stops inside Map and Parallel; 10: the machinery in runtime/impl

// aslGen emits the Go of a States Language state machine (docs/asl.md):
// a handlers interface with one method per Resource, agent and approval,
// one run loop per (sub-)machine switching over a step enum, one step
// method per state, and a mock. Paths, templates, choice rules and
// intrinsic calls become Go values and expressions here.
type aslGen struct {
	w        *ir.Workflow
	n        names
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

func newASLGen(w *ir.Workflow) *aslGen {
	g := &aslGen{w: w, n: newNames(w), pathVars: map[*ir.Path]string{}, byID: map[string]*ir.State{}, session: map[*ir.State]bool{}}
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
		n.Step, n.endConst(), n.idsVar())
	for _, s := range ir.AllStates(g.w.States) {
		g.byID[s.ID] = s
		g.ids.Reserve(n.stepConst(s))
	}
}

func (g *aslGen) types(*jen.File) {}

func (g *aslGen) shell() *shell {
	n := g.n
	doc := []string{
		n.Handlers + " is the work of the state machine, implemented by you: one method per",
		"Resource and agent. A handler gets the state's effective input (objects as map[string]any)",
		"and returns its result, any value that encodes as JSON. An error fails the state; an",
		"*flowcrt.Error names it for Retry and Catch, any other error is States.TaskFailed.",
	}
	var handlers []handler
	for _, h := range g.handlers {
		m := handler{name: h.h.Name, doc: h.doc(), sig: h.sig(),
			mock: []jen.Code{jen.Return(jen.Id("m").Dot("mocks").Dot("RespondASL").Call(jen.Id("ctx"), jen.Id("in")))}}
		if h.kind == resourceHandler {
			m.sigText, m.mockText = "(ctx context.Context, in any) (any, error)", "return m.mocks.RespondASL(ctx, in)"
		}
		if h.kind == approvalHandler {
			m.doc = ""
			m.mock = []jen.Code{jen.Return(jen.Id("m").Dot("mocks").Dot("RespondApproval").Call(jen.Id("ctx"), jen.Id("req")))}
			if len(doc) == 4 {
				doc = append(doc, "Handlers that also implement flowcrt.Approver answer the Approval states; without it an",
					"Approval state stops the run with an *flowcrt.Interrupted error, and Decide continues it.")
			}
		}
		handlers = append(handlers, m)
	}
	top := len(g.w.States)
	states := append(g.w.States[:top:top], nested(g.w.States)...)
	return &shell{
		w: g.w, n: n, genVersion: aslGenVersion, noun: "the state machine", describe: true,
		handlersDoc: doc, handlers: handlers,
		states: states, resumable: top,
		stepDoc: n.Step + " names a state; the zero value means the (sub-)machine is done.",
		runs: []entry{{
			name: "Run",
			doc: []string{"Run executes the state machine on input, any value that encodes as JSON, and returns its",
				"output. A failure is returned as an error whose *flowcrt.Error holds the name and cause."},
			sig:  sig{params: []sigParam{{"input", basicType("any")}}, results: []*ir.Type{basicType("any")}},
			body: []jen.Code{jen.Return(jen.Id("w").Dot("runAt").Call(jen.Id("ctx"), jen.Nil(), jen.Id("input"), jen.Lit(g.w.Start.ID)))},
		}},
		sessions: g.sessionSpec(),
		mock: mockSpec{
			caller: "state",
			doc: []string{"A mocked Return is the state's raw result, any JSON value; a Throw fails the state with",
				"its Error and Cause. A state with no mock returns its effective input. An Approval's Return",
				"is the decision."},
			marker:       "OrderedValues",
			markerDoc:    []string{"OrderedValues makes the mock see objects as *flowcrt.Object, in their JSON order."},
			stateContext: true,
		},
	}
}

// steps emits the top-level machine, its states and the machines they
// hold, then the compiled paths the choice rules read.
func (g *aslGen) steps(f *jen.File, t target) {
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
			use(s.Handler, agentHandler, s.ID, "agent "+quote(a.Agent.Name))
		case a.Type == ir.ASLTask && s.Handler != nil: // not a compiled-in startExecution
			use(s.Handler, resourceHandler, s.ID, "Resource "+quote(a.Resource))
		case a.Include != nil && s.Handler != nil: // Include or Workflow state not compiled in
			use(s.Handler, resourceHandler, s.ID, "sub-workflow "+quote(a.Include.Template))
		case a.Type == ir.ASLApproval:
			use(s.Handler, approvalHandler, s.ID, "")
		case a.Type == ir.ASLDebate:
			for i, h := range a.Debate.Agents {
				use(h, agentHandler, s.ID, "agent "+quote(a.Debate.Names[i]))
			}
		}
	}
}

// sig is a handler's parameters and results.
func (h *aslHandler) sig() sig {
	anyType := basicType("any")
	switch h.kind {
	case agentHandler:
		return sig{params: []sigParam{{"in", anyType}, {"agent", rtType("Agent")}}, results: []*ir.Type{anyType}}
	case approvalHandler:
		return sig{params: []sigParam{{"req", rtType("ApprovalRequest")}}, results: []*ir.Type{basicType("string")}}
	}
	return sig{params: []sigParam{{"in", anyType}}, results: []*ir.Type{anyType}}
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
		list += quote(u)
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
func (g *aslGen) machine(f *jen.File, t target, method, what string, m *ir.Machine) {
	n := g.n
	top := method == "run"
	l := &loop{
		method: method,
		params: []jen.Code{jen.Id("x").Op("*").Add(rt("ASLExec")), jen.Id("in").Any()},
		until:  jen.Id(n.endConst()),
		result: jen.Any(), zero: jen.Nil(), done: jen.Id("in"),
		states: m.States,
		call: func(s *ir.State) *jen.Statement {
			return jen.Id("w").Dot(stepMethod(s)).Call(jen.Id("sctx"), jen.Id("x"), jen.Id("in"))
		},
		outs: []jen.Code{jen.Id("in")},
		wrap: func(err jen.Code) jen.Code {
			return rt("StateFailed").Call(jen.Id(n.idsVar()).Index(jen.Id("step")), err)
		},
	}
	switch {
	case top:
		l.doc = method + " runs " + what + " from step and returns its output; with a session it saves a " +
			"checkpoint after every state."
		l.save = g.save()
	case g.session[m.States[0]]:
		g.childMachine(f, method, what, l, m)
	case g.stopsInBranch(m):
		g.branchMachine(f, method, what, l, m)
	default:
		l.first = stateIn(m.States, m.Start.ID)
		l.doc = method + " runs " + what + " from state " + quote(l.first.ID) + " and returns its output."
	}
	t.loop(f, n, l)
	for _, s := range m.States {
		g.state(f, t, s)
	}
}

// save records the outcome of a top-level state: the state to run next
// with its input, or the approval the run waits for. Compiled-in children
// save their own (childMachine); Parallel branches and Map iterators save
// nothing: their progress is not checkpointed.
func (g *aslGen) save() jen.Code {
	return jen.Err().Op("=").Id("x").Dot("Save").Call(jen.Id("ctx"), jen.Id(g.n.idsVar()).Index(jen.Id("next")), jen.Id("in"), jen.Err())
}

func stateIn(states []*ir.State, id string) *ir.State {
	for _, s := range states {
		if s.ID == id {
			return s
		}
	}
	return states[0]
}
