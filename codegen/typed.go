package codegen

import (
	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/internal/naming"
	"github.com/flowc-dev/flowc/ir"
)

// names holds the identifiers of one workflow's generated code.
type names struct {
	Workflow string // Triage
	State    string // TriageState
	Update   string // TriageUpdate
	Handlers string // TriageHandlers
	Mock     string // TriageMock
	Step     string // triageStep
	prefix   string // triage: prefix of unexported package-level names
	vars     map[stateVar]string
}

// stateVar is a package-level variable of one state: its "Policy" (typed
// mode) or its "Prompt" (task chains).
type stateVar struct {
	s    *ir.State
	kind string
}

func newNames(w *ir.Workflow) names {
	n := names{
		Workflow: w.Name,
		State:    w.Name + "State",
		Update:   w.Name + "Update",
		Handlers: w.Name + "Handlers",
		Mock:     w.Name + "Mock",
		Step:     naming.Unexported(w.Name) + "Step",
		prefix:   naming.Unexported(w.Name),
	}
	n.vars = n.stateVars(w.States)
	return n
}

// stateVars names each state's variables prefix + GoName + kind, numbered
// where that is a step constant: the policy of state "step_foo" and the
// step of state "foo_policy" would both be triageStepFooPolicy.
func (n names) stateVars(states []*ir.State) map[stateVar]string {
	var used naming.Namer
	for _, s := range states {
		used.Reserve(n.stepConst(s))
	}
	out := make(map[stateVar]string, 2*len(states))
	for _, kind := range []string{"Policy", "Prompt"} {
		for _, s := range states {
			out[stateVar{s, kind}] = used.Fresh(n.prefix + s.GoName + kind)
		}
	}
	return out
}

// stepConst is the enum value of a state; the zero value means "finished".
func (n names) stepConst(s *ir.State) string { return n.Step + s.GoName }
func (n names) endConst() string             { return n.prefix + "Done" } // cannot clash: states are n.Step + GoName
func (n names) policyVar(s *ir.State) string { return n.vars[stateVar{s, "Policy"}] }

// stepMethod is the unexported method that runs one state.
func stepMethod(s *ir.State) string { return "step" + s.GoName }

// typedGen emits the typed-mode API of SPEC §7.
type typedGen struct {
	w *ir.Workflow
	n names
}

func typed(f *jen.File, w *ir.Workflow) {
	g := &typedGen{w: w, n: newNames(w)}
	g.versionGuard(f)
	g.stateType(f)
	g.updateType(f)
	if len(w.Regions) > 0 {
		g.marshalUpdate(f)
		g.clone(f)
		g.join(f)
	}
	g.handlersType(f)
	g.workflowType(f)
	g.steps(f)
	g.mock(f)
}

func (g *typedGen) versionGuard(f *jen.File) {
	f.Comment("This file needs a runtime that supports its generation: a mismatch fails to compile here.")
	f.Const().Defs(
		jen.Id("_").Op("=").Add(rt("EnforceVersion")).Call(rt("GenVersion").Op("-").Lit(checkpointGenVersion)),
		jen.Id("_").Op("=").Add(rt("EnforceVersion")).Call(jen.Lit(checkpointGenVersion).Op("-").Add(rt("MinGenVersion"))),
	)
}

// goType renders a field type.
func goType(t *ir.Type) *jen.Statement {
	switch t.Kind {
	case ir.TypeSlice:
		return jen.Index().Add(goType(t.Elem))
	case ir.TypeMap:
		return jen.Map(goType(t.Key)).Add(goType(t.Elem))
	case ir.TypePointer:
		return jen.Op("*").Add(goType(t.Elem))
	case ir.TypeMessages:
		return rt("Messages")
	}
	if t.Pkg != "" {
		return jen.Qual(t.Pkg, t.Name)
	}
	return jen.Id(t.Name)
}

// itemType renders the type of a map region's items: a schema type, or the
// state itself for `iter_key: .`.
func (g *typedGen) itemType(t *ir.Type) *jen.Statement {
	if t.Kind == ir.TypeState {
		return jen.Id(g.n.State)
	}
	return goType(t)
}

func (g *typedGen) stateType(f *jen.File) {
	f.Comment(g.n.State + " is the state of a " + g.n.Workflow + " run.")
	if g.w.Description != "" {
		f.Comment("")
		f.Add(comment(g.w.Description))
	}
	f.Type().Id(g.n.State).StructFunc(func(st *jen.Group) {
		for _, fd := range g.w.Fields {
			st.Id(fd.GoName).Add(goType(fd.Type)).Tag(map[string]string{"json": fd.Name})
		}
	})
}

func (g *typedGen) updateType(f *jen.File) {
	f.Comment(g.n.Update + " is a partial update of " + g.n.State + ", returned by handlers.")
	f.Comment("Set fields with its With methods; fields left unset keep their value.")
	f.Type().Id(g.n.Update).Struct(
		jen.Id("v").Id(g.n.State).Comment("values of the set fields"),
		jen.Id("set").Index(jen.Lit(len(g.w.Fields))).Bool().Comment("which fields are set, in schema order"),
	)
	for i, fd := range g.w.Fields {
		f.Line()
		f.Commentf("With%s sets %s%s.", fd.GoName, fd.Name, reducerNote(fd.Reducer))
		f.Func().Params(jen.Id("u").Id(g.n.Update)).Id("With"+fd.GoName).
			Params(jen.Id("v").Add(goType(fd.Type))).Id(g.n.Update).Block(
			jen.List(jen.Id("u").Dot("v").Dot(fd.GoName), jen.Id("u").Dot("set").Index(jen.Lit(i))).
				Op("=").List(jen.Id("v"), jen.True()),
			jen.Return(jen.Id("u")),
		)
	}
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
		jen.Return(rt("DecodeFields").Call(
			jen.Id("data"),
			jen.Func().Params(jen.Id("key").String(), jen.Id("value").Qual("encoding/json", "RawMessage")).Error().Block(
				jen.Switch(jen.Id("key")).BlockFunc(func(sw *jen.Group) {
					for i, fd := range g.w.Fields {
						sw.Case(jen.Lit(fd.Name)).Block(
							jen.Id("u").Dot("set").Index(jen.Lit(i)).Op("=").True(),
							jen.Return(jen.Qual("encoding/json", "Unmarshal").Call(jen.Id("value"), jen.Op("&").Id("u").Dot("v").Dot(fd.GoName))),
						)
					}
				}),
				jen.Return(rt("UnknownField").Call(jen.Id(g.n.prefix+"Fields"))),
			),
		)),
	)
	f.Line()
	f.Var().Id(g.n.prefix + "Fields").Op("=").Index().String().ValuesFunc(func(vals *jen.Group) {
		for _, fd := range g.w.Fields {
			vals.Lit(fd.Name)
		}
	})
}

// apply folds an update into the state, field by field, through the reducers.
func (g *typedGen) apply(f *jen.File) {
	f.Line()
	f.Comment("apply folds the set fields of u into s through their reducers.")
	f.Func().Params(jen.Id("s").Op("*").Id(g.n.State)).Id("apply").Params(jen.Id("u").Id(g.n.Update)).BlockFunc(func(b *jen.Group) {
		for i, fd := range g.w.Fields {
			b.If(jen.Id("u").Dot("set").Index(jen.Lit(i))).Block(reduce(fd))
		}
	})
}

func reduce(fd *ir.Field) jen.Code {
	cur := jen.Id("s").Dot(fd.GoName)
	upd := jen.Id("u").Dot("v").Dot(fd.GoName)
	switch fd.Reducer.Kind {
	case ir.ReduceAppend, ir.ReduceMessages:
		return cur.Clone().Op("=").Add(rt("AppendSlice")).Call(cur.Clone(), upd)
	case ir.ReduceMerge:
		return cur.Clone().Op("=").Add(rt("MergeMap")).Call(cur.Clone(), upd)
	case ir.ReduceAdd:
		return cur.Op("+=").Add(upd)
	case ir.ReduceFunc:
		return cur.Clone().Op("=").Id(fd.Reducer.Func).Call(cur.Clone(), upd)
	}
	return cur.Op("=").Add(upd)
}

func (g *typedGen) handlersType(f *jen.File) {
	f.Comment(g.n.Handlers + " is the work of each state, implemented by you.")
	if g.hasApprovals() {
		f.Comment("Handlers that also implement flowcrt.Approver answer the approval states; without it an")
		f.Comment("approval state stops the run with an *flowcrt.Interrupted error, and Decide continues it.")
	}
	f.Type().Id(g.n.Handlers).InterfaceFunc(func(it *jen.Group) {
		users := g.statesOf()
		for _, h := range g.handlers() {
			ids := users[h.Name]
			doc := h.Name + " runs " + statesList(ids)
			if h.Item != nil {
				doc += ", once for each item of iter_key " + quote(g.w.RegionOf(ids[0]).Items)
			}
			it.Add(comment(doc + "."))
			it.Id(h.Name).Params(g.handlerParams(h)...).Params(g.handlerResults(h)...)
		}
	})
}

// handlers lists each handler once, in order of first use.
func (g *typedGen) handlers() []*ir.Handler {
	var out []*ir.Handler
	seen := map[string]bool{}
	for _, s := range g.w.States {
		if s.Handler != nil && !seen[s.Handler.Name] {
			seen[s.Handler.Name] = true
			out = append(out, s.Handler)
		}
	}
	return out
}

// statesOf maps each handler to the ids of the states that call it, in one
// pass: a scan per handler made large workflows quadratic.
func (g *typedGen) statesOf() map[string][]string {
	ids := map[string][]string{}
	for _, s := range g.w.States {
		if s.Handler != nil {
			ids[s.Handler.Name] = append(ids[s.Handler.Name], s.ID)
		}
	}
	return ids
}

func statesList(ids []string) string {
	out := "state"
	if len(ids) > 1 {
		out += "s"
	}
	for i, id := range ids {
		if i > 0 {
			out += ","
		}
		out += " " + quote(id)
	}
	return out
}

// handlerParams: inside an iteration chain the item follows the state.
func (g *typedGen) handlerParams(h *ir.Handler) []jen.Code {
	params := []jen.Code{jen.Id("ctx").Qual("context", "Context"), jen.Id("s").Id(g.n.State)}
	if h.Item != nil {
		params = append(params, jen.Id("item").Add(g.itemType(h.Item)))
	}
	return params
}

func (g *typedGen) handlerResults(h *ir.Handler) []jen.Code {
	out := []jen.Code{jen.Id(g.n.Update)}
	switch h.Kind {
	case ir.HandlerAction:
		out = append(out, jen.String())
	case ir.HandlerEval:
		out = append(out, jen.String())
	}
	return append(out, jen.Error())
}
