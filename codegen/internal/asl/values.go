package asl

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/codegen/internal/emit"
	"github.com/flowc-dev/flowc/ir"
)

func itoa(i int) string { return strconv.Itoa(i) }

// path renders a compiled path as a *flowcasl.JSONPath literal.
func (g *aslGen) path(p *ir.Path) *jen.Statement { return pathLiteral(p) }

func pathLiteral(p *ir.Path) *jen.Statement {
	return jen.Op("&").Add(al("JSONPath")).CustomFunc(emit.Multiline, func(d *jen.Group) {
		d.Id("Src").Op(":").Lit(p.Source)
		if p.Context {
			d.Id("Context").Op(":").True()
		}
		if len(p.Segments) > 0 {
			d.Id("Segs").Op(":").Add(segments(p.Segments))
		}
		if p.Var != "" {
			d.Id("Var").Op(":").Lit(p.Var)
		}
	})
}

// segments renders the steps of a reference path.
func segments(segs []ir.Segment) *jen.Statement {
	return jen.Index().Add(al("PathSeg")).ValuesFunc(func(v *jen.Group) {
		for _, s := range segs {
			if s.Kind == ir.SegIndex {
				v.Add(al("Index").Call(jen.Lit(s.Index)))
			} else {
				v.Add(al("Field").Call(jen.Lit(s.Name)))
			}
		}
	})
}

// value renders a JSON scalar: nil, bool, float64 or string.
func value(v any) jen.Code {
	if v == nil {
		return jen.Nil()
	}
	return jen.Lit(v)
}

// static reports whether a template has no path or intrinsic call.
func static(t *ir.Template) bool {
	switch t.Kind {
	case ir.TmplObject:
		for _, f := range t.Fields {
			if !static(f.Value) {
				return false
			}
		}
		return true
	case ir.TmplArray:
		for _, item := range t.Items {
			if !static(item) {
				return false
			}
		}
		return true
	}
	return t.Kind == ir.TmplValue
}

// template renders a *flowcrt.Template; a static subtree becomes one
// literal value built once.
func (g *aslGen) template(t *ir.Template) *jen.Statement {
	if static(t) {
		return al("TValue").Call(jsonLiteral(t))
	}
	switch t.Kind {
	case ir.TmplObject:
		return al("TObject").CustomFunc(callMultiline, func(c *jen.Group) {
			for _, f := range t.Fields {
				c.Add(al("TField").Call(jen.Lit(f.Key), g.template(f.Value)))
			}
		})
	case ir.TmplArray:
		return al("TArray").CustomFunc(callMultiline, func(c *jen.Group) {
			for _, item := range t.Items {
				c.Add(g.template(item))
			}
		})
	case ir.TmplPath:
		return al("TPath").Call(g.path(t.Path))
	case ir.TmplJSONata:
		return jen.Add(jsonata(t.JSONata))
	}
	return al("TCall").Call(g.intrinsic(t.Call))
}

// callMultiline renders call arguments one per line.
var callMultiline = jen.Options{Open: "(", Close: ")", Separator: ",", Multi: true}

// jsonLiteral renders a static template as a JSON value.
func jsonLiteral(t *ir.Template) jen.Code {
	switch t.Kind {
	case ir.TmplObject:
		if len(t.Fields) == 0 {
			return al("Obj").Call()
		}
		return al("Obj").CustomFunc(callMultiline, func(c *jen.Group) {
			for _, f := range t.Fields {
				c.Lit(f.Key).Op(",").Add(jsonLiteral(f.Value))
			}
		})
	case ir.TmplArray:
		return jen.Index().Any().ValuesFunc(func(v *jen.Group) {
			for _, item := range t.Items {
				v.Add(jsonLiteral(item))
			}
		})
	}
	return value(t.Value)
}

// plainValue renders a JSON value of the IR (maps, slices, scalars) as a
// Go literal with sorted keys, for the agent fields handed to handlers.
func plainValue(v any) jen.Code {
	switch v := v.(type) {
	case map[string]any:
		return jen.Map(jen.String()).Any().CustomFunc(emit.Multiline, func(d *jen.Group) {
			for _, k := range slices.Sorted(maps.Keys(v)) {
				d.Lit(k).Op(":").Add(plainValue(v[k]))
			}
		})
	case []any:
		return jen.Index().Any().ValuesFunc(func(d *jen.Group) {
			for _, item := range v {
				d.Add(plainValue(item))
			}
		})
	}
	return value(v)
}

// intrinsic renders a *flowcrt.Intrinsic. A literal States.Format
// template is cut at its placeholders here, escapes resolved.
func (g *aslGen) intrinsic(c *ir.Intrinsic) *jen.Statement {
	fn := al(strings.ReplaceAll(c.Name, ".", ""))
	if first := firstArg(c); c.Name == "States.Format" && first != nil && first.Pieces != nil {
		fn = al("FormatPieces").CallFunc(func(p *jen.Group) {
			for _, piece := range first.Pieces {
				p.Lit(piece)
			}
		})
	}
	return jen.Op("&").Add(al("Intrinsic")).CustomFunc(emit.Multiline, func(d *jen.Group) {
		d.Id("Name").Op(":").Lit(c.Name)
		key, fnc := g.intrinsicFn(c, fn)
		d.Id(key).Op(":").Add(fnc)
		if len(c.Args) == 0 {
			return
		}
		d.Id("Args").Op(":").Index().Add(al("IntrinsicArg")).CustomFunc(emit.Multiline, func(as *jen.Group) {
			for _, a := range c.Args {
				as.Add(g.intrinsicArg(a))
			}
		})
	})
}

func firstArg(c *ir.Intrinsic) *ir.IntrinsicArg {
	if len(c.Args) == 0 {
		return nil
	}
	return c.Args[0]
}

func (g *aslGen) intrinsicArg(a *ir.IntrinsicArg) jen.Code {
	switch {
	case a.Path != nil:
		return jen.Values(jen.Id("Path").Op(":").Add(g.path(a.Path)))
	case a.Call != nil:
		return jen.Values(jen.Id("Call").Op(":").Add(g.intrinsic(a.Call)))
	case a.Value == nil:
		return jen.Values()
	}
	return jen.Values(jen.Id("Value").Op(":").Add(value(a.Value)))
}

// failField renders the Error or Cause of a Fail state as a template: a
// literal, a path, an intrinsic call or a JSONata expression, or nil when
// it has none.
func (g *aslGen) failField(lit string, p *ir.Path, c *ir.Intrinsic, expr *ir.Template) jen.Code {
	switch {
	case expr != nil:
		return g.template(expr)
	case p != nil:
		return al("TPath").Call(g.path(p))
	case c != nil:
		return al("TCall").Call(g.intrinsic(c))
	case lit != "":
		return al("TValue").Call(jen.Lit(lit))
	}
	return jen.Nil()
}
