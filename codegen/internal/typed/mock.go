package typed

import (
	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/codegen/internal/emit"
	"github.com/flowc-dev/flowc/ir"
	"github.com/flowc-dev/flowc/ir/plan"
)

// MockHelpers emits respond, which every mocked handler answers through:
// the mock config of the state is the update, and label receives its
// "Action" or "Eval" string.
func (g *typedGen) MockHelpers(f *jen.File) {
	f.Line()
	f.Comment("respond answers from the mock of the state in ctx; label receives the string under key.")
	f.Func().Params(jen.Id("m").Id(g.n.Mock)).Id("respond").
		Params(emit.CtxParam(), jen.Id("label").Op("*").String(), jen.Id("key").String()).
		Params(jen.Id(g.n.Update), jen.Error()).Block(
		jen.Var().Id("u").Id(g.n.Update),
		jen.Err().Op(":=").Id("m").Dot("mocks").Dot("Respond").Call(jen.Id("ctx"), jen.Op("&").Id("u"), jen.Id("label"), jen.Id("key")),
		jen.Return(jen.Id("u"), jen.Err()),
	)
}

// MockBody answers a handler through respond, and Approve (the method
// without a doc) through the approval mocks.
func (g *typedGen) MockBody(m plan.Handler) []jen.Code {
	if m.Doc == "" {
		return emit.AnswerFromMocks("RespondApproval", jen.Id("ctx"), jen.Id("req"))
	}
	key := ""
	switch g.handlerKind(m.Name) {
	case ir.HandlerAction:
		key = "Action"
	case ir.HandlerEval:
		key = "Eval"
	}
	if key == "" {
		return []jen.Code{jen.Return(jen.Id("m").Dot("respond").Call(jen.Id("ctx"), jen.Nil(), jen.Lit("")))}
	}
	return []jen.Code{
		jen.Var().Id("label").String(),
		jen.List(jen.Id("u"), jen.Err()).Op(":=").Id("m").Dot("respond").Call(jen.Id("ctx"), jen.Op("&").Id("label"), jen.Lit(key)),
		jen.Return(jen.Id("u"), jen.Id("label"), jen.Err()),
	}
}

// handlerKind is the kind of the handler name, from a table made on first
// use: a scan per mock method made large workflows quadratic.
func (g *typedGen) handlerKind(name string) ir.HandlerKind {
	if g.kinds == nil {
		g.kinds = map[string]ir.HandlerKind{}
		for _, s := range g.w.States {
			if s.Handler != nil {
				g.kinds[s.Handler.Name] = s.Handler.Kind
			}
		}
	}
	return g.kinds[name]
}
