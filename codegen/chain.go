package codegen

import (
	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/ir"
)

// chainGenVersion is the generator version of chain code; it needs the
// runtime's chain support (see flowcrt.ThisRuntime).
const chainGenVersion = 11 // 11: sessions; 10: the machinery in runtime/impl; 8: typed calls of the documented handlers, ChainTask; 9: step loops report to an observer

// chainGen emits the Go of a task chain (docs/chains.md): a handlers interface with
// one method per user handler, one step method per task whose transition is
// a switch over the eval string, and a mock. It shares the typed mode's
// naming (names) and branch matching (branchMatch).
type chainGen struct {
	w *ir.Workflow
	n names
}

func newChainGen(w *ir.Workflow) *chainGen { return &chainGen{w: w, n: newNames(w)} }

func (g *chainGen) types(*jen.File) {}

// shell: built-in handlers always run for real, so they have no method
// and no mock.
func (g *chainGen) shell() *shell {
	n := g.n
	start := g.w.State(g.w.Start.ID)
	return &shell{
		w: g.w, n: n, genVersion: chainGenVersion, noun: "the task chain", describe: true,
		handlersDoc: []string{
			n.Handlers + " is the work of the chain's tasks, implemented by you. A handler gets the",
			"task's id, input, rendered prompt and a copy of the chain variables, and returns the task's",
			"output (the next task's input) and the eval string its branches test. An error takes the",
			"task's on_failure, or ends the chain with that error.",
		},
		handlers: g.handlers(), // chain_handlers.go: the documented handlers' typed calls
		states:   g.w.States, resumable: len(g.w.States),
		sessions: g.sessionSpec(), // chain_session.go
		stepDoc:  n.Step + " names the task a run is at; the zero value means the chain is over.",
		runs: []entry{{
			name: "Run",
			doc: []string{
				"Run executes the chain from task " + quote(start.ID) + " with input, any JSON value, as its input.",
				"It returns the last task's output and the chain variables; on failure, the state as it was",
				"when the failing task began, and the error.",
			},
			sig: sig{params: []sigParam{{"input", basicType("any")}}, results: []*ir.Type{rtType("ChainState")}},
			body: []jen.Code{
				jen.List(jen.Id("s"), jen.Err()).Op(":=").Add(rt("NewChainState")).Call(jen.Id("input")),
				jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Id("s"), jen.Err())),
				jen.Err().Op("=").Id("w").Dot("run").Call(jen.Id("ctx"), jen.Op("&").Id("s"), jen.Id(n.stepConst(start))),
				jen.Return(jen.Id("s"), jen.Err()),
			},
		}},
		mock: mockSpec{caller: "task", doc: []string{
			"A mocked Return is {\"Output\": <json>, \"Eval\": \"<string>\"}; without \"Eval\" the eval string is the",
			"control token of a chat_completion, execute_tool_calls or tools task, else the output's text.",
			"A task with no mock returns its input unchanged.",
		}},
	}
}

// steps emits the tasks, the run loop and each task's step.
func (g *chainGen) steps(f *jen.File, t target) {
	g.tasks(f) // chain_task.go
	t.loop(f, g.n, &loop{
		method: "run",
		doc: "run runs the chain on s from step until a task ends it. A session's run (s.Attach) saves a " +
			"checkpoint after every task.",
		params: []jen.Code{jen.Id("s").Op("*").Add(rt("ChainState"))},
		until:  jen.Id(g.n.endConst()),
		states: g.w.States,
		call: func(s *ir.State) *jen.Statement {
			return jen.Id("w").Dot(stepMethod(s)).Call(jen.Id("sctx"), jen.Id("s"))
		},
		save: jen.Err().Op("=").Id("s").Dot("Save").Call(jen.Id("ctx"), jen.Id(g.n.idsVar()).Index(jen.Id("next")), jen.Err()),
	})
	for _, s := range g.w.States {
		g.step(f, s)
	}
}
