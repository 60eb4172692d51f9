package chain

import (
	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/codegen/internal/emit"
	"github.com/flowc-dev/flowc/ir"
	"github.com/flowc-dev/flowc/ir/plan"
)

// chainKind is what the Go of a documented handler's kind calls: the
// runtime adapter that makes its method a flowcrt.ChainHandler ("" for a
// ChainHandler itself), and the Mocks method that answers for it.
type chainKind struct {
	adapter string
	respond string
}

func chainKinds(k ir.ChainHandlerKind) chainKind {
	switch k {
	case ir.ChainChatCompletion:
		return chainKind{"ChatHandler", "RespondChain"}
	case ir.ChainExecuteToolCalls:
		return chainKind{"ToolCallsHandler", "RespondChain"}
	case ir.ChainTools, ir.ChainHook:
		return chainKind{"ToolsHandler", "RespondChain"}
	case ir.ChainRoute:
		return chainKind{"RouteHandler", "RespondText"}
	case ir.ChainConditionKey:
		return chainKind{"ConditionHandler", "RespondBool"}
	case ir.ChainPromptToString:
		return chainKind{"PromptStringHandler", "RespondText"}
	case ir.ChainPromptToInt:
		return chainKind{"PromptIntHandler", "RespondInt"}
	}
	return chainKind{"", "RespondChain"}
}

// MockBody answers a handler with the Mocks method of its kind, from the
// chain call its typed call holds.
func (g *chainGen) MockBody(h plan.Handler) []jen.Code {
	k := chainKinds(ir.ChainKindOf(h.Name))
	call := jen.Id("call")
	if h.Sig.Params[0].Typ.Name != "ChainCall" { // the typed call holds it
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
