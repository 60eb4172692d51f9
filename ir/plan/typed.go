package plan

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strconv"
	"strings"

	"github.com/flowc-dev/flowc/ir"
)

// typedGenVersion is the generator version of typed code, which needs the
// runtime's sessions.
const typedGenVersion = 15 // 15: the states inside fan-outs report their input and output to a session's history (ReportInput, ReportOutput, ReportsRunData); 14: quiet runs skip the hooks between states and test ctx's channel, states that test the state run in the loop's case; 13: mocks through package flowrun; 12: approvals inside fan-outs (StartFanOutStops, BranchAt); 10: the machinery in runtime/impl

// typedPlan is the plan of a typed workflow (CodeMie YAML's typed mode and
// PocketFlow): a state struct, an update each handler returns, reducers
// that apply it, and checkpoints of the state.
func typedPlan(c *ir.Checked) *Plan {
	w := c.Workflow
	n := newNames(w)
	states, resumable := topFirst(w)
	start := strconv.Quote(w.Start.ID)
	run := []string{
		"Run executes the workflow from state " + start + " and returns the final state.",
		"On failure it returns the state as it was when the failing state began, and the error.",
	}
	handlersDoc := []string{n.Handlers + " is the work of each state, implemented by you."}
	if hasApprovals(w) {
		run = append(run, "An approval state without a decision stops it with an *flowcrt.Interrupted error; run a session",
			"(Invoke) to continue such a run later.")
		handlersDoc = append(handlersDoc, "Handlers that also implement flowcrt.Approver answer the approval states; without it an",
			"approval state stops the run with an *flowcrt.Interrupted error, and Decide continues it.")
	}
	mockDoc := []string{
		"A mocked Return object is the update (keys are state fields); \"Action\" or \"Eval\" in it is the",
		"action or eval string. A state with no mock returns an empty update.",
	}
	if len(w.Regions) > 0 {
		mockDoc = append(mockDoc, "Inside a fan-out the k-th invocation of a state counts the calls of every branch and item: which",
			"item makes the k-th call depends on scheduling, except with max_concurrency 1, where items call",
			"in list order.")
	}
	p := &Plan{
		Checked: c, Names: n, GenVersion: typedGenVersion, Noun: "the workflow",
		HandlersDoc: handlersDoc,
		StepEnum:    states, Resumable: resumable,
		StepDoc: n.Step + " names the state a run is in; the zero value means the run is over.",
		Runs: []Entry{{
			Name: "Run", Doc: run,
			Sig: Sig{Params: []Param{{Name: "in", Typ: OwnType(n.State)}}, Results: []*ir.Type{OwnType(n.State)}},
		}},
		Sessions: typedSessions(w, n),
		Mock:     mockSpec{Caller: "state", Doc: mockDoc, StateContext: true},
	}
	p.Into, p.into = intoHandlers(w)
	p.Handlers = p.typedHandlers()
	return p.withLoops(typedLoops(w, states[:resumable]))
}

// intoHandlers are the handlers of plain states, in order of first use:
// each gets an in-place form, <name>Into in the optional interface
// n.Into, unless a handler already has that name; the plain states of such
// a handler then run through a step method (see Inline).
func intoHandlers(w *ir.Workflow) ([]string, map[string]bool) {
	taken := map[string]bool{"Approve": true}
	for _, h := range firstHandlers(w.States, func(*ir.Handler) bool { return false }) {
		taken[h.Name] = true
	}
	var out []string
	seen := map[string]bool{}
	for _, s := range w.States {
		if !plain(w, s) {
			continue
		}
		if name := s.Handler.Name; !seen[name] && !taken[name+"Into"] {
			seen[name] = true
			out = append(out, name)
		}
	}
	return out, seen
}

// plain: a state outside fan-outs whose handler returns only an update,
// with no policy, that goes on to one state or ends the run.
func plain(w *ir.Workflow, s *ir.State) bool {
	if s.Kind != ir.StateTask || s.Handler.Kind != ir.HandlerUpdate || HasPolicy(s) || w.RegionOf(s.ID) != nil {
		return false
	}
	return s.Next.Kind == ir.TransGoto || s.Next.Kind == ir.TransEnd
}

// Inline reports whether s is a plain state of typed mode that needs no
// step method: the run loop takes it from its table of plain states, calls
// the handler and folds the outcome into the state, in one place for all
// of them. A plain state whose handler has no in-place form (see Into) is
// not inline: the tighter loop of in-place handlers could not call it.
func (p *Plan) Inline(s *ir.State) bool {
	return plain(p.Workflow, s) && p.into[s.Handler.Name]
}

// Tests reports whether s is a state of typed mode like a plain one, but
// whose transition tests the state (a condition or a switch): the run loop
// calls its handler, folds the update and asks its transition function in
// the state's own case, with no step method between (docs/targets.md,
// "Plain states").
func (p *Plan) Tests(s *ir.State) bool {
	if s.Kind != ir.StateTask || s.Handler == nil || s.Handler.Kind != ir.HandlerUpdate || HasPolicy(s) || p.Workflow.RegionOf(s.ID) != nil {
		return false
	}
	return s.Next.Kind == ir.TransCondition || s.Next.Kind == ir.TransSwitch
}

// HasPolicy: states that retry, time out or catch run through flowcrt.Call,
// which also turns a panic into an error the catchers see.
func HasPolicy(s *ir.State) bool {
	return s.Timeout > 0 || len(s.Retry) > 0 || len(s.Catch) > 0 || s.Next.OnFailure != nil
}

// hasApprovals reports whether a state is an approval state: only then can
// a typed run stop for a decision.
func hasApprovals(w *ir.Workflow) bool {
	return slices.ContainsFunc(w.States, func(s *ir.State) bool { return s.Kind == ir.StateApproval })
}

// noLabel answers an update handler through the typed mock's respond,
// which receives no label.
var noLabel = &MockCall{Own: true, Method: "respond", Args: []MockArg{{Param: "ctx"}, {}, {Lit: new("")}}}

func (p *Plan) typedHandlers() []Handler {
	w := p.Workflow
	users := usersOf(w.States)
	var out []Handler
	for _, h := range firstHandlers(w.States, func(*ir.Handler) bool { return false }) {
		ids := users[h.Name]
		item := p.HandlerItem(w.State(ids[0]))
		text := h.Name + " runs " + usersList("state", ids)
		if item != nil {
			text += ", once for each item of iter_key " + strconv.Quote(w.RegionOf(ids[0]).Items)
		}
		m := Handler{Name: h.Name, Doc: text + ".", Sig: p.typedSig(h, item)}
		if item == nil && h.Kind == ir.HandlerUpdate {
			m.Answer = noLabel
		}
		out = append(out, m)
	}
	if hasApprovals(w) {
		out = append(out, Handler{
			Name: "Approve",
			Sig:  Sig{Params: []Param{{Name: "req", Typ: RtType(RuntimePath, "ApprovalRequest")}}, Results: []*ir.Type{BasicType("string")}},
			MockDoc: []string{
				"Approve answers an approval state from its mock: a Return is the decision, a JSON string or",
				"{\"decision\": \"...\"}. A state without a mock leaves the decision to a person: the run waits.",
			},
		})
	}
	return out
}

// typedSig is (ctx, s State[, item T]) (Update[, label string], error):
// inside an iteration chain the item follows the state.
func (p *Plan) typedSig(h *ir.Handler, item *ir.Type) Sig {
	s := Sig{Params: []Param{{Name: "s", Typ: OwnType(p.Names.State)}}, Results: []*ir.Type{OwnType(p.Names.Update)}}
	if item != nil {
		s.Params = append(s.Params, Param{Name: "item", Typ: p.ItemType(item)})
	}
	if h.Kind == ir.HandlerAction || h.Kind == ir.HandlerEval {
		s.Results = append(s.Results, BasicType("string"))
	}
	return s
}

// ItemType is the type of a typed map region's items t, with the state
// itself for `iter_key: .` named as the state type.
func (p *Plan) ItemType(t *ir.Type) *ir.Type {
	if t.Kind == ir.TypeState {
		return OwnType(p.Names.State)
	}
	return t
}

// typedSessions: a session keeps the state and merges an update into it;
// its checkpoints carry the hash of the state's schema.
func typedSessions(w *ir.Workflow, n Names) *SessionSpec {
	return &SessionSpec{
		Value: OwnType(n.State), Input: OwnType(n.Update), Arg: "s", Decides: hasApprovals(w),
		Schema: schemaHash(w), SchemaConst: n.Prefix + "Schema",
		Doc: []string{"sessions describes the workflow to the runtime's session functions."},
		Resume: "Resume continues session sessionID from its last checkpoint, without running again the states " +
			"that completed; a session whose last run finished returns its final state.",
	}
}

// schemaHash identifies the top-level fields of the state: names and
// types, in order. Reducers are left out, as they do not change what a
// saved state decodes to. The whole type graph, named types of the user's
// package at any depth, is not known here (the checker loads it and lets
// it go), and it may change without the workflow being generated again:
// the runtime reads it from the compiled state type instead and saves it
// beside this hash (flowcimpl.Sessions, checkpoint_shape.go). The hash
// alone still decides for checkpoints saved before shapes were.
func schemaHash(w *ir.Workflow) string {
	var b strings.Builder
	b.WriteString("flowc state schema 1\n")
	for _, f := range w.Fields {
		b.WriteString(f.Name + " " + typeSpelling(f.Type) + "\n")
	}
	sum := sha256.Sum256([]byte(b.String()))
	return "sha256:" + hex.EncodeToString(sum[:8])
}

func typeSpelling(t *ir.Type) string {
	switch t.Kind {
	case ir.TypeSlice:
		return "[]" + typeSpelling(t.Elem)
	case ir.TypeMap:
		return "map[" + typeSpelling(t.Key) + "]" + typeSpelling(t.Elem)
	case ir.TypePointer:
		return "*" + typeSpelling(t.Elem)
	case ir.TypeMessages:
		return "messages"
	}
	if t.Pkg != "" {
		return t.Pkg + "." + t.Name
	}
	return t.Name
}

// typedLoops: the run loop over the top-level states, and one runner per
// fan-out over the region's states, branch by branch or the chain. A
// session's run stops inside a fan-out at its approval states.
func typedLoops(w *ir.Workflow, top []*ir.State) ([]*Loop, []*FanOut) {
	loops := []*Loop{{Method: "run", Entry: "run", What: "the workflow", States: top, Start: w.State(w.Start.ID),
		FromStep: true, Session: RunSession}}
	stops := func(r *ir.Region) bool {
		return slices.ContainsFunc(regionStates(w, r), func(s *ir.State) bool { return s.Kind == ir.StateApproval })
	}
	fanOuts := regionFanOuts(w, stops, func(f *FanOut) *Loop { return runner(w, f) })
	for _, f := range fanOuts {
		loops = append(loops, f.Loops...)
	}
	return loops, fanOuts
}

// runner is the loop that runs one branch or item of a typed fan-out
// until it reaches the fan-out's exit. An item starts at the chain's
// entry unless a session can stop inside the fan-out: a resumed item
// starts where it stopped.
func runner(w *ir.Workflow, f *FanOut) *Loop {
	l := &Loop{States: regionStates(w, f.Region), Exit: stateOf(w, f.Exit), FanOut: f, FromStep: true}
	quoted := strconv.Quote(f.From.ID)
	if f.Items {
		l.Method, l.What = "iterate"+f.From.GoName, "one item through the chain of the fan-out at "+quoted
		l.Start, l.FromStep = f.Entries[0], f.Stops
	} else {
		l.Method, l.What = "branch"+f.From.GoName, "one branch of the fan-out at "+quoted
	}
	l.Entry = l.Method
	if f.Stops {
		l.Session = StopSession
	}
	return l
}

// regionStates lists a region's states: branch by branch, or the chain.
func regionStates(w *ir.Workflow, r *ir.Region) []*ir.State {
	var out []*ir.State
	for _, b := range append(slices.Clip(r.Branches), r.Body) {
		for _, ref := range b {
			out = append(out, w.State(ref.ID))
		}
	}
	return out
}
