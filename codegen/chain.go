package codegen

import (
	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/ir"
)

// chainGenVersion is the generator version of chain code; it needs the
// runtime's chain support (see flowcrt.EnforceVersion).
const chainGenVersion = 2

// chainGen emits the Go of a task chain (SPEC §5): a handlers interface with
// one method per user handler, one step method per task whose transition is
// a switch over the eval string, and a mock. It shares the typed mode's
// naming (names) and branch matching (branchMatch).
type chainGen struct {
	w *ir.Workflow
	n names
}

func chain(f *jen.File, w *ir.Workflow) {
	g := &chainGen{w: w, n: newNames(w)}
	g.versionGuard(f)
	g.handlersType(f)
	g.chainType(f)
	g.stepEnum(f)
	g.tasks(f) // chain_task.go
	g.runLoop(f)
	for _, s := range w.States {
		g.step(f, s)
	}
	g.mock(f)
}

func (g *chainGen) versionGuard(f *jen.File) {
	f.Comment("This file needs a runtime that supports its generation: a mismatch fails to compile here.")
	f.Const().Defs(
		jen.Id("_").Op("=").Add(rt("EnforceVersion")).Call(rt("GenVersion").Op("-").Lit(chainGenVersion)),
		jen.Id("_").Op("=").Add(rt("EnforceVersion")).Call(jen.Lit(chainGenVersion).Op("-").Add(rt("MinGenVersion"))),
	)
}

// userHandlers lists each user handler once, in order of first use;
// built-ins have no method.
func (g *chainGen) userHandlers() []*ir.Handler {
	var out []*ir.Handler
	seen := map[string]bool{}
	for _, s := range g.w.States {
		if h := s.Handler; h.Builtin == ir.BuiltinNone && !seen[h.Name] {
			seen[h.Name] = true
			out = append(out, h)
		}
	}
	return out
}

// tasksOf maps each user handler to the ids of the tasks that call it, in
// one pass: a scan per handler made large chains quadratic.
func (g *chainGen) tasksOf() map[string][]string {
	ids := map[string][]string{}
	for _, s := range g.w.States {
		if s.Handler.Builtin == ir.BuiltinNone {
			ids[s.Handler.Name] = append(ids[s.Handler.Name], s.ID)
		}
	}
	return ids
}

func tasksList(ids []string) string {
	out := "task"
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

func (g *chainGen) handlersType(f *jen.File) {
	f.Comment(g.n.Handlers + " is the work of the chain's tasks, implemented by you. A handler gets the")
	f.Comment("task's id, input, rendered prompt and a copy of the chain variables, and returns the task's")
	f.Comment("output (the next task's input) and the eval string its branches test. An error takes the")
	f.Comment("task's on_failure, or ends the chain with that error.")
	f.Type().Id(g.n.Handlers).InterfaceFunc(func(it *jen.Group) {
		users := g.tasksOf()
		for _, h := range g.userHandlers() {
			it.Add(comment(h.Name + " runs " + tasksList(users[h.Name]) + "."))
			it.Add(g.chainSignature(h)) // chain_handlers.go: the documented handlers' typed calls
		}
	})
}

func (g *chainGen) chainType(f *jen.File) {
	n := g.n
	f.Comment(n.Workflow + " runs the task chain. It is safe for concurrent use: every Run has its own state.")
	if g.w.Description != "" {
		f.Comment("")
		f.Add(comment(g.w.Description))
	}
	f.Type().Id(n.Workflow).Struct(
		jen.Id("h").Id(n.Handlers),
		jen.Id("cfg").Add(rt("Config")),
	)
	f.Line()
	f.Comment("New" + n.Workflow + " returns the chain over your handlers.")
	f.Func().Id("New"+n.Workflow).Params(jen.Id("h").Id(n.Handlers), jen.Id("opts").Op("...").Add(rt("Option"))).
		Op("*").Id(n.Workflow).Block(
		jen.Return(jen.Op("&").Id(n.Workflow).Values(jen.Dict{
			jen.Id("h"):   jen.Id("h"),
			jen.Id("cfg"): rt("NewConfig").Call(jen.Id("opts").Op("...")),
		})),
	)
}

func (g *chainGen) stepEnum(f *jen.File) {
	n := g.n
	f.Line()
	f.Comment(n.Step + " names the task a run is at; the zero value means the chain is over.")
	f.Type().Id(n.Step).Int()
	f.Line()
	f.Const().DefsFunc(func(d *jen.Group) {
		d.Id(n.endConst()).Id(n.Step).Op("=").Iota()
		for _, s := range g.w.States {
			d.Id(n.stepConst(s)).Comment(quote(s.ID))
		}
	})
}

func (g *chainGen) runLoop(f *jen.File) {
	n := g.n
	start := g.w.State(g.w.Start.ID)
	f.Line()
	f.Comment("Run executes the chain from task " + quote(start.ID) + " with input, any JSON value, as its input.")
	f.Comment("It returns the last task's output and the chain variables; on failure, the state as it was")
	f.Comment("when the failing task began, and the error.")
	f.Func().Params(jen.Id("w").Op("*").Id(n.Workflow)).Id("Run").
		Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("input").Any()).
		Params(rt("ChainState"), jen.Error()).Block(
		jen.List(jen.Id("s"), jen.Err()).Op(":=").Add(rt("NewChainState")).Call(jen.Id("input")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Id("s"), jen.Err())),
		jen.Id("step").Op(":=").Id(n.stepConst(start)),
		jen.For(jen.Id("step").Op("!=").Id(n.endConst())).Block(
			jen.If(jen.Err().Op("=").Id("ctx").Dot("Err").Call(), jen.Err().Op("!=").Nil()).Block(
				jen.Return(jen.Id("s"), jen.Err()),
			),
			jen.Switch(jen.Id("step")).BlockFunc(func(sw *jen.Group) {
				for _, s := range g.w.States {
					sw.Case(jen.Id(n.stepConst(s))).Block(
						jen.List(jen.Id("step"), jen.Err()).Op("=").Id("w").Dot(stepMethod(s)).Call(jen.Id("ctx"), jen.Op("&").Id("s")),
					)
				}
			}),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Id("s"), jen.Err())),
		),
		jen.Return(jen.Id("s"), jen.Nil()),
	)
}
