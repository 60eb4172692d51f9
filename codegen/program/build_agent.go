package program

import (
	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/codegen/internal/emit"
)

// agentBuiltin asks the model that the Agent State Language tasks calling
// the method name (plan.BuiltinAgent).
func agentBuiltin() *builtinMethod {
	return &builtinMethod{
		doc:     "asks the model its agent tasks name",
		params:  []jen.Code{jen.Id("in").Any(), jen.Id("agent").Add(emit.Flowcrt("Agent"))},
		results: []jen.Code{jen.Any(), jen.Error()},
		call:    jen.Id("h").Dot("env").Dot("LLM").Dot("Agent").Call(jen.Id("ctx"), jen.Id("in"), jen.Id("agent")),
	}
}
