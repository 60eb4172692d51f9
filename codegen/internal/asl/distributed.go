package asl

import (
	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/codegen/internal/emit"
	"github.com/flowc-dev/flowc/ir"
)

// distributedBody is the body of a DISTRIBUTED Map state.
func (g *aslGen) distributedBody(f *jen.File, s *ir.State) jen.Code {
	a := s.ASL
	return jen.Id("x").Dot("DistributedMap").Call(jen.Lit(s.ID),
		jen.Op("&").Id(g.packageVar(f, s, "Items", g.mapSpec(a))),
		jen.Op("&").Id(g.packageVar(f, s, "Distributed", g.distributedSpec(a.Distributed))),
		jen.Id("w").Dot(g.machineMethod(s, 0)))
}

func (g *aslGen) distributedSpec(d *ir.Distributed) jen.Code {
	return al("DistributedSpec").CustomFunc(emit.Multiline, func(c *jen.Group) {
		if r := d.Reader; r != nil {
			c.Id("Reader").Op(":").Op("&").Add(al("ItemReaderSpec")).CustomFunc(emit.Multiline, func(rc *jen.Group) {
				rc.Id("Resource").Op(":").Lit(r.Resource)
				g.optTemplate(rc, "Parameters", r.Parameters)
				optLit(rc, "Format", r.Format)
				if r.CSVHeaders != nil {
					rc.Id("CSVHeaders").Op(":").Add(emit.StringSlice(r.CSVHeaders))
				}
				optLit(rc, "CSVDelimiter", r.CSVDelimiter)
				optLit(rc, "MaxItems", r.MaxItems)
				g.optPathField(rc, "MaxItemsPath", r.MaxItemsPath)
			})
		}
		if w := d.Writer; w != nil {
			c.Id("Writer").Op(":").Op("&").Add(al("ResultWriterSpec")).CustomFunc(emit.Multiline, func(wc *jen.Group) {
				optLit(wc, "Resource", w.Resource)
				g.optTemplate(wc, "Parameters", w.Parameters)
				optLit(wc, "OutputType", w.OutputType)
				optLit(wc, "Transformation", w.Transformation)
			})
		}
		optLit(c, "Label", d.Label)
		if d.Batched {
			c.Id("Batched").Op(":").True()
		}
		optLit(c, "BatchItems", d.BatchItems)
		g.optPathField(c, "BatchItemsPath", d.BatchItemsPath)
		optLit(c, "BatchBytes", d.BatchBytes)
		g.optPathField(c, "BatchBytesPath", d.BatchBytesPath)
		g.optTemplate(c, "BatchInput", d.BatchInput)
		if d.HasPercent {
			c.Id("TolerantPercent").Op(":").Lit(d.TolerantPercent)
			c.Id("HasPercent").Op(":").True()
		}
		g.optPathField(c, "TolerantPctPath", d.TolerantPctPath)
		if d.HasCount {
			c.Id("TolerantCount").Op(":").Lit(d.TolerantCount)
			c.Id("HasCount").Op(":").True()
		}
		g.optPathField(c, "TolerantCntPath", d.TolerantCntPath)
	})
}

// optLit renders `name: v` unless v is its zero value.
func optLit[T comparable](d *jen.Group, name string, v T) {
	var zero T
	if v != zero {
		d.Id(name).Op(":").Lit(v)
	}
}

func (g *aslGen) optPathField(d *jen.Group, name string, p *ir.Path) {
	if p != nil {
		d.Id(name).Op(":").Add(g.path(p))
	}
}
