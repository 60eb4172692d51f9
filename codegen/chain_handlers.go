package codegen

import (
	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/ir"
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
	result := rtType("ChainResult")
	switch k {
	case ir.ChainChatCompletion:
		return chainKind{"LLMCall", result, "ChatHandler", "RespondChain"}
	case ir.ChainExecuteToolCalls:
		return chainKind{"ToolCallsCall", result, "ToolCallsHandler", "RespondChain"}
	case ir.ChainTools, ir.ChainHook:
		return chainKind{"ToolCall", result, "ToolsHandler", "RespondChain"}
	case ir.ChainRoute:
		return chainKind{"RouteCall", basicType("string"), "RouteHandler", "RespondText"}
	case ir.ChainConditionKey:
		return chainKind{"ConditionCall", basicType("bool"), "ConditionHandler", "RespondBool"}
	case ir.ChainPromptToString:
		return chainKind{"LLMCall", basicType("string"), "PromptStringHandler", "RespondText"}
	case ir.ChainPromptToInt:
		return chainKind{"LLMCall", basicType("int"), "PromptIntHandler", "RespondInt"}
	}
	return chainKind{"ChainCall", result, "", "RespondChain"}
}

// handlers lists the user handlers, each with the typed call of its
// documented kind; built-in handlers always run for real, so they have no
// method and no mock.
func (g *chainGen) handlers() []handler {
	builtin := func(h *ir.Handler) bool { return h.Builtin != ir.BuiltinNone }
	hs := callHandlers(g.w.States, builtin, "task", sig{}, "", "")
	for i := range hs {
		k := chainKinds(ir.ChainKindOf(hs[i].name))
		call := jen.Id("call")
		if k.call != "ChainCall" {
			call = call.Dot("ChainCall")
		}
		hs[i].sig = callSig(k.call, k.result)
		hs[i].mock = []jen.Code{jen.Return(jen.Id("m").Dot("mocks").Dot(k.respond).Call(call))}
		hs[i].sigText, hs[i].mockText = "", ""
	}
	return hs
}

// userHandler is the ChainHandler that runs task s's user handler.
func (g *chainGen) userHandler(s *ir.State) jen.Code {
	method := jen.Id("w").Dot("h").Dot(s.Handler.Name)
	if k := chainKinds(s.Chain.Kind); k.adapter != "" {
		return rt(k.adapter).Call(method)
	}
	return method
}
