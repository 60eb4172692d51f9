// Package jsonmode is the dialect of JSON mode, CodeMie's assistants and
// tools whose values are JSON and whose conditions the runtime evaluates.
package jsonmode

import (
	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/codegen/internal/emit"
	"github.com/flowc-dev/flowc/internal/naming"
	"github.com/flowc-dev/flowc/ir"
	"github.com/flowc-dev/flowc/ir/plan"
)

// jsonGen emits the Go of a JSON-mode workflow (docs/codemie.md): a handlers
// interface with one method per assistant, tool or handler name, each
// taking a flowcrt.JSONCall and returning the output text; one package
// variable per state holding its templates and policy; one step method per
// state whose transition is generated Go over the parsed output; one
// function per fan-out; a run loop shared by the run and by every branch
// and item; and a mock.
type jsonGen struct {
	p        *plan.Plan
	w        *ir.Workflow
	n        plan.Names
	ids      naming.Namer
	taskVars map[string]string // by state id
	cm       *codemieVars      // CodeMie configuration (codemie.go)
}

// New is the JSON-mode dialect of the plan p.
func New(p *plan.Plan) emit.Dialect {
	g := &jsonGen{p: p, w: p.Workflow, n: p.Names, taskVars: map[string]string{}}
	g.reserve()
	return g
}

// reserve takes the fixed package-level names and the step constants, so
// that the task variables named after states cannot clash with them.
func (g *jsonGen) reserve() {
	n := g.n
	g.ids.Reserve(n.Workflow, "New"+n.Workflow, n.Handlers, n.Mock, "New"+n.Mock, "New"+n.Mock+"Handlers", n.Step, n.EndConst(), n.IdsVar())
	for _, s := range g.w.States {
		g.ids.Reserve(n.StepConst(s))
	}
	for _, s := range g.w.States {
		g.taskVars[s.ID] = g.ids.Fresh(n.Prefix + s.GoName + "Task")
	}
}

// js names an identifier of JSON mode's machinery (runtime/impl/jsonmode,
// imported as flowcjson); names a user's program spells too go through
// flowcrt (emit.Rt).
func js(name string) *jen.Statement { return jen.Qual(plan.JSONPath, name) }

func (g *jsonGen) Types(*jen.File) {}

// EntryBody: Run makes the state RunState runs the loop on.
func (g *jsonGen) EntryBody(e plan.Entry) []jen.Code {
	if e.Name == "RunState" {
		start := g.w.State(g.w.Start.ID)
		return []jen.Code{jen.Return(jen.Id("w").Dot("run").Call(jen.Id("ctx"), jen.Nil(), jen.Id("s"), jen.Id(g.n.StepConst(start)), jen.Id(g.n.EndConst())))}
	}
	return []jen.Code{
		jen.List(jen.Id("s"), jen.Err()).Op(":=").Add(emit.Flowcrt("NewJSONState")).Call(jen.Id("input")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Err().Op("=").Id("w").Dot("RunState").Call(jen.Id("ctx"), jen.Op("&").Id("s")),
		jen.Return(jen.Id("s").Dot("Context"), jen.Err()),
	}
}

// MockBody is never asked for: every handler answers from the mock of its
// state with its plan's Answer, m.mocks.RespondJSON(call).
func (g *jsonGen) MockBody(plan.Handler) []jen.Code { return nil }

// Steps emits the CodeMie configuration, the task table, the run loop that
// the run and every branch and item share, each state's step and fan-out,
// and the services the configuration asks for.
func (g *jsonGen) Steps(f *jen.File, t emit.Writer) {
	f.ImportAlias(plan.JSONPath, emit.JSONAlias)
	g.codemieDecls(f) // codemie.go
	g.tasks(f)
	t.Loop(f, g.n, &emit.Loop{
		Loop: g.p.Loops[0],
		Doc: "run runs the states from step on s until the run reaches until: the end of the run, or for a " +
			"branch or item of a fan-out, the state after it. A session's run saves a checkpoint after every state.",
		Params: []jen.Code{jen.Id("sess").Op("*").Add(emit.Flowcimpl("Session")), jen.Id("s").Op("*").Add(emit.Flowcrt("JSONState"))},
		Call: func(s *ir.State) *jen.Statement {
			return jen.Id("w").Dot(emit.StepMethod(s)).Call(jen.Id("sctx"), jen.Id("s"))
		},
		Save: jen.If(jen.Id("sess").Op("!=").Nil()).Block(
			jen.Comment("The state's outcome: the state to run next, or the interrupt the run waits at."),
			jen.Err().Op("=").Id("sess").Dot("Save").Call(jen.Id("ctx"), jen.Id(g.n.IdsVar()).Index(jen.Id("next")), jen.Op("*").Id("s"), jen.Err()),
		),
	})
	for _, s := range g.w.States {
		g.step(f, s)
		if fan := g.p.FanOutAt(s.ID); fan != nil {
			g.region(f, fan)
		}
	}
}

// tasks declares what each state renders and how it calls its handler.
func (g *jsonGen) tasks(f *jen.File) {
	f.Line()
	f.Comment("The states' task templates, tool_args and retry policies.")
	f.Var().DefsFunc(func(d *jen.Group) {
		for _, s := range g.w.States {
			d.Id(g.taskVars[s.ID]).Op("=").Add(js("JSONTask")).CustomFunc(emit.Multiline, func(vals *jen.Group) {
				vals.Id("Policy").Op(":").Add(emit.Flowcimpl("Policy")).CustomFunc(emit.Multiline, func(p *jen.Group) { emit.PolicyFields(p, s) })
				if len(s.TaskParts) > 0 {
					vals.Id("Task").Op(":").Add(pieces(s.TaskParts))
				}
				toolArgsField(vals, s)       // codemie.go
				g.codemieTaskFields(vals, s) // codemie.go
			})
		}
	})
}

// pieces writes a parsed template; a reference keeps its spelling, which
// renders when the context store has no such key.
func pieces(parts []ir.TemplatePart) *jen.Statement {
	return jen.Index().Add(js("Piece")).ValuesFunc(func(vals *jen.Group) {
		for _, p := range parts {
			if p.Ref == "" {
				vals.Values(jen.Id("Text").Op(":").Lit(p.Text))
				continue
			}
			vals.Values(jen.Id("Text").Op(":").Lit(p.Text), jen.Id("Ref").Op(":").Lit(p.Ref))
		}
	})
}
