package program

import (
	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/codegen/internal/emit"
	"github.com/flowc-dev/flowc/ir"
)

// agentBuiltin is the built-in of an Agent State Language agent when every
// state that calls it is an agent task naming its model; an agent some
// task leaves without a model, or a debate calls, may be any code and
// comes from --handlers.
func agentBuiltin(users []*ir.State) *builtinMethod {
	named := func(s *ir.State) bool {
		a := s.ASL.Agent
		return s.ASL.Type == ir.ASLTask && a != nil && a.Model != nil && a.Model.Preferred != ""
	}
	if !allUsers(users, named) {
		return nil
	}
	return &builtinMethod{
		doc:     "asks the model its agent tasks name",
		params:  []jen.Code{jen.Id("in").Any(), jen.Id("agent").Add(emit.Rt("Agent"))},
		results: []jen.Code{jen.Any(), jen.Error()},
		call:    jen.Id("h").Dot("env").Dot("LLM").Dot("Agent").Call(jen.Id("ctx"), jen.Id("in"), jen.Id("agent")),
	}
}
