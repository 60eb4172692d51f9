package codegen

import (
	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/compiler/naming"
	"github.com/flowc-dev/flowc/ir"
)

// jsonGenVersion is the generator version of JSON-mode code; it needs the
// runtime's JSONState and friends.
const jsonGenVersion = 7 // CodeMie configuration and sessions (json_codemie.go, json_session.go)

// jsonGen emits the Go of a JSON-mode workflow (SPEC §3, §7): a handlers
// interface with one method per assistant, tool or handler name, each
// taking a flowcrt.JSONCall and returning the output text; one package
// variable per state holding its templates and policy; one step method per
// state whose transition is generated Go over the parsed output; one
// function per fan-out; a run loop shared by the run and by every branch
// and item; and a mock.
type jsonGen struct {
	w        *ir.Workflow
	n        names
	ids      naming.Namer
	taskVars map[string]string // by state id
	cm       *codemieVars      // CodeMie configuration (json_codemie.go)
}

func jsonMode(f *jen.File, w *ir.Workflow) {
	g := &jsonGen{w: w, n: newNames(w), taskVars: map[string]string{}}
	g.reserve()
	g.versionGuard(f)
	g.handlersType(f)
	g.workflowType(f)
	g.stepEnum(f)
	g.codemieDecls(f) // CodeMie configuration (json_codemie.go)
	g.tasks(f)
	g.runFuncs(f)
	for _, s := range w.States {
		g.step(f, s)
		if r := s.Next.Region; r != nil {
			g.region(f, r)
		}
	}
	g.mock(f)
	g.codemieMock(f) // json_codemie.go
}

// reserve takes the fixed package-level names and the step constants, so
// that the task variables named after states cannot clash with them.
func (g *jsonGen) reserve() {
	n := g.n
	g.ids.Reserve(n.Workflow, "New"+n.Workflow, n.Handlers, n.Mock, "New"+n.Mock, "New"+n.Mock+"Handlers", n.Step, n.endConst())
	for _, s := range g.w.States {
		g.ids.Reserve(n.stepConst(s))
	}
	for _, s := range g.w.States {
		g.taskVars[s.ID] = g.ids.Fresh(n.prefix + s.GoName + "Task")
	}
}

func (g *jsonGen) versionGuard(f *jen.File) {
	f.Comment("This file needs a runtime that supports its generation: a mismatch fails to compile here.")
	f.Const().Defs(
		jen.Id("_").Op("=").Add(rt("EnforceVersion")).Call(rt("GenVersion").Op("-").Lit(jsonGenVersion)),
		jen.Id("_").Op("=").Add(rt("EnforceVersion")).Call(jen.Lit(jsonGenVersion).Op("-").Add(rt("MinGenVersion"))),
	)
}

// handlers lists each handler once, in order of first use.
func (g *jsonGen) handlers() []*ir.Handler {
	var out []*ir.Handler
	seen := map[string]bool{}
	for _, s := range g.w.States {
		if !seen[s.Handler.Name] {
			seen[s.Handler.Name] = true
			out = append(out, s.Handler)
		}
	}
	return out
}

func (g *jsonGen) statesOf(handler string) []string {
	var ids []string
	for _, s := range g.w.States {
		if s.Handler.Name == handler {
			ids = append(ids, s.ID)
		}
	}
	return ids
}

// jsonHandlerSignature is the parameters and results of every handler.
func jsonHandlerSignature(s *jen.Statement) *jen.Statement {
	return s.Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("call").Add(rt("JSONCall"))).
		Params(jen.String(), jen.Error())
}

func (g *jsonGen) handlersType(f *jen.File) {
	f.Comment(g.n.Handlers + " is the work of the workflow's assistants and tools, implemented by you. A handler")
	f.Comment("gets the state's rendered task and tool_args, its task input and copies of the context store and")
	f.Comment("history, and returns its output as text. The output is parsed as JSON when it can be: an object's")
	f.Comment("keys are merged into the context store, and the state's transition tests the parsed value. An")
	f.Comment("error fails the state; an *flowcrt.Error names it for retry and catch rules.")
	f.Type().Id(g.n.Handlers).InterfaceFunc(func(it *jen.Group) {
		g.codemieHandlers(it) // json_codemie.go
		for _, h := range g.handlers() {
			it.Add(comment(h.Name + " runs " + statesList(g.statesOf(h.Name)) + "."))
			it.Add(jsonHandlerSignature(jen.Id(h.Name)))
		}
	})
}

func (g *jsonGen) workflowType(f *jen.File) {
	n := g.n
	f.Comment(n.Workflow + " runs the workflow. It is safe for concurrent use: every Run has its own state.")
	if g.w.Description != "" {
		f.Comment("")
		f.Add(comment(g.w.Description))
	}
	f.Type().Id(n.Workflow).Struct(
		jen.Id("h").Id(n.Handlers),
		jen.Id("cfg").Add(rt("Config")),
	)
	f.Line()
	f.Comment("New" + n.Workflow + " returns the workflow over your handlers.")
	f.Func().Id("New"+n.Workflow).Params(jen.Id("h").Id(n.Handlers), jen.Id("opts").Op("...").Add(rt("Option"))).
		Op("*").Id(n.Workflow).Block(
		jen.Return(jen.Op("&").Id(n.Workflow).Custom(multiline,
			jen.Id("h").Op(":").Id("h"),
			jen.Id("cfg").Op(":").Add(rt("NewConfig")).Call(jen.Id("opts").Op("...")),
		)),
	)
}

func (g *jsonGen) stepEnum(f *jen.File) {
	n := g.n
	f.Line()
	f.Comment(n.Step + " names the state a run is in; the zero value means the run is over.")
	f.Type().Id(n.Step).Int()
	f.Line()
	f.Const().DefsFunc(func(d *jen.Group) {
		d.Id(n.endConst()).Id(n.Step).Op("=").Iota()
		for _, s := range g.w.States {
			d.Id(n.stepConst(s)).Comment(quote(s.ID))
		}
	})
}

// tasks declares what each state renders and how it calls its handler.
func (g *jsonGen) tasks(f *jen.File) {
	f.Line()
	f.Comment("The states' task templates, tool_args and retry policies.")
	f.Var().DefsFunc(func(d *jen.Group) {
		for _, s := range g.w.States {
			d.Id(g.taskVars[s.ID]).Op("=").Add(rt("JSONTask")).CustomFunc(multiline, func(vals *jen.Group) {
				vals.Id("Policy").Op(":").Add(rt("Policy")).CustomFunc(multiline, func(p *jen.Group) { policyFields(p, s) })
				if len(s.TaskParts) > 0 {
					vals.Id("Task").Op(":").Add(pieces(s.TaskParts))
				}
				toolArgsField(vals, s)       // json_codemie.go
				g.codemieTaskFields(vals, s) // json_codemie.go
			})
		}
	})
}

// policyFields writes a state's id, timeout and retry rules.
func policyFields(vals *jen.Group, s *ir.State) {
	vals.Id("State").Op(":").Lit(s.ID)
	if s.Timeout > 0 {
		vals.Id("Timeout").Op(":").Add(duration(s.Timeout))
	}
	if len(s.Retry) > 0 {
		vals.Id("Retry").Op(":").Index().Add(rt("Retrier")).ValuesFunc(func(rs *jen.Group) {
			for _, r := range s.Retry {
				rs.Add(retrier(r))
			}
		})
	}
}

// pieces writes a parsed template; a reference keeps its spelling, which
// renders when the context store has no such key.
func pieces(parts []ir.TemplatePart) *jen.Statement {
	return jen.Index().Add(rt("Piece")).ValuesFunc(func(vals *jen.Group) {
		for _, p := range parts {
			if p.Ref == "" {
				vals.Values(jen.Id("Text").Op(":").Lit(p.Text))
				continue
			}
			vals.Values(jen.Id("Text").Op(":").Lit(p.Text), jen.Id("Ref").Op(":").Lit(p.Ref))
		}
	})
}

// runFuncs emits Run, RunState and run, the loop that runs states until a
// given one: the end of the run, or the exit of a fan-out for one of its
// branches or items.
func (g *jsonGen) runFuncs(f *jen.File) {
	n := g.n
	start := g.w.State(g.w.Start.ID)
	ctx := jen.Id("ctx").Qual("context", "Context")
	f.Line()
	f.Comment("Run executes the workflow from state " + quote(start.ID) + " on input, any value that encodes as JSON:")
	f.Comment("an object's keys are the initial context store, and input is the task input that {{task}}")
	f.Comment("renders outside iterations. It returns the final context store; on failure, the store as the")
	f.Comment("states that completed left it (a fan-out that failed merges nothing), and the error.")
	f.Func().Params(jen.Id("w").Op("*").Id(n.Workflow)).Id("Run").
		Params(ctx.Clone(), jen.Id("input").Any()).Params(jen.Any(), jen.Error()).Block(
		jen.List(jen.Id("s"), jen.Err()).Op(":=").Add(rt("NewJSONState")).Call(jen.Id("input")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Err().Op("=").Id("w").Dot("RunState").Call(jen.Id("ctx"), jen.Op("&").Id("s")),
		jen.Return(jen.Id("s").Dot("Context"), jen.Err()),
	)
	f.Line()
	f.Comment("RunState executes the workflow from state " + quote(start.ID) + " on s, which it updates: the context")
	f.Comment("store, the message history and the task input. Use it to start from a history or to read the")
	f.Comment("history after the run.")
	f.Func().Params(jen.Id("w").Op("*").Id(n.Workflow)).Id("RunState").
		Params(ctx.Clone(), jen.Id("s").Op("*").Add(rt("JSONState"))).Error().Block(
		jen.Return(jen.Id("w").Dot("run").Call(jen.Id("ctx"), jen.Id("s"), jen.Id(n.stepConst(start)), jen.Id(n.endConst()))),
	)
	f.Line()
	f.Comment("run runs the states from step on s until the run reaches until: the end of the run, or for a")
	f.Comment("branch or item of a fan-out, the state after it.")
	f.Func().Params(jen.Id("w").Op("*").Id(n.Workflow)).Id("run").
		Params(ctx.Clone(), jen.Id("s").Op("*").Add(rt("JSONState")), jen.List(jen.Id("step"), jen.Id("until")).Id(n.Step)).
		Params(jen.Err().Error()).Block(
		jen.For(jen.Id("step").Op("!=").Id("until")).Block(
			jen.If(jen.Err().Op("=").Id("ctx").Dot("Err").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
			jen.Switch(jen.Id("step")).BlockFunc(func(sw *jen.Group) {
				for _, s := range g.w.States {
					sw.Case(jen.Id(n.stepConst(s))).Block(
						jen.List(jen.Id("step"), jen.Err()).Op("=").Id("w").Dot(stepMethod(s)).Call(jen.Id("ctx"), jen.Id("s")),
					)
				}
			}),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		),
		jen.Return(jen.Nil()),
	)
}
