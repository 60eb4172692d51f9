package typed

import (
	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/codegen/internal/emit"
	"github.com/flowc-dev/flowc/ir"
)

// mockHelpers emits respond, which every mocked handler answers through:
// the mock config of the state is the update, and label receives its
// "Action" or "Eval" string.
func (g *typedGen) mockHelpers(f *jen.File) {
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

// mockBody answers a handler through respond.
func (g *typedGen) mockBody(h *ir.Handler) []jen.Code {
	key := ""
	switch h.Kind {
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
