package codegen

import (
	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/compiler/naming"
	"github.com/flowc-dev/flowc/ir"
)

// aslGenVersion is the generator version of States Language code; it needs
// the runtime's ASLExec and friends, and its sessions.
const aslGenVersion = checkpointGenVersion

// aslGen emits the Go of a States Language state machine (SPEC §4, §7):
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

func asl(f *jen.File, w *ir.Workflow) {
	g := &aslGen{w: w, n: newNames(w), pathVars: map[*ir.Path]string{}, byID: map[string]*ir.State{}}
	g.reserve()
	g.collectHandlers()
	g.versionGuard(f)
	g.handlersType(f)
	g.workflowType(f)
	g.stepEnum(f)
	g.run(f)
	g.machine(f, "run", "the state machine", &ir.Machine{Start: w.Start, States: w.States})
	g.mock(f)
	if len(g.vars) > 0 {
		f.Line()
		f.Comment("The compiled paths the choice rules read.")
		f.Var().Defs(g.vars...)
	}
}

// reserve takes the fixed package-level names and the step constants, so
// that the variables named after states cannot clash with them.
func (g *aslGen) reserve() {
	n := g.n
	g.ids.Reserve(n.Workflow, "New"+n.Workflow, n.Handlers, n.Mock, "New"+n.Mock, "New"+n.Mock+"Handlers",
		n.Step, n.endConst(), n.prefix+"StateNames")
	for _, s := range allStates(g.w.States) {
		g.byID[s.ID] = s
		g.ids.Reserve(n.stepConst(s))
	}
}

func (g *aslGen) versionGuard(f *jen.File) {
	f.Comment("This file needs a runtime that supports its generation: a mismatch fails to compile here.")
	f.Const().Defs(
		jen.Id("_").Op("=").Add(rt("EnforceVersion")).Call(rt("GenVersion").Op("-").Lit(aslGenVersion)),
		jen.Id("_").Op("=").Add(rt("EnforceVersion")).Call(jen.Lit(aslGenVersion).Op("-").Add(rt("MinGenVersion"))),
	)
}

// allStates lists every state, nested ones right after the state that
// holds them, in source order.
func allStates(states []*ir.State) []*ir.State {
	var out []*ir.State
	for _, s := range states {
		out = append(out, s)
		for _, m := range s.ASL.Branches {
			out = append(out, allStates(m.States)...)
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
	for _, s := range allStates(g.w.States) {
		a := s.ASL
		switch {
		case a.Type == ir.ASLTask && a.Agent != nil:
			use(s.Handler, agentHandler, s.ID, "agent "+quote(a.Agent.Name))
		case a.Type == ir.ASLTask:
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

// signature renders a handler's parameters and results.
func (h *aslHandler) signature(s *jen.Statement) *jen.Statement {
	ctx := jen.Id("ctx").Qual("context", "Context")
	switch h.kind {
	case agentHandler:
		return s.Params(ctx, jen.Id("in").Any(), jen.Id("agent").Add(rt("Agent"))).Params(jen.Any(), jen.Error())
	case approvalHandler:
		return s.Params(ctx, jen.Id("req").Add(rt("ApprovalRequest"))).Params(jen.String(), jen.Error())
	}
	return s.Params(ctx, jen.Id("in").Any()).Params(jen.Any(), jen.Error())
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
	return h.h.Name + " runs " + h.origin + " for the Task states " + list + "."
}

func (g *aslGen) handlersType(f *jen.File) {
	f.Comment(g.n.Handlers + " is the work of the state machine, implemented by you: one method per")
	f.Comment("Resource and agent. A handler gets the state's effective input (objects as map[string]any)")
	f.Comment("and returns its result, any value that encodes as JSON. An error fails the state; an")
	f.Comment("*flowcrt.Error names it for Retry and Catch, any other error is States.TaskFailed.")
	for _, h := range g.handlers {
		if h.kind == approvalHandler {
			f.Comment("Handlers that also implement flowcrt.Approver answer the Approval states; without it an")
			f.Comment("Approval state stops the run with an *flowcrt.Interrupted error, and Decide continues it.")
			break
		}
	}
	f.Type().Id(g.n.Handlers).InterfaceFunc(func(it *jen.Group) {
		for _, h := range g.handlers {
			if h.kind == approvalHandler {
				continue
			}
			it.Add(comment(h.doc()))
			it.Add(h.signature(jen.Id(h.h.Name)))
		}
	})
}

func (g *aslGen) workflowType(f *jen.File) {
	n := g.n
	f.Comment(n.Workflow + " runs the state machine. It is safe for concurrent use: every Run has its own state.")
	if g.w.Description != "" {
		f.Comment("")
		f.Add(comment(g.w.Description))
	}
	f.Type().Id(n.Workflow).Struct(
		jen.Id("h").Id(n.Handlers),
		jen.Id("cfg").Add(rt("Config")),
	)
	f.Line()
	f.Comment("New" + n.Workflow + " returns the state machine over your handlers.")
	f.Func().Id("New"+n.Workflow).Params(jen.Id("h").Id(n.Handlers), jen.Id("opts").Op("...").Add(rt("Option"))).
		Op("*").Id(n.Workflow).Block(
		jen.Return(jen.Op("&").Id(n.Workflow).Values(jen.Dict{
			jen.Id("h"):   jen.Id("h"),
			jen.Id("cfg"): rt("NewConfig").Call(jen.Id("opts").Op("...")),
		})),
	)
}

func (g *aslGen) stepEnum(f *jen.File) {
	n := g.n
	f.Line()
	f.Comment(n.Step + " names a state; the zero value means the (sub-)machine is done.")
	f.Type().Id(n.Step).Int()
	f.Line()
	states := allStates(g.w.States)
	f.Const().DefsFunc(func(d *jen.Group) {
		d.Id(n.endConst()).Id(n.Step).Op("=").Iota()
		for _, s := range states {
			d.Id(n.stepConst(s)).Comment(quote(s.ID))
		}
	})
	f.Line()
	f.Comment(n.prefix + "StateNames maps each step to its state name, for errors.")
	f.Var().Id(n.prefix+"StateNames").Op("=").Index(jen.Op("...")).String().CustomFunc(multiline, func(gr *jen.Group) {
		for _, s := range states {
			gr.Id(n.stepConst(s)).Op(":").Lit(s.ID)
		}
	})
}

func (g *aslGen) run(f *jen.File) {
	n := g.n
	f.Line()
	f.Comment("Run executes the state machine on input, any value that encodes as JSON, and returns its")
	f.Comment("output. A failure is returned as an error whose *flowcrt.Error holds the name and cause.")
	f.Func().Params(jen.Id("w").Op("*").Id(n.Workflow)).Id("Run").
		Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("input").Any()).
		Params(jen.Any(), jen.Error()).Block(
		jen.Return(jen.Id("w").Dot("runAt").Call(jen.Id("ctx"), jen.Nil(), jen.Id("input"), jen.Lit(g.w.Start.ID))),
	)
	g.sessions(f)
	f.Line()
	f.Comment("runAt runs the state machine on input from the top-level state named state; with a session")
	f.Comment("it saves a checkpoint after every top-level state.")
	f.Func().Params(jen.Id("w").Op("*").Id(n.Workflow)).Id("runAt").Params(
		jen.Id("ctx").Qual("context", "Context"), jen.Id("sess").Op("*").Add(rt("Session")),
		jen.Id("input").Any(), jen.Id("state").String(),
	).Params(jen.Any(), jen.Error()).BlockFunc(func(b *jen.Group) {
		b.Var().Id("step").Id(n.Step)
		b.Switch(jen.Id("state")).BlockFunc(func(sw *jen.Group) {
			for _, s := range g.w.States {
				sw.Case(jen.Lit(s.ID)).Block(jen.Id("step").Op("=").Id(n.stepConst(s)))
			}
			sw.Default().Block(jen.Return(jen.Nil(), jen.Id("sess").Dot("UnknownState").Call(jen.Id("state"))))
		})
		b.List(jen.Id("x"), jen.Id("in"), jen.Err()).Op(":=").Add(rt("NewASLExec")).Call(
			jen.Op("&").Id("w").Dot("cfg"), jen.Lit(g.w.ID), jen.Id("w").Dot("h"), jen.Id("input"))
		b.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err()))
		b.Id("x").Dot("SetSession").Call(jen.Id("sess"))
		b.List(jen.Id("out"), jen.Err()).Op(":=").Id("w").Dot("run").Call(jen.Id("ctx"), jen.Id("x"), jen.Id("in"), jen.Id("step"))
		b.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err()))
		b.Return(rt("Plain").Call(jen.Id("out")), jen.Nil())
	})
}

// machine emits the run loop of a (sub-)machine named method, then the
// steps of its states (and of the machines they hold).
func (g *aslGen) machine(f *jen.File, method, what string, m *ir.Machine) {
	n := g.n
	start := stateIn(m.States, m.Start.ID)
	f.Line()
	top := method == "run"
	params := []jen.Code{jen.Id("ctx").Qual("context", "Context"), jen.Id("x").Op("*").Add(rt("ASLExec")), jen.Id("in").Any()}
	first := jen.Id("step").Op(":=").Id(n.stepConst(start))
	if top {
		f.Comment(method + " runs " + what + " from step and returns its output; with a session it saves a")
		f.Comment("checkpoint after every state.")
		params = append(params, jen.Id("step").Id(n.Step))
		first = jen.Null()
	} else {
		f.Comment(method + " runs " + what + " from state " + quote(start.ID) + " and returns its output.")
	}
	f.Func().Params(jen.Id("w").Op("*").Id(n.Workflow)).Id(method).Params(params...).Params(jen.Any(), jen.Error()).Block(
		first,
		jen.For(jen.Id("step").Op("!=").Id(n.endConst())).Block(
			jen.If(jen.Err().Op(":=").Id("ctx").Dot("Err").Call(), jen.Err().Op("!=").Nil()).Block(
				jen.Return(jen.Nil(), jen.Err()),
			),
			jen.Var().Id("next").Id(n.Step),
			jen.Var().Err().Error(),
			jen.Switch(jen.Id("step")).BlockFunc(func(sw *jen.Group) {
				for _, s := range m.States {
					sw.Case(jen.Id(n.stepConst(s))).Block(
						jen.List(jen.Id("next"), jen.Id("in"), jen.Err()).Op("=").Id("w").Dot(stepMethod(s)).Call(jen.Id("ctx"), jen.Id("x"), jen.Id("in")),
					)
				}
			}),
			g.save(top),
			jen.If(jen.Err().Op("!=").Nil()).Block(
				jen.Return(jen.Nil(), rt("StateFailed").Call(jen.Id(n.prefix+"StateNames").Index(jen.Id("step")), jen.Err())),
			),
			jen.Id("step").Op("=").Id("next"),
		),
		jen.Return(jen.Id("in"), jen.Nil()),
	)
	for _, s := range m.States {
		g.state(f, s)
	}
}

// save records the outcome of a top-level state: the state to run next
// with its input, or the approval the run waits for. Nested machines save
// nothing: their progress is not checkpointed.
func (g *aslGen) save(top bool) jen.Code {
	if !top {
		return jen.Null()
	}
	return jen.Err().Op("=").Id("x").Dot("Save").Call(jen.Id("ctx"), jen.Id(g.n.prefix+"StateNames").Index(jen.Id("next")), jen.Id("in"), jen.Err())
}

func stateIn(states []*ir.State, id string) *ir.State {
	for _, s := range states {
		if s.ID == id {
			return s
		}
	}
	return states[0]
}
