package typed

import (
	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/codegen/internal/emit"
	"github.com/flowc-dev/flowc/ir"
	"github.com/flowc-dev/flowc/ir/plan"
)

// Sessions, checkpoints and approval states in typed mode. The run loop
// saves a checkpoint through a *flowcrt.Session after every state, when it
// has one: Run has none, and Invoke, Resume and Decide open one through
// flowcrt.Sessions, which loads the last checkpoint and calls runAt to go
// on from the state it names.

// takesSession: the steps that wait for a decision or open a fan-out need
// the session, to read the decision or save the fan-out's progress.
func takesSession(s *ir.State) bool {
	return s.Kind == ir.StateApproval || s.Next.Region != nil
}

// SessionHooks: an input is an update, merged through the reducers.
func (g *typedGen) SessionHooks() []jen.Code {
	return []jen.Code{jen.Id("Merge").Op(":").Func().Params(jen.Id("s").Op("*").Id(g.n.State), jen.Id("u").Id(g.n.Update)).Block(
		jen.Id("s").Dot("apply").Call(jen.Op("&").Id("u")),
	)}
}

// RunAt runs the loop on the session's state.
func (g *typedGen) RunAt() []jen.Code {
	return []jen.Code{jen.Return(jen.Id("w").Dot("run").Call(jen.Id("ctx"), jen.Id("sess"), jen.Id("s"), jen.Id("step")))}
}

// Invoke emits the schema hash, Invoke and InvokeUpdate, and asUpdate.
func (g *typedGen) Invoke(f *jen.File) {
	n, start := g.n, emit.Quote(g.w.Start.ID)
	state := jen.Id(n.State)
	f.Line()
	f.Comment(g.p.Sessions.SchemaConst + " identifies the shape of " + n.State + ": a checkpoint saved with another shape is refused.")
	f.Const().Id(g.p.Sessions.SchemaConst).Op("=").Lit(g.p.Sessions.Schema)
	f.Line()
	emit.Doc(f, "Invoke runs the workflow as session sessionID, saving a checkpoint after every state through the "+
		"checkpointer of flowcrt.WithCheckpointer. Every field of in, zero values included, is merged through the "+
		"reducers into the session's state: the zero state for a new session, which starts at "+start+"; the last "+
		"checkpoint's for an existing one, which goes on from there, or starts again at "+start+" when its last "+
		"run finished. A nil in leaves the state unchanged.")
	f.Func().Params(jen.Id("w").Op("*").Id(n.Workflow)).Id("Invoke").
		Params(emit.CtxParam(), jen.Id("sessionID").String(), jen.Id("in").Op("*").Add(state.Clone())).
		Params(state.Clone(), jen.Error()).Block(
		jen.Var().Id("u").Id(n.Update),
		jen.If(jen.Id("in").Op("!=").Nil()).Block(jen.Id("u").Op("=").Id("in").Dot("asUpdate").Call()),
		jen.Return(jen.Id("w").Dot("InvokeUpdate").Call(jen.Id("ctx"), jen.Id("sessionID"), jen.Id("u"))),
	)
	f.Line()
	emit.Doc(f, "InvokeUpdate is Invoke with an update: only the fields u sets are merged, so that a session "+
		"keeps the values of the others (`flowc run --session` merges its input so).")
	emit.SessionMethod(f, n.Workflow, plan.SessionOut{Typ: plan.OwnType(n.State)}, "InvokeUpdate", "Invoke", []jen.Code{jen.Id("u").Id(n.Update)}, []jen.Code{jen.Op("&").Id("u")})
	if g.p.StopsInFanOuts() {
		emit.DecideAt(f, n.Workflow, plan.SessionOut{Typ: plan.OwnType(n.State)})
	}
	g.asUpdate(f)
}

func (g *typedGen) asUpdate(f *jen.File) {
	f.Line()
	f.Comment("asUpdate returns the update that sets every field to its value in s.")
	f.Func().Params(jen.Id("s").Op("*").Id(g.n.State)).Id("asUpdate").Params().Id(g.n.Update).BlockFunc(func(b *jen.Group) {
		b.Id("u").Op(":=").Id(g.n.Update).Values(jen.Id("v").Op(":").Op("*").Id("s"))
		for _, c := range setAll("u", len(g.w.Fields)) {
			b.Add(c)
		}
		b.Return(jen.Id("u"))
	})
}

func (g *typedGen) approvalVar(s *ir.State) string { return g.n.Prefix + s.GoName + "Approval" }

// approvalStep emits the request of an approval state and the step that
// asks for the decision and routes on it.
func (g *typedGen) approvalStep(f *jen.File, s *ir.State) {
	ap := s.Approval
	f.Line()
	f.Var().Id(g.approvalVar(s)).Op("=").Add(emit.Flowcrt("ApprovalRequest")).CustomFunc(emit.Multiline, func(d *jen.Group) {
		d.Id("State").Op(":").Lit(s.ID)
		d.Id("Prompt").Op(":").Lit(ap.Prompt)
		d.Id("Options").Op(":").Add(emit.StringSlice(ap.Options))
		if ap.Timeout > 0 {
			d.Id("Timeout").Op(":").Add(emit.Duration(ap.Timeout))
		}
	})
	f.Line()
	emit.Doc(f, emit.StepMethod(s)+" asks for a decision at approval state "+emit.Quote(s.ID)+" and returns the state to run next. "+
		"Without one the run waits: the error is an *flowcrt.Interrupted.")
	decision := "_"
	if g.usesDecision(s.Next) {
		decision = "decision"
	}
	f.Func().Params(jen.Id("w").Op("*").Id(g.n.Workflow)).Id(emit.StepMethod(s)).Params(g.stepParams(s)...).
		Params(jen.Id(g.n.Step), jen.Error()).BlockFunc(func(b *jen.Group) {
		b.List(jen.Id(decision), jen.Err()).Op(":=").Add(emit.Flowcimpl("Approve")).Call(
			jen.Id("ctx"), jen.Id("sess"), jen.Id("w").Dot("h"), jen.Op("&").Id(g.approvalVar(s)), jen.Op("*").Id("s"))
		b.If(emit.Flowcrt("IsInterrupted").Call(jen.Err())).Block(
			jen.Return(jen.Id(g.n.EndConst()), jen.Err()).Comment("the run waits here for a decision"),
		)
		g.onError(b, s)
		g.transition(b, s)
	})
}

// usesDecision reports whether a transition's expressions read `decision`.
func (g *typedGen) usesDecision(t *ir.Transition) bool {
	var reads func(e *ir.Expr) bool
	reads = func(e *ir.Expr) bool {
		if e == nil {
			return false
		}
		if e.Kind == ir.ExprVar && e.Name == "decision" {
			return true
		}
		for _, a := range e.Args {
			if reads(a) {
				return true
			}
		}
		return false
	}
	if reads(g.c.Cond(t.Cond)) {
		return true
	}
	for _, c := range t.Cases {
		if reads(g.c.Cond(c.Cond)) {
			return true
		}
	}
	return false
}

// marshalUpdate lets a checkpoint save the updates a fan-out has recorded
// so far, in the form UnmarshalJSON reads back.
func (g *typedGen) marshalUpdate(f *jen.File) {
	f.Line()
	f.Comment("MarshalJSON writes the set fields of u as a JSON object keyed by state field names.")
	f.Func().Params(jen.Id("u").Id(g.n.Update)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).BlockFunc(func(b *jen.Group) {
		b.Id("fields").Op(":=").Map(jen.String()).Any().Values()
		for i, fd := range g.w.Fields {
			b.If(isSet("u", i, len(g.w.Fields))).Block(
				jen.Id("fields").Index(jen.Lit(fd.Name)).Op("=").Id("u").Dot("v").Dot(fd.GoName),
			)
		}
		b.Return(jen.Qual("encoding/json", "Marshal").Call(jen.Id("fields")))
	})
}
