package chain

import (
	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/codegen/internal/emit"
	"github.com/flowc-dev/flowc/ir"
	"github.com/flowc-dev/flowc/ir/plan"
)

// chainKind is how a documented handler's method looks: its call type,
// its results, the runtime adapter that makes it a flowcrt.ChainHandler,
// and the Mocks method that answers for it.
type chainKind struct {
	call    string // flowcrt type of the call parameter
	result  *ir.Type
	adapter string // "" for a ChainHandler itself
	respond string
}

func chainKinds(k ir.ChainHandlerKind) chainKind {
	result := plan.RtType("ChainResult")
	switch k {
	case ir.ChainChatCompletion:
		return chainKind{"LLMCall", result, "ChatHandler", "RespondChain"}
	case ir.ChainExecuteToolCalls:
		return chainKind{"ToolCallsCall", result, "ToolCallsHandler", "RespondChain"}
	case ir.ChainTools, ir.ChainHook:
		return chainKind{"ToolCall", result, "ToolsHandler", "RespondChain"}
	case ir.ChainRoute:
		return chainKind{"RouteCall", plan.BasicType("string"), "RouteHandler", "RespondText"}
	case ir.ChainConditionKey:
		return chainKind{"ConditionCall", plan.BasicType("bool"), "ConditionHandler", "RespondBool"}
	case ir.ChainPromptToString:
		return chainKind{"LLMCall", plan.BasicType("string"), "PromptStringHandler", "RespondText"}
	case ir.ChainPromptToInt:
		return chainKind{"LLMCall", plan.BasicType("int"), "PromptIntHandler", "RespondInt"}
	}
	return chainKind{"ChainCall", result, "", "RespondChain"}
}

// handlers lists the user handlers, each with the typed call of its
// documented kind; built-in handlers always run for real, so they have no
// method and no mock.
func (g *chainGen) handlers() []plan.Handler {
	builtin := func(h *ir.Handler) bool { return h.Builtin != ir.BuiltinNone }
	hs := plan.CallHandlers(g.w.States, builtin, "task", plan.Sig{}, "", "")
	for i := range hs {
		kind := ir.ChainKindOf(hs[i].Name)
		k := chainKinds(kind)
		hs[i].Sig = plan.CallSig(k.call, k.result)
		hs[i].SigText, hs[i].MockText = "", ""
		hs[i].Kind = plan.KindNames[kind]
	}
	return hs
}

// MockBody answers a handler with the Mocks method of its kind, from the
// chain call its typed call holds.
func (g *chainGen) MockBody(h plan.Handler) []jen.Code {
	k := chainKinds(ir.ChainKindOf(h.Name))
	call := jen.Id("call")
	if k.call != "ChainCall" {
		call = call.Dot("ChainCall")
	}
	return emit.AnswerFromMocks(k.respond, call)
}

// MockHelpers: the mock bodies share nothing.
func (g *chainGen) MockHelpers(*jen.File) {}

// userHandler is the ChainHandler that runs task s's user handler.
func (g *chainGen) userHandler(s *ir.State) jen.Code {
	method := jen.Id("w").Dot("h").Dot(s.Handler.Name)
	if k := chainKinds(s.Chain.Kind); k.adapter != "" {
		return ch(k.adapter).Call(method)
	}
	return method
}
