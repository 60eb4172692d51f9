// Package jsonmode is the dialect of JSON mode, CodeMie's assistants and
// tools whose values are JSON and whose conditions the runtime evaluates.
package jsonmode

import (
	"github.com/dave/jennifer/jen"
	"github.com/flowc-dev/flowc/ir/plan"

	"github.com/flowc-dev/flowc/codegen/internal/emit"
	"github.com/flowc-dev/flowc/internal/naming"
	"github.com/flowc-dev/flowc/ir"
)

// jsonGenVersion is the generator version of JSON-mode code; it needs the
// runtime's JSONState and friends.
const jsonGenVersion = 13 // 13: mocks through package flowrun; 12: built-in custom nodes, stops inside iterations and fan-outs; 11: CodeMie's defaults, Current task, Autonomous supervisors (JSONTask.CurrentTask...); 10: the machinery in runtime/impl; 7: CodeMie configuration and sessions (json_codemie.go, json_session.go); 8: the shared emitter; 9: step loops report to an observer

// jsonGen emits the Go of a JSON-mode workflow (docs/codemie.md): a handlers
// interface with one method per assistant, tool or handler name, each
// taking a flowcrt.JSONCall and returning the output text; one package
// variable per state holding its templates and policy; one step method per
// state whose transition is generated Go over the parsed output; one
// function per fan-out; a run loop shared by the run and by every branch
// and item; and a mock.
type jsonGen struct {
	w        *ir.Workflow
	n        plan.Names
	ids      naming.Namer
	taskVars map[string]string // by state id
	cm       *codemieVars      // CodeMie configuration (json_codemie.go)
	nodes    map[string]string // each custom-node state's custom_node_id, by state id (json_codemie.go)
}

// New is the JSON-mode dialect of w.
func New(w *ir.Workflow) emit.Dialect {
	g := &jsonGen{w: w, n: plan.NewNames(w), taskVars: map[string]string{}}
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

// jsonHandlerSig is the parameters and results of every handler.
func jsonHandlerSig() plan.Sig { return plan.CallSig("JSONCall", plan.BasicType("string")) }

func (g *jsonGen) Types(*jen.File) {}

func (g *jsonGen) Shell() *plan.Plan {
	n := g.n
	builtin := g.builtinHandlers() // json_codemie.go: custom nodes the runtime runs itself
	handlers := plan.CallHandlers(g.w.States, func(h *ir.Handler) bool { return builtin[h.Name] }, "state", jsonHandlerSig(),
		"(ctx context.Context, call "+emit.RuntimeAlias+".JSONCall) (string, error)", "RespondJSON")
	g.describeModelHandlers(handlers) // json_codemie.go
	start := g.w.State(g.w.Start.ID)
	states, resumable := plan.TopFirst(g.w)
	return &plan.Plan{
		InputDecoder: "DecodeChainInput",
		Workflow:     g.w, Names: n, GenVersion: jsonGenVersion, Noun: "the workflow", Describe: true,
		HandlersDoc: []string{
			n.Handlers + " is the work of the workflow's assistants and tools, implemented by you. A handler",
			"gets the state's rendered task and tool_args, its task input and copies of the context store and",
			"history, and returns its output as text. The output is parsed as JSON when it can be: an object's",
			"keys are merged into the context store, and the state's transition tests the parsed value. An",
			"error fails the state; an *flowcrt.Error names it for retry and catch rules.",
		},
		Handlers: handlers,
		More:     g.codemieServices(), // json_codemie.go: the services the configuration needs
		States:   states, Resumable: resumable,
		Sessions: g.sessionSpec(), // json_session.go
		StepDoc:  n.Step + " names the state a run is in; the zero value means the run is over.",
		Runs: []plan.Entry{{
			Name: "Run",
			Doc: []string{
				"Run executes the workflow from state " + emit.Quote(start.ID) + " on input, any value that encodes as JSON:",
				"an object's keys are the initial context store, and input is the task input that {{task}}",
				"renders outside iterations. It returns the final context store; on failure, the store as the",
				"states that completed left it (a fan-out that failed merges nothing), and the error.",
			},
			Sig: plan.Sig{Params: []plan.SigParam{{Name: "input", Typ: plan.BasicType("any")}}, Results: []*ir.Type{plan.BasicType("any")}},
		}, {
			Name: "RunState",
			Doc: []string{
				"RunState executes the workflow from state " + emit.Quote(start.ID) + " on s, which it updates: the context",
				"store, the message history and the task input. Use it to start from a history or to read the",
				"history after the run.",
			},
			Sig: plan.Sig{Params: []plan.SigParam{{Name: "s", Typ: &ir.Type{Kind: ir.TypePointer, Elem: plan.RtType("JSONState")}}}},
		}},
		Mock: plan.MockSpec{
			Caller: "state",
			Doc: []string{
				"A mocked Return is the output text: a JSON string is the text itself, any other value its JSON",
				"encoding. A Throw fails the state with its Error and Cause. A state with no mock returns its",
				"rendered task.",
			},
			Marker: answersInOrder,
			MarkerDoc: []string{
				"AnswersInOrder makes fan-outs run one branch or item at a time, in order, so that the k-th",
				"mocked answer of a state goes to a known branch or item.",
			},
		},
	}
}

// EntryBody: Run makes the state RunState runs the loop on.
func (g *jsonGen) EntryBody(e plan.Entry) []jen.Code {
	if e.Name == "RunState" {
		start := g.w.State(g.w.Start.ID)
		return []jen.Code{jen.Return(jen.Id("w").Dot("run").Call(jen.Id("ctx"), jen.Nil(), jen.Id("s"), jen.Id(g.n.StepConst(start)), jen.Id(g.n.EndConst())))}
	}
	return []jen.Code{
		jen.List(jen.Id("s"), jen.Err()).Op(":=").Add(emit.Rt("NewJSONState")).Call(jen.Id("input")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Err().Op("=").Id("w").Dot("RunState").Call(jen.Id("ctx"), jen.Op("&").Id("s")),
		jen.Return(jen.Id("s").Dot("Context"), jen.Err()),
	}
}

// MockBody answers every handler from the mock of its state.
func (g *jsonGen) MockBody(plan.Handler) []jen.Code {
	return emit.AnswerFromMocks("RespondJSON", jen.Id("call"))
}

// answersInOrder is the method of the runtime's inOrderHandlers interface, which no
// handler may be named (the checker rejects it).
const answersInOrder = "AnswersInOrder"

// Steps emits the CodeMie configuration, the task table, the run loop that
// the run and every branch and item share, each state's step and fan-out,
// and the services the configuration asks for.
func (g *jsonGen) Steps(f *jen.File, t emit.Target) {
	g.codemieDecls(f) // json_codemie.go
	g.tasks(f)
	t.Loop(f, g.n, &emit.Loop{
		Method: "run",
		Doc: "run runs the states from step on s until the run reaches until: the end of the run, or for a " +
			"branch or item of a fan-out, the state after it. A session's run saves a checkpoint after every state.",
		Params: []jen.Code{jen.Id("sess").Op("*").Add(emit.Rt("Session")), jen.Id("s").Op("*").Add(emit.Rt("JSONState"))},
		States: g.w.States,
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
		if r := s.Next.Region; r != nil {
			g.region(f, r)
		}
	}
}

// tasks declares what each state renders and how it calls its handler.
func (g *jsonGen) tasks(f *jen.File) {
	f.Line()
	f.Comment("The states' task templates, tool_args and retry policies.")
	f.Var().DefsFunc(func(d *jen.Group) {
		for _, s := range g.w.States {
			d.Id(g.taskVars[s.ID]).Op("=").Add(emit.Rt("JSONTask")).CustomFunc(emit.Multiline, func(vals *jen.Group) {
				vals.Id("Policy").Op(":").Add(emit.Rt("Policy")).CustomFunc(emit.Multiline, func(p *jen.Group) { emit.PolicyFields(p, s) })
				if len(s.TaskParts) > 0 {
					vals.Id("Task").Op(":").Add(pieces(s.TaskParts))
				}
				toolArgsField(vals, s)       // json_codemie.go
				g.codemieTaskFields(vals, s) // json_codemie.go
			})
		}
	})
}

// pieces writes a parsed template; a reference keeps its spelling, which
// renders when the context store has no such key.
func pieces(parts []ir.TemplatePart) *jen.Statement {
	return jen.Index().Add(emit.Rt("Piece")).ValuesFunc(func(vals *jen.Group) {
		for _, p := range parts {
			if p.Ref == "" {
				vals.Values(jen.Id("Text").Op(":").Lit(p.Text))
				continue
			}
			vals.Values(jen.Id("Text").Op(":").Lit(p.Text), jen.Id("Ref").Op(":").Lit(p.Ref))
		}
	})
}
