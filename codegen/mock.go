package codegen

import (
	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/ir"
)

// mock emits a Handlers implementation answered from an AWS-style mock
// config, the same one `flowc run --mock-config` uses.
func (g *typedGen) mock(f *jen.File) {
	n := g.n
	f.Line()
	f.Comment(n.Mock + " implements " + n.Handlers + " with canned responses, for tests and dry runs.")
	f.Comment("A mocked Return object is the update (keys are state fields); \"Action\" or \"Eval\" in it is the")
	f.Comment("action or eval string. A state with no mock returns an empty update.")
	if len(g.w.Regions) > 0 {
		f.Comment("Inside a fan-out the k-th invocation of a state counts the calls of every branch and item: which")
		f.Comment("item makes the k-th call depends on scheduling, except with max_concurrency 1, where items call")
		f.Comment("in list order.")
	}
	f.Type().Id(n.Mock).Struct(jen.Id("mocks").Op("*").Add(rt("Mocks")).Comment("unexported: handler methods are exported names"))
	f.Line()
	f.Comment("New" + n.Mock + "Handlers returns handlers that answer from mocks.")
	f.Func().Id("New" + n.Mock + "Handlers").Params(jen.Id("mocks").Op("*").Add(rt("Mocks"))).Id(n.Mock).Block(
		jen.Return(jen.Id(n.Mock).Values(jen.Id("mocks").Op(":").Id("mocks"))),
	)
	for _, h := range g.handlers() {
		f.Line()
		f.Comment(h.Name + " answers from the mock of the state that calls it.")
		f.Func().Params(jen.Id("m").Id(n.Mock)).Id(h.Name).Params(g.handlerParams(h)...).
			Params(g.handlerResults(h)...).BlockFunc(func(b *jen.Group) {
			g.mockBody(b, h)
		})
	}
	if g.hasApprovals() {
		f.Line()
		f.Comment("Approve answers an approval state from its mock: a Return is the decision, a JSON string or")
		f.Comment("{\"decision\": \"...\"}. A state without a mock leaves the decision to a person: the run waits.")
		f.Func().Params(jen.Id("m").Id(n.Mock)).Id("Approve").
			Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("req").Add(rt("ApprovalRequest"))).
			Params(jen.String(), jen.Error()).Block(
			jen.Return(jen.Id("m").Dot("mocks").Dot("RespondApproval").Call(jen.Id("ctx"), jen.Id("req"))),
		)
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

func (g *typedGen) mockBody(b *jen.Group, h *ir.Handler) {
	b.Var().Id("u").Id(g.n.Update)
	label, key := jen.Nil(), ""
	switch h.Kind {
	case ir.HandlerAction:
		label, key = jen.Op("&").Id("label"), "Action"
	case ir.HandlerEval:
		label, key = jen.Op("&").Id("label"), "Eval"
	}
	if key != "" {
		b.Var().Id("label").String()
	}
	b.Err().Op(":=").Id("m").Dot("mocks").Dot("Respond").Call(jen.Id("ctx"), jen.Op("&").Id("u"), label, jen.Lit(key))
	if key != "" {
		b.Return(jen.Id("u"), jen.Id("label"), jen.Err())
		return
	}
	b.Return(jen.Id("u"), jen.Err())
}
