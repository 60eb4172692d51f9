// Package typed is the dialect of typed workflows (CodeMie YAML's typed
// mode and PocketFlow): a state struct, an update each handler returns,
// reducers that apply it, fan-outs that join their branches' updates, and
// checkpoints of the state.
package typed

import (
	"github.com/dave/jennifer/jen"
	"github.com/flowc-dev/flowc/ir/plan"

	"github.com/flowc-dev/flowc/codegen/internal/emit"
	"github.com/flowc-dev/flowc/ir"
)

// cannot clash: states are n.Step + GoName

// typedGen emits the typed-mode API of docs/generated-api.md: the state and update
// types, a step method per state and the fan-outs.
type typedGen struct {
	w    *ir.Workflow
	c    *ir.Checked // what the checker found: conditions' trees, iterations' items
	n    plan.Names
	into []string        // the handlers with an in-place form (see intoHandlers)
	has  map[string]bool // the same, as a set
	// kinds is each handler's kind, for the mock bodies (handlerKind).
	kinds map[string]ir.HandlerKind
}

// New is the typed dialect of c.
func New(c *ir.Checked) emit.Dialect {
	g := &typedGen{w: c.Workflow, c: c, n: plan.NewNames(c.Workflow)}
	g.into, g.has = g.intoHandlers()
	return g
}

// intoHandlers are the handlers of plain states, in order of first use:
// each gets an in-place form, <name>Into in the optional interface
// n.Into, unless a handler already has that name; the plain states of such
// a handler then run through a step method (see inline).
func (g *typedGen) intoHandlers() ([]string, map[string]bool) {
	taken := map[string]bool{"Approve": true}
	for _, h := range plan.FirstHandlers(g.w.States, func(*ir.Handler) bool { return false }) {
		taken[h.Name] = true
	}
	var out []string
	seen := map[string]bool{}
	for _, s := range g.w.States {
		if !g.plain(s) {
			continue
		}
		if name := s.Handler.Name; !seen[name] && !taken[name+"Into"] {
			seen[name] = true
			out = append(out, name)
		}
	}
	return out, seen
}

// typedGenVersion is the generator version of typed code, which needs the
// runtime's sessions.
const typedGenVersion = 13 // 13: mocks through package flowrun; 12: approvals inside fan-outs (StartFanOutStops, BranchAt); 10: the machinery in runtime/impl

func (g *typedGen) Types(f *jen.File) {
	g.stateType(f)
	g.updateType(f)
	if len(g.w.Regions) > 0 {
		g.clone(f)
		g.join(f)
	}
}

func (g *typedGen) Shell() *plan.Plan {
	n := g.n
	states, resumable := plan.TopFirst(g.w)
	start := emit.Quote(g.w.Start.ID)
	run := []string{
		"Run executes the workflow from state " + start + " and returns the final state.",
		"On failure it returns the state as it was when the failing state began, and the error.",
	}
	handlersDoc := []string{n.Handlers + " is the work of each state, implemented by you."}
	if g.hasApprovals() {
		run = append(run, "An approval state without a decision stops it with an *flowcrt.Interrupted error; run a session",
			"(Invoke) to continue such a run later.")
		handlersDoc = append(handlersDoc, "Handlers that also implement flowcrt.Approver answer the approval states; without it an",
			"approval state stops the run with an *flowcrt.Interrupted error, and Decide continues it.")
	}
	mockDoc := []string{
		"A mocked Return object is the update (keys are state fields); \"Action\" or \"Eval\" in it is the",
		"action or eval string. A state with no mock returns an empty update.",
	}
	if len(g.w.Regions) > 0 {
		mockDoc = append(mockDoc, "Inside a fan-out the k-th invocation of a state counts the calls of every branch and item: which",
			"item makes the k-th call depends on scheduling, except with max_concurrency 1, where items call",
			"in list order.")
	}
	return &plan.Plan{
		Workflow: g.w, Names: n, GenVersion: typedGenVersion, Noun: "the workflow",
		HandlersDoc: handlersDoc,
		Handlers:    g.handlerMethods(),
		Into:        g.into,
		States:      states, Resumable: resumable,
		StepDoc: n.Step + " names the state a run is in; the zero value means the run is over.",
		Runs: []plan.Entry{{
			Name: "Run", Doc: run,
			Sig: plan.Sig{Params: []plan.SigParam{{Name: "in", Typ: plan.OwnType(n.State)}}, Results: []*ir.Type{plan.OwnType(n.State)}},
		}},
		Sessions: g.sessionSpec(),
		Mock:     plan.MockSpec{Caller: "state", Doc: mockDoc, StateContext: true},
	}
}

// EntryBody: Run runs the loop from the start without a session.
func (g *typedGen) EntryBody(plan.Entry) []jen.Code {
	return []jen.Code{jen.Return(jen.Id("w").Dot("run").Call(jen.Id("ctx"), jen.Nil(), jen.Id("in"), jen.Id(g.n.StepConst(g.w.State(g.w.Start.ID)))))}
}

func (g *typedGen) handlerMethods() []plan.Handler {
	users := plan.UsersOf(g.w.States)
	var out []plan.Handler
	for _, h := range plan.FirstHandlers(g.w.States, func(*ir.Handler) bool { return false }) {
		ids := users[h.Name]
		item := g.c.HandlerItem(g.w.State(ids[0]))
		text := h.Name + " runs " + plan.UsersList("state", ids)
		if item != nil {
			text += ", once for each item of iter_key " + emit.Quote(g.w.RegionOf(ids[0]).Items)
		}
		m := plan.Handler{Name: h.Name, Doc: text + ".", Sig: g.handlerSig(h, item)}
		if item == nil && h.Kind == ir.HandlerUpdate {
			m.SigText = "(ctx context.Context, s " + g.n.State + ") (" + g.n.Update + ", error)"
			m.MockText = `return m.respond(ctx, nil, "")`
		}
		out = append(out, m)
	}
	if g.hasApprovals() {
		out = append(out, plan.Handler{
			Name: "Approve",
			Sig:  plan.Sig{Params: []plan.SigParam{{Name: "req", Typ: plan.RtType("ApprovalRequest")}}, Results: []*ir.Type{plan.BasicType("string")}},
			MockDoc: []string{
				"Approve answers an approval state from its mock: a Return is the decision, a JSON string or",
				"{\"decision\": \"...\"}. A state without a mock leaves the decision to a person: the run waits.",
			},
		})
	}
	return out
}

// itemType renders the type of a map region's items: a schema type, or the
// state itself for `iter_key: .`.
func (g *typedGen) itemType(t *ir.Type) *jen.Statement { return emit.GoType(g.itemIRType(t)) }

func (g *typedGen) stateType(f *jen.File) {
	f.Comment(g.n.State + " is the state of a " + g.n.Workflow + " run.")
	if g.w.Description != "" {
		f.Comment("")
		f.Add(emit.Comment(g.w.Description))
	}
	f.Type().Id(g.n.State).StructFunc(func(st *jen.Group) {
		for _, fd := range g.w.Fields {
			st.Id(fd.GoName).Add(emit.GoType(fd.Type)).Tag(map[string]string{"json": fd.Name})
		}
	})
}

func (g *typedGen) updateType(f *jen.File) {
	f.Comment(g.n.Update + " is a partial update of " + g.n.State + ", returned by handlers.")
	f.Comment("Set fields with its With methods, or in place with its Set methods; fields left unset keep")
	f.Comment("their value.")
	f.Type().Id(g.n.Update).Struct(
		jen.Id("v").Id(g.n.State).Comment("values of the set fields"),
		jen.Id("set").Add(setType(len(g.w.Fields))).Comment("which fields are set: bit i for the i-th field of the schema"),
	)
	for i, fd := range g.w.Fields {
		f.Line()
		f.Commentf("With%s sets %s%s.", fd.GoName, fd.Name, reducerNote(fd.Reducer))
		f.Func().Params(jen.Id("u").Id(g.n.Update)).Id("With"+fd.GoName).
			Params(jen.Id("v").Add(emit.GoType(fd.Type))).Id(g.n.Update).Block(
			jen.Id("u").Dot("Set"+fd.GoName).Call(jen.Id("v")),
			jen.Return(jen.Id("u")),
		)
		f.Line()
		f.Commentf("Set%s sets %s in place, as With%s does on a copy.", fd.GoName, fd.Name, fd.GoName)
		f.Func().Params(jen.Id("u").Op("*").Id(g.n.Update)).Id("Set"+fd.GoName).
			Params(jen.Id("v").Add(emit.GoType(fd.Type))).Block(
			jen.Id("u").Dot("v").Dot(fd.GoName).Op("=").Id("v"),
			markSet("u", i, len(g.w.Fields)),
		)
	}
	// An update crosses checkpoints and Temporal activities as the JSON
	// object of its set fields.
	g.marshalUpdate(f)
	g.unmarshalUpdate(f)
	g.apply(f)
}

func reducerNote(r ir.Reducer) string {
	switch r.Kind {
	case ir.ReduceAppend:
		return "; it is appended to the current value"
	case ir.ReduceMessages:
		return "; its messages are appended to the history"
	case ir.ReduceMerge:
		return "; its keys are merged into the current map"
	case ir.ReduceAdd:
		return "; it is added to the current value"
	case ir.ReduceFunc:
		return "; it is combined with the current value by " + r.Func
	}
	return ""
}

// unmarshalUpdate lets mocks and tests write updates as JSON objects keyed
// by the schema's field names; unknown keys are errors.
func (g *typedGen) unmarshalUpdate(f *jen.File) {
	f.Line()
	f.Comment("UnmarshalJSON reads an update from a JSON object keyed by state field names.")
	f.Func().Params(jen.Id("u").Op("*").Id(g.n.Update)).Id("UnmarshalJSON").
		Params(jen.Id("data").Index().Byte()).Error().Block(
		jen.Return(emit.Rt("DecodeFields").Call(
			jen.Id("data"),
			jen.Func().Params(jen.Id("key").String(), jen.Id("value").Qual("encoding/json", "RawMessage")).Error().Block(
				jen.Switch(jen.Id("key")).BlockFunc(func(sw *jen.Group) {
					for i, fd := range g.w.Fields {
						sw.Case(jen.Lit(fd.Name)).Block(
							markSet("u", i, len(g.w.Fields)),
							jen.Return(jen.Qual("encoding/json", "Unmarshal").Call(jen.Id("value"), jen.Op("&").Id("u").Dot("v").Dot(fd.GoName))),
						)
					}
				}),
				jen.Return(emit.Rt("UnknownField").Call(jen.Id(g.n.Prefix+"Fields"))),
			),
		)),
	)
	f.Line()
	f.Var().Id(g.n.Prefix + "Fields").Op("=").Index().String().ValuesFunc(func(vals *jen.Group) {
		for _, fd := range g.w.Fields {
			vals.Lit(fd.Name)
		}
	})
}

// apply folds an update into the state, field by field, through the reducers.
func (g *typedGen) apply(f *jen.File) {
	f.Line()
	f.Comment("apply folds the set fields of u into s through their reducers. It takes u by pointer: a copy")
	f.Comment("of an update just written costs more than the fold.")
	f.Func().Params(jen.Id("s").Op("*").Id(g.n.State)).Id("apply").Params(jen.Id("u").Op("*").Id(g.n.Update)).BlockFunc(func(b *jen.Group) {
		n := len(g.w.Fields)
		if n == 0 {
			return
		}
		if n <= 64 {
			// Read once: the compiler cannot tell that the stores to s leave u alone.
			b.Id("set").Op(":=").Id("u").Dot("set")
		}
		for i, fd := range g.w.Fields {
			test := isSet("u", i, n)
			if n <= 64 {
				test = jen.Id("set").Op("&").Add(setMask(i)).Op("!=").Lit(0)
			}
			b.If(test).Block(reduce(fd))
		}
	})
}

func reduce(fd *ir.Field) jen.Code {
	cur := jen.Id("s").Dot(fd.GoName)
	upd := jen.Id("u").Dot("v").Dot(fd.GoName)
	switch fd.Reducer.Kind {
	case ir.ReduceAppend, ir.ReduceMessages:
		return cur.Clone().Op("=").Add(emit.Rt("AppendSlice")).Call(cur.Clone(), upd)
	case ir.ReduceMerge:
		return cur.Clone().Op("=").Add(emit.Rt("MergeMap")).Call(cur.Clone(), upd)
	case ir.ReduceAdd:
		return cur.Op("+=").Add(upd)
	case ir.ReduceFunc:
		return cur.Clone().Op("=").Id(fd.Reducer.Func).Call(cur.Clone(), upd)
	}
	return cur.Op("=").Add(upd)
}

// handlerSig is (ctx, s State[, item T]) (Update[, label string], error):
// inside an iteration chain the item follows the state.
func (g *typedGen) handlerSig(h *ir.Handler, item *ir.Type) plan.Sig {
	s := plan.Sig{Params: []plan.SigParam{{Name: "s", Typ: plan.OwnType(g.n.State)}}, Results: []*ir.Type{plan.OwnType(g.n.Update)}}
	if item != nil {
		s.Params = append(s.Params, plan.SigParam{Name: "item", Typ: g.itemIRType(item)})
	}
	if h.Kind == ir.HandlerAction || h.Kind == ir.HandlerEval {
		s.Results = append(s.Results, plan.BasicType("string"))
	}
	return s
}

// itemIRType is the type of a map region's items, with the state itself
// for `iter_key: .` named as the state type.
func (g *typedGen) itemIRType(t *ir.Type) *ir.Type {
	if t.Kind == ir.TypeState {
		return plan.OwnType(g.n.State)
	}
	return t
}
