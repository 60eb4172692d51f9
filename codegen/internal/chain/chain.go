// Package chain is the dialect of contenox task chains: tasks whose
// handlers the runtime provides by kind, over a chain state.
package chain

import (
	"github.com/dave/jennifer/jen"
	"github.com/flowc-dev/flowc/ir/plan"

	"github.com/flowc-dev/flowc/codegen/internal/emit"
	"github.com/flowc-dev/flowc/ir"
)

// chainGenVersion is the generator version of chain code; it needs the
// runtime's chain support (see flowcrt.ThisRuntime).
const chainGenVersion = 13 // 13: mocks through package flowrun, the machinery in runtime/impl/chain; 11: sessions; 10: the machinery in runtime/impl; 8: typed calls of the documented handlers, ChainTask; 9: step loops report to an observer

// chainGen emits the Go of a task chain (docs/chains.md): a handlers interface with
// one method per user handler, one step method per task whose transition is
// a switch over the eval string, and a mock. It shares the typed mode's
// naming (names) and branch matching (branchMatch).
type chainGen struct {
	w *ir.Workflow
	n plan.Names
}

// New is the task-chain dialect of w.
func New(w *ir.Workflow) emit.Dialect { return &chainGen{w: w, n: plan.NewNames(w)} }

func (g *chainGen) Types(*jen.File) {}

// ch names an identifier of the task chains' machinery (runtime/impl/chain,
// imported as flowcchain); names a user's program spells too go through
// flowcrt (emit.Rt).
func ch(name string) *jen.Statement { return jen.Qual(plan.ChainPath, name) }

// Shell: built-in handlers always run for real, so they have no method
// and no mock.
func (g *chainGen) Shell() *plan.Plan {
	n := g.n
	start := g.w.State(g.w.Start.ID)
	return &plan.Plan{
		InputDecoder: "DecodeChainInput", StepLoop: true,
		Workflow: g.w, Names: n, GenVersion: chainGenVersion, Noun: "the task chain", Describe: true,
		HandlersDoc: []string{
			n.Handlers + " is the work of the chain's tasks, implemented by you. A handler gets the",
			"task's id, input, rendered prompt and a copy of the chain variables, and returns the task's",
			"output (the next task's input) and the eval string its branches test. An error takes the",
			"task's on_failure, or ends the chain with that error.",
		},
		Handlers: g.handlers(), // chain_handlers.go: the documented handlers' typed calls
		States:   g.w.States, Resumable: len(g.w.States),
		Sessions: g.sessionSpec(), // chain_session.go
		StepDoc:  n.Step + " names the task a run is at; the zero value means the chain is over.",
		Runs: []plan.Entry{{
			Name: "Run",
			Doc: []string{
				"Run executes the chain from task " + emit.Quote(start.ID) + " with input, any JSON value, as its input.",
				"It returns the last task's output and the chain variables; on failure, the state as it was",
				"when the failing task began, and the error.",
			},
			Sig: plan.Sig{Params: []plan.SigParam{{Name: "input", Typ: plan.BasicType("any")}}, Results: []*ir.Type{plan.RtType("ChainState")}},
		}},
		Mock: plan.MockSpec{Caller: "task", Doc: []string{
			"A mocked Return is {\"Output\": <json>, \"Eval\": \"<string>\"}; without \"Eval\" the eval string is the",
			"control token of a chat_completion, execute_tool_calls or tools task, else the output's text.",
			"A task with no mock returns its input unchanged.",
		}},
	}
}

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
func (g *chainGen) Steps(f *jen.File, t emit.Target) {
	f.ImportAlias(plan.ChainPath, emit.ChainAlias)
	g.tasks(f) // chain_task.go
	t.Loop(f, g.n, &emit.Loop{
		Method: "run",
		Doc: "run runs the chain on s from step until a task ends it. A session's run (s.Attach) saves a " +
			"checkpoint after every task.",
		Params: []jen.Code{jen.Id("s").Op("*").Add(emit.Rt("ChainState"))},
		Until:  jen.Id(g.n.EndConst()),
		States: g.w.States,
		Call: func(s *ir.State) *jen.Statement {
			return jen.Id("w").Dot(emit.StepMethod(s)).Call(jen.Id("sctx"), jen.Id("s"))
		},
		Save: jen.Err().Op("=").Id("s").Dot("Save").Call(jen.Id("ctx"), jen.Id(g.n.IdsVar()).Index(jen.Id("next")), jen.Err()),
	})
	for _, s := range g.w.States {
		g.step(f, s)
	}
}
