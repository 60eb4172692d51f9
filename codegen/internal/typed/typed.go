// Package typed is the dialect of typed workflows (CodeMie YAML's typed
// mode and PocketFlow): a state struct, an update each handler returns,
// reducers that apply it, fan-outs that join their branches' updates, and
// checkpoints of the state.
package typed

import (
	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/codegen/internal/emit"
	"github.com/flowc-dev/flowc/ir"
	"github.com/flowc-dev/flowc/ir/plan"
)

// typedGen emits the typed-mode API of docs/generated-api.md: the state and update
// types, a step method per state and the fan-outs.
type typedGen struct {
	p *plan.Plan
	w *ir.Workflow
	c *ir.Checked // what the checker found: conditions' trees, iterations' items
	n plan.Names
	// kinds is each handler's kind, for the mock bodies (handlerKind).
	kinds map[string]ir.HandlerKind
}

// New is the typed dialect of the plan p.
func New(p *plan.Plan) emit.Dialect {
	return &typedGen{p: p, w: p.Workflow, c: p.Checked, n: p.Names}
}

func (g *typedGen) Types(f *jen.File) {
	g.stateType(f)
	g.updateType(f)
	if len(g.w.Regions) > 0 {
		g.clone(f)
		g.join(f)
	}
}

// EntryBody: Run runs the loop from the start without a session.
func (g *typedGen) EntryBody(plan.Entry) []jen.Code {
	return []jen.Code{jen.Return(jen.Id("w").Dot("run").Call(jen.Id("ctx"), jen.Nil(), jen.Id("in"), jen.Id(g.n.StepConst(g.w.State(g.w.Start.ID)))))}
}

// itemType renders the type of a map region's items: a schema type, or the
// state itself for `iter_key: .`.
func (g *typedGen) itemType(t *ir.Type) *jen.Statement { return emit.GoType(g.p.ItemType(t)) }

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
		jen.Return(emit.Flowcimpl("DecodeFields").Call(
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
				jen.Return(emit.Flowcimpl("UnknownField").Call(jen.Id(g.n.Prefix+"Fields"))),
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
		return cur.Clone().Op("=").Add(emit.Flowcimpl("AppendSlice")).Call(cur.Clone(), upd)
	case ir.ReduceMerge:
		return cur.Clone().Op("=").Add(emit.Flowcimpl("MergeMap")).Call(cur.Clone(), upd)
	case ir.ReduceAdd:
		return cur.Op("+=").Add(upd)
	case ir.ReduceFunc:
		return cur.Clone().Op("=").Id(fd.Reducer.Func).Call(cur.Clone(), upd)
	}
	return cur.Op("=").Add(upd)
}
