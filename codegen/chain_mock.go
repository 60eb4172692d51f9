package codegen

import (
	"github.com/dave/jennifer/jen"
)

// mock emits a Handlers implementation answered from an AWS-style mock
// config, keyed by task id, the same one `flowc run --mock-config` uses.
// Built-in handlers always run for real, so they have no mock.
func (g *chainGen) mock(f *jen.File) {
	n := g.n
	f.Line()
	f.Comment(n.Mock + " implements " + n.Handlers + " with canned responses, for tests and dry runs.")
	f.Comment("A mocked Return is {\"Output\": <json>, \"Eval\": \"<string>\"}; without \"Eval\" the eval string is the")
	f.Comment("control token of a chat_completion, execute_tool_calls or tools task, else the output's text.")
	f.Comment("A task with no mock returns its input unchanged.")
	f.Type().Id(n.Mock).Struct(jen.Id("mocks").Op("*").Add(rt("Mocks")).Comment("unexported: handler methods are exported names"))
	f.Line()
	f.Comment("New" + n.Mock + "Handlers returns handlers that answer from mocks.")
	f.Func().Id("New" + n.Mock + "Handlers").Params(jen.Id("mocks").Op("*").Add(rt("Mocks"))).Id(n.Mock).Block(
		jen.Return(jen.Id(n.Mock).Values(jen.Dict{jen.Id("mocks"): jen.Id("mocks")})),
	)
	for _, h := range g.userHandlers() {
		f.Line()
		f.Comment(h.Name + " answers from the mock of the task that calls it.")
		f.Func().Params(jen.Id("m").Id(n.Mock)).Add(g.chainSignature(h)).Block(g.mockAnswer(h)) // chain_handlers.go
	}
	f.Line()
	f.Comment("New" + n.Mock + " returns a " + n.Workflow + " whose handlers answer from mocks.")
	f.Func().Id("New"+n.Mock).Params(jen.Id("mocks").Op("*").Add(rt("Mocks")), jen.Id("opts").Op("...").Add(rt("Option"))).
		Op("*").Id(n.Workflow).Block(
		jen.Return(jen.Id("New"+n.Workflow).Call(jen.Id("New"+n.Mock+"Handlers").Call(jen.Id("mocks")), jen.Id("opts").Op("..."))),
	)
}

// chainRunBody runs the chain of the `flowc run` program on its input, any
// JSON value, with mocked handlers.
func chainRunBody(b *jen.Group, n names, wfImport string) {
	b.List(jen.Id("in"), jen.Err()).Op(":=").Add(rt("DecodeChainInput")).Call(jen.Id("input"))
	b.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err()))
	b.Return(jen.Qual(wfImport, "New"+n.Mock).Call(jen.Id("mocks"), jen.Id("opts").Op("...")).Dot("Run").Call(jen.Id("ctx"), jen.Id("in")))
}
