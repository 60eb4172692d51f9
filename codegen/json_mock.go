package codegen

import (
	"github.com/dave/jennifer/jen"
)

// answersInOrder is the method of flowcrt.InOrderHandlers, which no
// handler may be named (the checker rejects it).
const answersInOrder = "AnswersInOrder"

// mock emits a Handlers implementation answered from an AWS-style mock
// config by state id, the one `flowc run --mock-config` uses.
func (g *jsonGen) mock(f *jen.File) {
	n := g.n
	f.Line()
	f.Comment(n.Mock + " implements " + n.Handlers + " with canned responses, for tests and dry runs.")
	f.Comment("A mocked Return is the output text: a JSON string is the text itself, any other value its JSON")
	f.Comment("encoding. A Throw fails the state with its Error and Cause. A state with no mock returns its")
	f.Comment("rendered task.")
	f.Type().Id(n.Mock).Struct(jen.Id("mocks").Op("*").Add(rt("Mocks")).Comment("unexported: handler methods are exported names"))
	f.Line()
	f.Comment("AnswersInOrder makes fan-outs run one branch or item at a time, in order, so that the k-th")
	f.Comment("mocked answer of a state goes to a known branch or item.")
	f.Func().Params(jen.Id(n.Mock)).Id(answersInOrder).Params().Block()
	f.Line()
	f.Comment("New" + n.Mock + "Handlers returns handlers that answer from mocks.")
	f.Func().Id("New" + n.Mock + "Handlers").Params(jen.Id("mocks").Op("*").Add(rt("Mocks"))).Id(n.Mock).Block(
		jen.Return(jen.Id(n.Mock).Values(jen.Dict{jen.Id("mocks"): jen.Id("mocks")})),
	)
	for _, h := range g.handlers() {
		f.Line()
		f.Comment(h.Name + " answers from the mock of the state that calls it.")
		f.Func().Params(jen.Id("m").Id(n.Mock)).Add(jsonHandlerSignature(jen.Id(h.Name))).Block(
			jen.Return(jen.Id("m").Dot("mocks").Dot("RespondJSON").Call(jen.Id("call"))),
		)
	}
	f.Line()
	f.Comment("New" + n.Mock + " returns a " + n.Workflow + " whose handlers answer from mocks.")
	f.Func().Id("New"+n.Mock).Params(jen.Id("mocks").Op("*").Add(rt("Mocks")), jen.Id("opts").Op("...").Add(rt("Option"))).
		Op("*").Id(n.Workflow).Block(
		jen.Return(jen.Id("New"+n.Workflow).Call(jen.Id("New"+n.Mock+"Handlers").Call(jen.Id("mocks")), jen.Id("opts").Op("..."))),
	)
}
