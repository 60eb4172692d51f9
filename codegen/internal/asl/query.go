package asl

import (
	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/codegen/internal/emit"
	"github.com/flowc-dev/flowc/ir"
)

// querySpec renders what variables and JSONata add to a state's spec.
func (g *aslGen) querySpec(d *jen.Group, a *ir.ASLState) {
	if a.JSONata {
		d.Id("JSONata").Op(":").True()
	}
	g.optTemplate(d, "Assign", a.Assign)
	g.optTemplate(d, "JSONataArguments", a.Arguments)
	g.optTemplate(d, "JSONataOutput", a.Output)
	g.optTemplate(d, "TimeoutExpr", a.TimeoutExpr)
	var assigns, outputs []*ir.Template
	for _, r := range a.Rules {
		assigns, outputs = append(assigns, r.Assign), append(outputs, r.Output)
	}
	g.templates(d, "RuleAssign", assigns)
	g.templates(d, "RuleOutput", outputs)
}

// optTemplate renders a field holding a template, unless t is nil.
func (g *aslGen) optTemplate(d *jen.Group, name string, t *ir.Template) {
	if t != nil {
		d.Id(name).Op(":").Add(g.template(t))
	}
}

// templates renders a list of templates, nil where there is none, unless
// all are nil.
func (g *aslGen) templates(d *jen.Group, name string, ts []*ir.Template) {
	for _, t := range ts {
		if t == nil {
			continue
		}
		d.Id(name).Op(":").Index().Op("*").Add(al("Template")).CustomFunc(emit.Multiline, func(l *jen.Group) {
			for _, t := range ts {
				if t == nil {
					l.Nil()
				} else {
					l.Add(g.template(t))
				}
			}
		})
		return
	}
}

// at returns ts[i], or nil past its end.
func at(ts []*ir.Template, i int) *ir.Template {
	if i < len(ts) {
		return ts[i]
	}
	return nil
}

// jsonata renders a JSONata expression node; a simple path carries its
// steps so that the runtime follows it without an evaluator.
func jsonata(j *ir.JSONata) jen.Code {
	return al("TJSONata").Call(jen.Op("&").Add(al("JSONata")).CustomFunc(emit.Multiline, func(d *jen.Group) {
		d.Id("Src").Op(":").Lit(j.Source)
		if !j.Simple {
			return
		}
		d.Id("Simple").Op(":").True()
		d.Id("Root").Op(":").Lit(j.Root)
		if len(j.Fields) > 0 {
			d.Id("Fields").Op(":").Add(emit.StringSlice(j.Fields))
		}
	}))
}
