package codegen

import (
	"github.com/dave/jennifer/jen"
)

// mock emits a Handlers implementation answered from an AWS-style mock
// config by state name, the one `flowc run --mock-config` uses.
func (g *aslGen) mock(f *jen.File) {
	n := g.n
	f.Line()
	f.Comment(n.Mock + " implements " + n.Handlers + " with canned responses, for tests and dry runs.")
	f.Comment("A mocked Return is the state's raw result, any JSON value; a Throw fails the state with")
	f.Comment("its Error and Cause. A state with no mock returns its effective input. An Approval's Return")
	f.Comment("is the decision.")
	f.Type().Id(n.Mock).Struct(jen.Id("mocks").Op("*").Add(rt("Mocks")).Comment("unexported: handler methods are exported names"))
	f.Line()
	f.Comment("OrderedValues makes the mock see objects as *flowcrt.Object, in their JSON order.")
	f.Func().Params(jen.Id(n.Mock)).Id("OrderedValues").Params().Block()
	f.Line()
	f.Comment("New" + n.Mock + "Handlers returns handlers that answer from mocks.")
	f.Func().Id("New" + n.Mock + "Handlers").Params(jen.Id("mocks").Op("*").Add(rt("Mocks"))).Id(n.Mock).Block(
		jen.Return(jen.Id(n.Mock).Values(jen.Dict{jen.Id("mocks"): jen.Id("mocks")})),
	)
	for _, h := range g.handlers {
		f.Line()
		f.Comment(h.h.Name + " answers from the mock of the state that calls it.")
		call := jen.Id("m").Dot("mocks").Dot("RespondASL").Call(jen.Id("ctx"), jen.Id("in"))
		if h.kind == approvalHandler {
			call = jen.Id("m").Dot("mocks").Dot("RespondApproval").Call(jen.Id("ctx"), jen.Id("req"))
		}
		f.Func().Params(jen.Id("m").Id(n.Mock)).Add(h.signature(jen.Id(h.h.Name))).Block(jen.Return(call))
	}
	f.Line()
	f.Comment("New" + n.Mock + " returns a " + n.Workflow + " whose handlers answer from mocks.")
	f.Func().Id("New"+n.Mock).Params(jen.Id("mocks").Op("*").Add(rt("Mocks")), jen.Id("opts").Op("...").Add(rt("Option"))).
		Op("*").Id(n.Workflow).Block(
		jen.Return(jen.Id("New"+n.Workflow).Call(
			jen.Id("New"+n.Mock+"Handlers").Call(jen.Id("mocks")),
			jen.Append(jen.Id("opts").Index(jen.Op(":").Len(jen.Id("opts")).Op(":").Len(jen.Id("opts"))), rt("WithStateContext").Call()).Op("..."),
		)),
	)
}

// aslRunBody runs the state machine of the `flowc run` program on its
// input, any JSON value, with mocked handlers.
func aslRunBody(b *jen.Group, n names, wfImport string) {
	b.List(jen.Id("in"), jen.Err()).Op(":=").Add(rt("DecodeASLInput")).Call(jen.Id("input"))
	b.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err()))
	b.Return(jen.Qual(wfImport, "New"+n.Mock).Call(jen.Id("mocks"), jen.Id("opts").Op("...")).Dot("Run").Call(jen.Id("ctx"), jen.Id("in")))
}
