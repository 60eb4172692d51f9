// Package chain is the dialect of contenox task chains: tasks whose
// handlers the runtime provides by kind, over a chain state.
package chain

import (
	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/codegen/internal/emit"
	"github.com/flowc-dev/flowc/ir"
	"github.com/flowc-dev/flowc/ir/plan"
)

// chainGen emits the Go of a task chain (docs/chains.md): a handlers interface with
// one method per user handler, one step method per task whose transition is
// a switch over the eval string, and a mock. It shares the typed mode's
// naming (names) and branch matching (branchMatch).
type chainGen struct {
	p *plan.Plan
	w *ir.Workflow
	n plan.Names
}

// New is the task-chain dialect of the plan p.
func New(p *plan.Plan) emit.Dialect { return &chainGen{p: p, w: p.Workflow, n: p.Names} }

func (g *chainGen) Types(*jen.File) {}

// ch names an identifier of the task chains' machinery (runtime/impl/chain,
// imported as flowcchain); names a user's program spells too go through
// flowcrt (emit.Rt).
func ch(name string) *jen.Statement { return jen.Qual(plan.ChainPath, name) }

// EntryBody: Run makes the chain's state and runs the loop on it.
func (g *chainGen) EntryBody(plan.Entry) []jen.Code {
	return []jen.Code{
		jen.List(jen.Id("s"), jen.Err()).Op(":=").Add(ch("NewChainState")).Call(jen.Id("input")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Id("s"), jen.Err())),
		jen.Err().Op("=").Id("w").Dot("run").Call(jen.Id("ctx"), jen.Op("&").Id("s"), jen.Id(g.n.StepConst(g.w.State(g.w.Start.ID)))),
		jen.Return(jen.Id("s"), jen.Err()),
	}
}

// Steps emits the tasks, the run loop and each task's step.
func (g *chainGen) Steps(f *jen.File, t emit.Writer) {
	f.ImportAlias(plan.ChainPath, emit.ChainAlias)
	g.tasks(f) // task.go
	t.Loop(f, g.n, &emit.Loop{
		Loop: g.p.Loops[0],
		Doc: "run runs the chain on s from step until a task ends it. A session's run (s.Attach) saves a " +
			"checkpoint after every task.",
		Params: []jen.Code{jen.Id("s").Op("*").Add(emit.Flowcrt("ChainState"))},
		Call: func(s *ir.State) *jen.Statement {
			return jen.Id("w").Dot(emit.StepMethod(s)).Call(jen.Id("sctx"), jen.Id("s"))
		},
		Save: jen.Err().Op("=").Id("s").Dot("Save").Call(jen.Id("ctx"), jen.Id(g.n.IdsVar()).Index(jen.Id("next")), jen.Err()),
	})
	for _, s := range g.w.States {
		g.step(f, s)
	}
}
