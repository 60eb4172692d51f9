package plan

import (
	"strconv"

	"github.com/flowc-dev/flowc/ir"
)

// chainGenVersion is the generator version of chain code; it needs the
// runtime's chain support (see flowcrt.ThisRuntime).
const chainGenVersion = 13 // 13: mocks through package flowrun, the machinery in runtime/impl/chain; 11: sessions; 10: the machinery in runtime/impl; 8: typed calls of the documented handlers, ChainTask; 9: step loops report to an observer

// chainPlan is the plan of a contenox task chain: tasks whose handlers the
// runtime provides by kind, over a chain state. Built-in handlers always
// run for real, so they have no method and no mock.
func chainPlan(c *ir.Checked) *Plan {
	w := c.Workflow
	n := newNames(w)
	start := w.State(w.Start.ID)
	p := &Plan{
		InputDecoder: &Ref{ImplPath, "DecodeChainInput"}, StepLoop: true,
		Checked: c, Names: n, GenVersion: chainGenVersion, Noun: "the task chain", Describe: true,
		HandlersDoc: []string{
			n.Handlers + " is the work of the chain's tasks, implemented by you. A handler gets the",
			"task's id, input, rendered prompt and a copy of the chain variables, and returns the task's",
			"output (the next task's input) and the eval string its branches test. An error takes the",
			"task's on_failure, or ends the chain with that error.",
		},
		Handlers: chainHandlers(w),
		StepEnum: w.States, Resumable: len(w.States),
		Sessions: chainSessions(),
		StepDoc:  n.Step + " names the task a run is at; the zero value means the chain is over.",
		Runs: []Entry{{
			Name: "Run",
			Doc: []string{
				"Run executes the chain from task " + strconv.Quote(start.ID) + " with input, any JSON value, as its input.",
				"It returns the last task's output and the chain variables; on failure, the state as it was",
				"when the failing task began, and the error.",
			},
			Sig: Sig{Params: []Param{{Name: "input", Typ: BasicType("any")}}, Results: []*ir.Type{RtType(RuntimePath, "ChainState")}},
		}},
		Mock: mockSpec{Caller: "task", Doc: []string{
			"A mocked Return is {\"Output\": <json>, \"Eval\": \"<string>\"}; without \"Eval\" the eval string is the",
			"control token of a chat_completion, execute_tool_calls or tools task, else the output's text.",
			"A task with no mock returns its input unchanged.",
		}},
	}
	return p.withLoops(chainLoops(w), nil)
}

// chainCall is the call type (a runtime type) a documented handler of
// kind k takes, and what it returns besides the error.
func chainCall(k ir.ChainHandlerKind) (string, *ir.Type) {
	result := RtType(RuntimePath, "ChainResult")
	switch k {
	case ir.ChainChatCompletion:
		return "LLMCall", result
	case ir.ChainExecuteToolCalls:
		return "ToolCallsCall", result
	case ir.ChainTools, ir.ChainHook:
		return "ToolCall", result
	case ir.ChainRoute:
		return "RouteCall", BasicType("string")
	case ir.ChainConditionKey:
		return "ConditionCall", BasicType("bool")
	case ir.ChainPromptToString:
		return "LLMCall", BasicType("string")
	case ir.ChainPromptToInt:
		return "LLMCall", BasicType("int")
	}
	return "ChainCall", result
}

// chainHandlers lists the user handlers, each with the typed call of its
// documented kind.
func chainHandlers(w *ir.Workflow) []Handler {
	builtin := func(h *ir.Handler) bool { return h.Builtin != ir.BuiltinNone }
	hs := callHandlers(w.States, builtin, "task", Sig{}, nil)
	for i := range hs {
		kind := ir.ChainKindOf(hs[i].Name)
		hs[i].Sig = callSig(chainCall(kind))
		hs[i].Kind = ChainKinds[kind]
	}
	return hs
}

// chainSessions: a session's state is the run's flowcrt.ChainState, which
// the run loop saves after every task. A chain never stops for a decision,
// so it has no Decide.
func chainSessions() *SessionSpec {
	return &SessionSpec{
		Value: RtType(RuntimePath, "ChainState"), Input: BasicType("any"), Arg: "s",
		Schema: "json",
		Doc: []string{
			"sessions describes the chain to the runtime's session functions: its state is the run's",
			"ChainState, with no schema to check.",
		},
		Resume: "Resume continues session sessionID from its last checkpoint at the task it names, without " +
			"running again the tasks that completed; a session whose last run finished returns its final state.",
	}
}

// chainLoops: one run loop over the tasks, with no fan-outs.
func chainLoops(w *ir.Workflow) []*Loop {
	return []*Loop{{Method: "run", Entry: "run", What: "the task chain", States: w.States, Start: w.State(w.Start.ID),
		FromStep: true, Session: RunSession}}
}
