package plan

import (
	"slices"
	"strconv"
	"strings"

	"github.com/flowc-dev/flowc/ir"
)

// aslGenVersion is the generator version of States Language code; it needs
// the runtime's ASLExec and friends, and its sessions.
const aslGenVersion = 15 // 15: ResultWriter's WriterConfig (OutputType, Transformation) and the Temporal CloseResults without counts; 14: stops and callbacks inside compiled-in children that branches run, the machinery in runtime/impl/asl; 13: mocks through package flowrun; 12: task tokens, stops inside Map and Parallel; 10: the machinery in runtime/impl

// callbackSuffix ends the Resource of a Task that waits for its token.
const callbackSuffix = ".waitForTaskToken"

// aslPlan is the plan of a States Language state machine (Amazon States
// Language and Agent State Language): one handler per Resource, agent and
// approval, and a step enum of the top-level states, then those inside
// Parallel branches and Map iterators.
func aslPlan(c *ir.Checked) *Plan {
	w := c.Workflow
	n := newNames(w)
	doc := []string{
		n.Handlers + " is the work of the state machine, implemented by you: one method per",
		"Resource and agent. A handler gets the state's effective input (objects as map[string]any)",
		"and returns its result, any value that encodes as JSON. An error fails the state; an",
		"*flowcrt.Error names it for Retry and Catch, any other error is States.TaskFailed.",
	}
	var handlers []Handler
	for _, h := range aslHandlers(w) {
		m := Handler{Name: h.h.Name, Doc: h.doc(), Sig: h.sig()}
		if h.kind == resourceHandler {
			m.Answer = respond("RespondASL", "ctx", "in")
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
	top := len(w.States)
	states := append(w.States[:top:top], nested(w.States)...)
	reads, writes := distributedIO(w)
	p := &Plan{
		InputDecoder: &Ref{RuntimePath, "DecodeASLInput"}, ItemReads: reads, ResultWrites: writes,
		Checked: c, Names: n, GenVersion: aslGenVersion, Noun: "the state machine", Describe: true,
		HandlersDoc: doc, Handlers: handlers,
		StepEnum: states, Resumable: top,
		StepDoc: n.Step + " names a state; the zero value means the (sub-)machine is done.",
		Runs: []Entry{{
			Name: "Run",
			Doc: []string{"Run executes the state machine on input, any value that encodes as JSON, and returns its",
				"output. A failure is returned as an error whose *flowcrt.Error holds the name and cause."},
			Sig: Sig{Params: []Param{{Name: "input", Typ: BasicType("any")}}, Results: []*ir.Type{BasicType("any")}},
		}},
		Sessions: aslSessions(w),
		Mock: mockSpec{
			Caller: "state",
			Doc: []string{"A mocked Return is the state's raw result, any JSON value; a Throw fails the state with",
				"its Error and Cause. A state with no mock returns its effective input. An Approval's Return",
				"is the decision."},
			Marker:       "OrderedValues",
			MarkerDoc:    []string{"OrderedValues makes the mock see objects as *flowcrt.Object, in their JSON order."},
			StateContext: true,
		},
	}
	return p.withASLLoops()
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

// aslHandlers lists each handler once, in order of first use.
func aslHandlers(w *ir.Workflow) []*aslHandler {
	var out []*aslHandler
	byName := map[string]*aslHandler{}
	use := func(h *ir.Handler, kind handlerKind, state, origin string) {
		ah := byName[h.Name]
		if ah == nil {
			ah = &aslHandler{h: h, kind: kind, origin: origin}
			byName[h.Name] = ah
			out = append(out, ah)
		}
		ah.users = append(ah.users, state)
	}
	for _, s := range ir.AllStates(w.States) {
		a := s.ASL
		switch {
		case a.Type == ir.ASLTask && a.Agent != nil:
			use(s.Handler, agentHandler, s.ID, "agent "+strconv.Quote(a.Agent.Name))
		case a.Type == ir.ASLTask && s.Handler != nil: // not a compiled-in startExecution
			use(s.Handler, resourceHandler, s.ID, "Resource "+strconv.Quote(a.Resource))
		case a.Include != nil && s.Handler != nil: // Include or Workflow state not compiled in
			use(s.Handler, resourceHandler, s.ID, "sub-workflow "+strconv.Quote(a.Include.Template))
		case a.Type == ir.ASLApproval:
			use(s.Handler, approvalHandler, s.ID, "")
		case a.Type == ir.ASLDebate:
			for i, h := range a.Debate.Agents {
				use(h, agentHandler, s.ID, "agent "+strconv.Quote(a.Debate.Names[i]))
			}
		}
	}
	return out
}

// sig is a handler's parameters and results.
func (h *aslHandler) sig() Sig {
	anyType := BasicType("any")
	switch h.kind {
	case agentHandler:
		return Sig{Params: []Param{{Name: "in", Typ: anyType}, {Name: "agent", Typ: RtType(RuntimePath, "Agent")}}, Results: []*ir.Type{anyType}}
	case approvalHandler:
		return Sig{Params: []Param{{Name: "req", Typ: RtType(RuntimePath, "ApprovalRequest")}}, Results: []*ir.Type{BasicType("string")}}
	}
	return Sig{Params: []Param{{Name: "in", Typ: anyType}}, Results: []*ir.Type{anyType}}
}

func (h *aslHandler) doc() string {
	list := ""
	seen := map[string]bool{}
	for _, u := range h.users {
		if seen[u] {
			continue
		}
		seen[u] = true
		if list != "" {
			list += ", "
		}
		list += strconv.Quote(u)
	}
	switch h.kind {
	case approvalHandler:
		return h.h.Name + " answers the Approval states " + list + " with the chosen option."
	case agentHandler:
		return h.h.Name + " is " + h.origin + ", called by " + list + "."
	}
	return h.h.Name + " runs " + h.origin + " for the Task states " + list + "." + callbackNote(h.origin)
}

// callbackNote is what the doc of a handler of a callback Resource adds.
func callbackNote(origin string) string {
	if !strings.HasSuffix(origin, callbackSuffix+`"`) {
		return ""
	}
	return " Its input carries the task token where the state's Parameters or Arguments put it; its result " +
		"is dropped, and the state waits for SendTaskSuccess or SendTaskFailure with the token."
}

// distributedIO says whether a distributed Map of w reads its items with
// an ItemReader, and whether one writes its results with a ResultWriter.
func distributedIO(w *ir.Workflow) (reads, writes bool) {
	for _, s := range ir.AllStates(w.States) {
		if d := s.ASL.Distributed; d != nil {
			reads = reads || d.Reader != nil
			writes = writes || d.Writer != nil && d.Writer.Resource != "" // a WriterConfig alone writes nothing
		}
	}
	return reads, writes
}

// aslSessions: a States Language session keeps the JSON input of the next
// top-level state, and merges an input's members into it.
func aslSessions(w *ir.Workflow) *SessionSpec {
	return &SessionSpec{
		Value: BasicType("any"), Input: BasicType("any"), Arg: "input", ZeroNil: true,
		Decides: slices.ContainsFunc(ir.AllStates(w.States), func(s *ir.State) bool { return s.ASL.Type == ir.ASLApproval }),
		Schema:  "json",
		Doc: []string{"sessions describes the state machine to the runtime's session functions. Its state is JSON,",
			"with no schema to check."},
		Resume: "Resume continues session sessionID from its last checkpoint, without running again the top-level " +
			"states that completed; a session whose last run finished returns its output.",
	}
}

// IsCallback reports whether s is a Task state that waits for a task
// token; a startExecution compiled in is not (it completes with its
// child).
func IsCallback(s *ir.State) bool {
	a := s.ASL
	return a.Type == ir.ASLTask && a.Agent == nil && a.Include == nil && s.Handler != nil &&
		strings.HasSuffix(a.Resource, callbackSuffix)
}

// aslLoops derives the loop of every machine: the state machine, each
// Parallel branch and Map iterator, each compiled-in child (Include,
// startExecution); Parallel and Map states are the fan-outs.
type aslLoops struct {
	loops   []*Loop
	fanOuts []*FanOut
	index   loopIndex
}

// withASLLoops sets the loops and fan-outs of a States Language plan.
func (p *Plan) withASLLoops() *Plan {
	w := p.Workflow
	d := &aslLoops{index: loopIndex{machines: map[*ir.Machine]*Loop{}, saved: map[*ir.State]bool{}}}
	checkpointed(w.States, d.index.saved)
	top := d.machine(&ir.Machine{Start: w.Start, States: w.States}, "run", "the state machine", nil)
	top.FromStep, top.Session = true, RunSession
	p.withLoops(d.loops, d.fanOuts)
	p.index.machines, p.index.saved = d.index.machines, d.index.saved
	return p
}

// checkpointed lists the states a session checkpoints after (see
// Plan.Checkpointed).
func checkpointed(states []*ir.State, into map[*ir.State]bool) {
	for _, s := range states {
		into[s] = true
		if hasChild(s) {
			checkpointed(s.ASL.Branches[0].States, into)
		}
	}
}

// hasChild reports whether s runs a compiled-in child state machine.
func hasChild(s *ir.State) bool {
	return s.ASL.Include != nil && len(s.ASL.Branches) > 0
}

// machine adds the loop of m, named method, then those of the machines
// its states hold; fan is the fan-out m is a branch of.
func (d *aslLoops) machine(m *ir.Machine, method, what string, fan *FanOut) *Loop {
	l := &Loop{Method: method, Entry: method, What: what, States: m.States, Start: stateIn(m.States, m.Start.ID),
		Machine: m, FanOut: fan}
	d.loops = append(d.loops, l)
	d.index.machines[m] = l
	for _, s := range m.States {
		d.state(s)
	}
	return l
}

// state adds the loops of the machines s holds: its Parallel branches, its
// Map iterator, or its compiled-in child.
func (d *aslLoops) state(s *ir.State) {
	a := s.ASL
	if len(a.Branches) == 0 {
		return
	}
	if a.Include != nil {
		child := d.machine(a.Branches[0], "run"+s.GoName+"Template", includeWhat(s), nil)
		// A child inside a branch resumes as a top-level one does when
		// a run can stop in it (runtime/impl/asl/resume.go, ResumeChild).
		if d.index.saved[s] || canStop(child.Machine) {
			resumes(child, ChildSession)
		}
		return
	}
	fan := &FanOut{From: s, Items: a.Type == ir.ASLMap, Limit: a.MaxConcurrency}
	d.fanOuts = append(d.fanOuts, fan)
	for i, m := range a.Branches {
		method, what := "run"+s.GoName+"Items", "the iterator of Map state "+strconv.Quote(s.ID)
		if !fan.Items {
			n := strconv.Itoa(i + 1)
			method, what = "run"+s.GoName+"Branch"+n, "branch "+n+" of Parallel state "+strconv.Quote(s.ID)
		}
		l := d.machine(m, method, what, fan)
		if canStop(m) {
			resumes(l, StopSession)
			fan.Stops = true
		}
		fan.Loops = append(fan.Loops, l)
		fan.Entries = append(fan.Entries, l.Start)
	}
}

// resumes makes l a loop that a session's run can resume inside: it
// starts at a step, which its entry, named as l was, finds.
func resumes(l *Loop, session LoopSession) {
	l.Method += "From"
	l.FromStep, l.Session = true, session
}

// includeWhat is what the compiled-in child of s is.
func includeWhat(s *ir.State) string {
	inc := s.ASL.Include
	if inc.StateMachine != "" {
		return "state machine " + strconv.Quote(inc.Template) + ", started by Task state " + strconv.Quote(s.ID)
	}
	return "template " + strconv.Quote(inc.Template) + ", compiled into Include state " + strconv.Quote(s.ID)
}

// canStop reports whether m holds an Approval or a callback Task, at any
// depth: a session's run can stop in it for a decision or a task token.
func canStop(m *ir.Machine) bool {
	return slices.ContainsFunc(ir.AllStates(m.States), func(s *ir.State) bool {
		return s.ASL.Type == ir.ASLApproval && s.ASL.Include == nil || IsCallback(s)
	})
}

// stateIn is the state id of states, or the first one.
func stateIn(states []*ir.State, id string) *ir.State {
	for _, s := range states {
		if s.ID == id {
			return s
		}
	}
	return states[0]
}
