package plan

import (
	"slices"

	"github.com/flowc-dev/flowc/ir"
)

// Builtin names the built-in handler that a program of `flowc build` runs
// a method of the handlers interface with when the user's handlers lack
// it; "" for none. Which built-ins a workflow can use is its language's
// say, so the plan tells the program rather than the program asking the
// workflow's mode.
type Builtin string

const (
	// BuiltinChainModel: a task-chain handler whose kind (ir.ChainKindOf
	// the method) asks the model of execute_config.
	BuiltinChainModel Builtin = "chain model"
	// BuiltinSummarize: CodeMie's summarization of the history.
	BuiltinSummarize Builtin = "summarize"
	// BuiltinAssistant: the model of the CodeMie assistants that call it.
	BuiltinAssistant Builtin = "assistant"
	// BuiltinHTTP: Step Functions' HTTP task.
	BuiltinHTTP Builtin = "http"
	// BuiltinAgent: the model the Agent State Language tasks that call it
	// name.
	BuiltinAgent Builtin = "agent"
)

// HTTPInvoke is the Resource of Step Functions' HTTP task.
const HTTPInvoke = "arn:aws:states:::http:invoke"

// builtinPicker chooses the built-in of method m, which users call.
type builtinPicker func(w *ir.Workflow, m string, users []*ir.State) Builtin

// Callers are the states that call handler method m, nested ones too, in
// source order. They are found on first use: most generators never ask.
func (p *Plan) Callers(m string) []*ir.State {
	if p.callers == nil {
		p.callers = callers(p.Workflow)
	}
	return p.callers[m]
}

func callers(w *ir.Workflow) map[string][]*ir.State {
	out := map[string][]*ir.State{}
	for _, s := range ir.AllStates(w.States) {
		if s.Handler != nil && s.Handler.Name != "" {
			out[s.Handler.Name] = append(out[s.Handler.Name], s)
		}
		if s.ASL != nil && s.ASL.Debate != nil {
			for _, h := range s.ASL.Debate.Agents {
				out[h.Name] = append(out[h.Name], s)
			}
		}
	}
	return out
}

// withBuiltins gives p the built-in pick chooses for every method of its
// handlers interface that has one.
func withBuiltins(p *Plan, pick builtinPicker) *Plan {
	methods := make([]string, 0, len(p.More)+len(p.Handlers))
	for _, sv := range p.More {
		methods = append(methods, sv.Name)
	}
	for _, h := range p.Handlers {
		methods = append(methods, h.Name)
	}
	p.Builtins = map[string]Builtin{}
	for _, m := range methods {
		if b := pick(p.Workflow, m, p.Callers(m)); b != "" {
			p.Builtins[m] = b
		}
	}
	return p
}

// allUsers reports whether there are users and each is one that ok accepts.
func allUsers(users []*ir.State, ok func(*ir.State) bool) bool {
	return len(users) > 0 && !slices.ContainsFunc(users, func(s *ir.State) bool { return !ok(s) })
}

// chainModelKinds are the contenox handler kinds that ask a model.
var chainModelKinds = []ir.ChainHandlerKind{ir.ChainChatCompletion, ir.ChainRoute, ir.ChainConditionKey, ir.ChainPromptToString, ir.ChainPromptToInt}

func chainBuiltin(_ *ir.Workflow, m string, _ []*ir.State) Builtin {
	if slices.Contains(chainModelKinds, ir.ChainKindOf(m)) {
		return BuiltinChainModel
	}
	return ""
}

func jsonBuiltin(w *ir.Workflow, m string, users []*ir.State) Builtin {
	switch {
	case m == "Summarize" && w.CodeMie.Summarize:
		return BuiltinSummarize
	case allUsers(users, func(s *ir.State) bool { return s.CodeMie != nil && s.CodeMie.Assistant != "" }):
		return BuiltinAssistant
	}
	return ""
}

// aslBuiltin: an agent some task leaves without a model, or a debate
// calls, may be any code, and has no built-in.
func aslBuiltin(_ *ir.Workflow, _ string, users []*ir.State) Builtin {
	switch {
	case allUsers(users, func(s *ir.State) bool { return s.ASL.Type == ir.ASLTask && s.ASL.Resource == HTTPInvoke }):
		return BuiltinHTTP
	case allUsers(users, func(s *ir.State) bool {
		a := s.ASL.Agent
		return s.ASL.Type == ir.ASLTask && a != nil && a.Model != nil && a.Model.Preferred != ""
	}):
		return BuiltinAgent
	}
	return ""
}
