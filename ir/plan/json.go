package plan

import (
	"encoding/json"
	"slices"
	"strconv"

	"github.com/flowc-dev/flowc/ir"
)

// jsonGenVersion is the generator version of JSON-mode code; it needs the
// runtime's JSONState and friends.
const jsonGenVersion = 14 // 14: every fan-out saves its progress in a session (FanOutStops), so that a redrive runs only what failed; 13: mocks through package flowrun, the machinery in runtime/impl/jsonmode; 12: built-in custom nodes, stops inside iterations and fan-outs; 11: CodeMie's defaults, Current task, Autonomous supervisors (JSONTask.CurrentTask...); 10: the machinery in runtime/impl; 7: CodeMie configuration and sessions (codemie.go, session.go of codegen/internal/jsonmode); 8: the shared emitter; 9: step loops report to an observer

// CodeMie's custom nodes (custom_node_id) that the runtime runs
// (runtime/impl/jsonmode, codemie_nodes.go): handlerless ones need no handler; a
// state processor's handler stands for the model it asks about each state.
var handlerless = map[string]bool{"transform_node": true}

// StateProcessor is the custom_node_id of CodeMie's state processor.
const StateProcessor = "state_processor_node"

// answersInOrder is the method of the runtime's inOrderHandlers interface,
// which no handler may be named (the checker rejects it).
const answersInOrder = "AnswersInOrder"

// jsonPlan is the plan of a JSON-mode workflow: CodeMie's assistants and
// tools, each handler taking a flowcrt.JSONCall and returning the output
// text, and the services the CodeMie configuration adds.
func jsonPlan(c *ir.Checked) *Plan {
	w := c.Workflow
	n := newNames(w)
	start := w.State(w.Start.ID)
	states, resumable := topFirst(w)
	p := &Plan{
		InputDecoder: &Ref{ImplPath, "DecodeChainInput"}, RuntimeConditions: true,
		Checked: c, Names: n, GenVersion: jsonGenVersion, Noun: "the workflow", Describe: true,
		HandlersDoc: []string{
			n.Handlers + " is the work of the workflow's assistants and tools, implemented by you. A handler",
			"gets the state's rendered task and tool_args, its task input and copies of the context store and",
			"history, and returns its output as text. The output is parsed as JSON when it can be: an object's",
			"keys are merged into the context store, and the state's transition tests the parsed value. An",
			"error fails the state; an *flowcrt.Error names it for retry and catch rules.",
		},
		More:     codemieServices(w),
		StepEnum: states, Resumable: resumable,
		Sessions: jsonSessions(w),
		StepDoc:  n.Step + " names the state a run is in; the zero value means the run is over.",
		Runs: []Entry{{
			Name: "Run",
			Doc: []string{
				"Run executes the workflow from state " + strconv.Quote(start.ID) + " on input, any value that encodes as JSON:",
				"an object's keys are the initial context store, and input is the task input that {{task}}",
				"renders outside iterations. It returns the final context store; on failure, the store as the",
				"states that completed left it (a fan-out that failed merges nothing), and the error.",
			},
			Sig: Sig{Params: []Param{{Name: "input", Typ: BasicType("any")}}, Results: []*ir.Type{BasicType("any")}},
		}, {
			Name: "RunState",
			Doc: []string{
				"RunState executes the workflow from state " + strconv.Quote(start.ID) + " on s, which it updates: the context",
				"store, the message history and the task input. Use it to start from a history or to read the",
				"history after the run.",
			},
			Sig: Sig{Params: []Param{{Name: "s", Typ: &ir.Type{Kind: ir.TypePointer, Elem: RtType(RuntimePath, "JSONState")}}}},
		}},
		Mock: mockSpec{
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
		nodes: nodeTypes(w),
	}
	p.Handlers = p.jsonHandlers()
	return p.withLoops(jsonLoops(w))
}

// jsonHandlers are the handlers of the states the runtime does not run
// itself, in order of first use.
func (p *Plan) jsonHandlers() []Handler {
	builtin := p.builtinHandlers()
	handlers := callHandlers(p.Workflow.States, func(h *ir.Handler) bool { return builtin[h.Name] }, "state", jsonSig(),
		respond("RespondJSON", "call"))
	p.describeModelHandlers(handlers)
	return handlers
}

// jsonSig is the parameters and results of every handler.
func jsonSig() Sig { return callSig("JSONCall", BasicType("string")) }

// nodeTypes is each custom-node state's custom_node_id, by state id.
func nodeTypes(w *ir.Workflow) map[string]string {
	nodes := map[string]string{}
	if w.CodeMie == nil {
		return nodes
	}
	for _, st := range w.States {
		if st.CodeMie == nil {
			continue
		}
		if c := w.CodeMie.CustomNodes[st.CodeMie.CustomNode]; c != nil {
			var node struct {
				Type string `json:"custom_node_id"`
			}
			_ = json.Unmarshal([]byte(c.JSON), &node) // the compiler wrote it
			nodes[st.ID] = node.Type
		}
	}
	return nodes
}

// NodeType is the custom_node_id of a JSON-mode state's custom node; ""
// for other states.
func (p *Plan) NodeType(s *ir.State) string { return p.nodes[s.ID] }

// RunsItself reports whether the runtime runs state s itself, with no
// handler: a custom node it implements (CodeMie's transform_node).
func (p *Plan) RunsItself(s *ir.State) bool { return handlerless[p.NodeType(s)] }

// builtinHandlers are the handler names only states that the runtime runs
// itself call: the handlers interface has no method for them.
func (p *Plan) builtinHandlers() map[string]bool {
	out := map[string]bool{}
	for _, s := range p.Workflow.States {
		if s.Handler != nil && p.RunsItself(s) {
			out[s.Handler.Name] = true
		}
	}
	for _, s := range p.Workflow.States {
		if s.Handler != nil && !p.RunsItself(s) {
			delete(out, s.Handler.Name)
		}
	}
	return out
}

// describeModelHandlers says what the handler of a state_processor_node
// answers: the model's reading of each state the node reads.
func (p *Plan) describeModelHandlers(handlers []Handler) {
	processors := map[string][]string{} // state ids by handler name
	for _, s := range p.Workflow.States {
		if s.Handler != nil && p.NodeType(s) == StateProcessor {
			processors[s.Handler.Name] = append(processors[s.Handler.Name], s.ID)
		}
	}
	for i, h := range handlers {
		if ids := processors[h.Name]; len(ids) > 0 {
			handlers[i].Doc = h.Name + " is the model the state_processor_node of " + usersList("state", ids) +
				" asks about each state it reads, whose \"TASK: <task>. OUTPUT: <output>\" is call.History."
		}
	}
}

// codemieServices are what the handlers interface declares for the
// workflow's configuration: a summarizer, datasource search, and the MCP
// caller when only assistants configure MCP servers (tool states name it
// otherwise).
func codemieServices(w *ir.Workflow) []service {
	var out []service
	cm := w.CodeMie
	if cm != nil && cm.Summarize {
		out = append(out, summarizer)
	}
	if needsDatasources(w) {
		str := BasicType("string")
		out = append(out, service{
			Name: ir.DatasourceHandler, Sig: Sig{Params: []Param{{Name: "datasourceID", Typ: str}, {Name: "query", Typ: str}}, Results: []*ir.Type{str}},
			Doc: ir.DatasourceHandler + " searches a datasource the assistants or custom nodes name (call.Assistant.DatasourceIDs); their handlers call it.",
		})
	}
	if needsMCPMethod(w) {
		out = append(out, service{
			Name: ir.MCPHandler, Sig: jsonSig(),
			Doc: ir.MCPHandler + " calls a tool of an MCP server (call.Tool.MCPServer, or one of call.MCPServers and call.Assistant.MCPServers) for the assistants that use them.",
		})
	}
	return out
}

// summarizer is the runtime's Summarizer, embedded in the handlers.
var summarizer = service{
	Embed: &Ref{RuntimePath, "Summarizer"}, Name: "Summarize", Doc: "Summarize shortens the history once it crosses the summarization limits.",
	Sig: Sig{Params: []Param{{Name: "history", Typ: RtType(RuntimePath, "Messages")}}, Results: []*ir.Type{RtType(RuntimePath, "Messages")}},
}

// needsDatasources reports whether an assistant or custom node names
// datasources.
func needsDatasources(w *ir.Workflow) bool {
	cm := w.CodeMie
	if cm == nil {
		return false
	}
	for _, list := range []map[string]*ir.Config{cm.Assistants, cm.CustomNodes} {
		for _, c := range list {
			if c.Datasources {
				return true
			}
		}
	}
	return false
}

// needsMCPMethod reports whether assistants configure MCP servers while no
// state calls the MCP handler.
func needsMCPMethod(w *ir.Workflow) bool {
	cm := w.CodeMie
	if cm == nil || slices.ContainsFunc(w.States, func(s *ir.State) bool { return s.Handler.Name == ir.MCPHandler }) {
		return false
	}
	for _, a := range cm.Assistants {
		if a.MCP {
			return true
		}
	}
	return slices.ContainsFunc(w.States, func(s *ir.State) bool { return s.CodeMie != nil && s.CodeMie.MCPServers != "" })
}

// jsonSessions: a session's state is the run's flowcrt.JSONState, saved
// after every top-level state, and its methods take and return the context
// store. A run interrupted before a state (CodeMie's interrupt_before)
// resumes there once Decide answers: only then can it stop for a decision.
func jsonSessions(w *ir.Workflow) *SessionSpec {
	return &SessionSpec{
		Value: RtType(RuntimePath, "JSONState"), Input: BasicType("any"), Arg: "s",
		Decides: slices.ContainsFunc(w.States, func(s *ir.State) bool { return s.CodeMie != nil && s.CodeMie.InterruptBefore }),
		Schema:  "json",
		Doc: []string{
			"sessions describes the workflow to the runtime's session functions: its state is the run's",
			"JSONState, with no schema to check.",
		},
		Resume: "Resume continues session sessionID from its last checkpoint, without running again the states " +
			"that completed; a session whose last run finished returns its context store.",
		Decide: "Decide answers the interrupt_before that session sessionID waits at with decision, \"continue\" " +
			"or \"cancel\", and goes on.",
		Out: SessionOut{Typ: BasicType("any"), Field: "Context"},
	}
}

// jsonLoops: one run loop over every state, which the run and each branch
// and item share, each until its own exit. A session's run can stop
// inside a fan-out at a state that interrupts before it runs.
func jsonLoops(w *ir.Workflow) ([]*Loop, []*FanOut) {
	run := &Loop{Method: "run", Entry: "run", What: "the workflow", States: w.States, Start: w.State(w.Start.ID),
		FromStep: true, ExitParam: true, Session: RunSession}
	stops := func(r *ir.Region) bool {
		return slices.ContainsFunc(w.States, func(s *ir.State) bool {
			return s.CodeMie != nil && s.CodeMie.InterruptBefore && r.Contains(s.ID)
		})
	}
	return []*Loop{run}, regionFanOuts(w, stops, func(*FanOut) *Loop { return run })
}
