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
	result  jen.Code
	adapter string // "" for a ChainHandler itself
	respond string
}

func chainKinds(k ir.ChainHandlerKind) chainKind {
	result := rt("ChainResult")
	switch k {
	case ir.ChainChatCompletion:
		return chainKind{"LLMCall", result, "ChatHandler", "RespondChain"}
	case ir.ChainExecuteToolCalls:
		return chainKind{"ToolCallsCall", result, "ToolCallsHandler", "RespondChain"}
	case ir.ChainTools, ir.ChainHook:
		return chainKind{"ToolCall", result, "ToolsHandler", "RespondChain"}
	case ir.ChainRoute:
		return chainKind{"RouteCall", jen.String(), "RouteHandler", "RespondText"}
	case ir.ChainConditionKey:
		return chainKind{"ConditionCall", jen.Bool(), "ConditionHandler", "RespondBool"}
	case ir.ChainPromptToString:
		return chainKind{"LLMCall", jen.String(), "PromptStringHandler", "RespondText"}
	case ir.ChainPromptToInt:
		return chainKind{"LLMCall", jen.Int(), "PromptIntHandler", "RespondInt"}
	}
	return chainKind{"ChainCall", result, "", "RespondChain"}
}

// chainSignature is the parameters and results of handler h's method.
func (g *chainGen) chainSignature(h *ir.Handler) *jen.Statement {
	k := chainKinds(ir.ChainKindOf(h.Name))
	return jen.Id(h.Name).Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("call").Add(rt(k.call))).
		Params(k.result, jen.Error())
}

// mockAnswer is the body of the mock method of handler h.
func (g *chainGen) mockAnswer(h *ir.Handler) jen.Code {
	k := chainKinds(ir.ChainKindOf(h.Name))
	call := jen.Id("call")
	if k.call != "ChainCall" {
		call = call.Dot("ChainCall")
	}
	return jen.Return(jen.Id("m").Dot("mocks").Dot(k.respond).Call(call))
}

// userHandler is the ChainHandler that runs task s's user handler.
func (g *chainGen) userHandler(s *ir.State) jen.Code {
	method := jen.Id("w").Dot("h").Dot(s.Handler.Name)
	if k := chainKinds(s.Chain.Kind); k.adapter != "" {
		return rt(k.adapter).Call(method)
	}
	return method
}
