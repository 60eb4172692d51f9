package codegen

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/ir"
)

// Sessions, checkpoints and approval states in typed mode. The run loop
// saves a checkpoint through a *flowcrt.Session after every state, when it
// has one: Run has none, and Invoke, Resume and Decide open one through
// flowcrt.Sessions, which loads the last checkpoint and calls runAt to go
// on from the state it names.

// checkpointGenVersion is the generator version of code with sessions,
// which needs the runtime's Session and friends.
const checkpointGenVersion = 6

// takesSession: the steps that wait for a decision or open a fan-out need
// the session, to read the decision or save the fan-out's progress.
func takesSession(s *ir.State) bool {
	return s.Kind == ir.StateApproval || s.Next.Region != nil
}

func (g *typedGen) hasApprovals() bool {
	for _, s := range g.w.States {
		if s.Kind == ir.StateApproval {
			return true
		}
	}
	return false
}

func (g *typedGen) schemaConst() string { return g.n.prefix + "Schema" }

// schemaHash identifies the shape of the state: field names and types, in
// order. Reducers are left out, as they do not change what a saved state
// decodes to. The contents of named types are not seen; decoding a saved
// state refuses unknown fields, so a renamed field inside one still fails
// loudly.
func schemaHash(w *ir.Workflow) string {
	var b strings.Builder
	b.WriteString("flowc state schema 1\n")
	for _, f := range w.Fields {
		b.WriteString(f.Name + " " + typeSpelling(f.Type) + "\n")
	}
	sum := sha256.Sum256([]byte(b.String()))
	return "sha256:" + hex.EncodeToString(sum[:8])
}

func typeSpelling(t *ir.Type) string {
	switch t.Kind {
	case ir.TypeSlice:
		return "[]" + typeSpelling(t.Elem)
	case ir.TypeMap:
		return "map[" + typeSpelling(t.Key) + "]" + typeSpelling(t.Elem)
	case ir.TypePointer:
		return "*" + typeSpelling(t.Elem)
	case ir.TypeMessages:
		return "messages"
	}
	if t.Pkg != "" {
		return t.Pkg + "." + t.Name
	}
	return t.Name
}

// sessions emits the schema hash, Invoke, Resume (and Decide when a state
// asks for approval), and what they run on: runAt and merge.
func (g *typedGen) sessions(f *jen.File) {
	n, start := g.n, quote(g.w.Start.ID)
	state := jen.Id(n.State)
	f.Line()
	f.Comment(g.schemaConst() + " identifies the shape of " + n.State + ": a checkpoint saved with another shape is refused.")
	f.Const().Id(g.schemaConst()).Op("=").Lit(schemaHash(g.w))
	f.Line()
	doc(f, "Invoke runs the workflow as session sessionID, saving a checkpoint after every state through the "+
		"checkpointer of flowcrt.WithCheckpointer. Every field of in, zero values included, is merged through the "+
		"reducers into the session's state: the zero state for a new session, which starts at "+start+"; the last "+
		"checkpoint's for an existing one, which goes on from there, or starts again at "+start+" when its last "+
		"run finished. A nil in leaves the state unchanged.")
	f.Func().Params(jen.Id("w").Op("*").Id(n.Workflow)).Id("Invoke").
		Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("sessionID").String(), jen.Id("in").Op("*").Add(state.Clone())).
		Params(state.Clone(), jen.Error()).Block(
		jen.Var().Id("u").Id(n.Update),
		jen.If(jen.Id("in").Op("!=").Nil()).Block(jen.Id("u").Op("=").Id("in").Dot("asUpdate").Call()),
		jen.Return(jen.Id("w").Dot("InvokeUpdate").Call(jen.Id("ctx"), jen.Id("sessionID"), jen.Id("u"))),
	)
	f.Line()
	doc(f, "InvokeUpdate is Invoke with an update: only the fields u sets are merged, so that a session "+
		"keeps the values of the others (`flowc run --session` merges its input so).")
	g.sessionMethod(f, "InvokeUpdate", "Invoke", []jen.Code{jen.Id("u").Id(n.Update)}, jen.Op("&").Id("u"))
	f.Line()
	doc(f, "Resume continues session sessionID from its last checkpoint, without running again the states "+
		"that completed; a session whose last run finished returns its final state.")
	g.sessionMethod(f, "Resume", "Resume", nil)
	f.Line()
	doc(f, "Decide answers the approval that session sessionID waits for with decision, one of the "+
		"state's options, and continues the run.")
	g.sessionMethod(f, "Decide", "Decide", []jen.Code{jen.Id("decision").String()}, jen.Id("decision"))
	f.Line()
	f.Comment("sessions describes the workflow to the runtime's session functions.")
	types := []jen.Code{state.Clone(), jen.Id(n.Update)}
	f.Func().Params(jen.Id("w").Op("*").Id(n.Workflow)).Id("sessions").Params().Op("*").Add(rt("Sessions")).Types(types...).Block(
		jen.Return(jen.Op("&").Add(rt("Sessions")).Types(types...).Custom(multiline,
			jen.Id("Workflow").Op(":").Lit(g.w.ID),
			jen.Id("Schema").Op(":").Id(g.schemaConst()),
			jen.Id("Start").Op(":").Lit(g.w.Start.ID),
			jen.Id("Merge").Op(":").Parens(jen.Op("*").Id(n.State)).Dot("apply"),
			jen.Id("Run").Op(":").Id("w").Dot("runAt"),
		)),
	)
	g.runAt(f)
	g.asUpdate(f)
}

// sessionMethod emits the method name, which hands its arguments to
// method of flowcrt.Sessions.
func (g *typedGen) sessionMethod(f *jen.File, name, method string, params []jen.Code, args ...jen.Code) {
	sessionMethod(f, g.n.Workflow, jen.Id(g.n.State), name, method, params, args)
}

func sessionMethod(f *jen.File, workflow string, result jen.Code, name, method string, params, args []jen.Code) {
	f.Func().Params(jen.Id("w").Op("*").Id(workflow)).Id(name).
		Params(append([]jen.Code{jen.Id("ctx").Qual("context", "Context"), jen.Id("sessionID").String()}, params...)...).
		Params(result, jen.Error()).Block(
		jen.Return(jen.Id("w").Dot("sessions").Call().Dot(method).Call(
			append([]jen.Code{jen.Id("ctx"), jen.Op("&").Id("w").Dot("cfg"), jen.Id("sessionID")}, args...)...)),
	)
}

// runAt maps the state a checkpoint names to its step: any state outside a
// fan-out, where a run can stop.
func (g *typedGen) runAt(f *jen.File) {
	n := g.n
	f.Line()
	f.Comment("runAt runs session sess from the state a checkpoint names.")
	f.Func().Params(jen.Id("w").Op("*").Id(n.Workflow)).Id("runAt").Params(
		jen.Id("ctx").Qual("context", "Context"), jen.Id("sess").Op("*").Add(rt("Session")),
		jen.Id("s").Id(n.State), jen.Id("state").String(),
	).Params(jen.Id(n.State), jen.Error()).BlockFunc(func(b *jen.Group) {
		b.Var().Id("step").Id(n.Step)
		b.Switch(jen.Id("state")).BlockFunc(func(sw *jen.Group) {
			for _, s := range g.w.States {
				if g.w.RegionOf(s.ID) == nil {
					sw.Case(jen.Lit(s.ID)).Block(jen.Id("step").Op("=").Id(n.stepConst(s)))
				}
			}
			sw.Default().Block(jen.Return(jen.Id("s"), jen.Id("sess").Dot("UnknownState").Call(jen.Id("state"))))
		})
		b.Return(jen.Id("w").Dot("run").Call(jen.Id("ctx"), jen.Id("sess"), jen.Id("s"), jen.Id("step")))
	})
}

func (g *typedGen) asUpdate(f *jen.File) {
	f.Line()
	f.Comment("asUpdate returns the update that sets every field to its value in s.")
	f.Func().Params(jen.Id("s").Op("*").Id(g.n.State)).Id("asUpdate").Params().Id(g.n.Update).Block(
		jen.Id("u").Op(":=").Id(g.n.Update).Values(jen.Id("v").Op(":").Op("*").Id("s")),
		jen.For(jen.Id("i").Op(":=").Range().Id("u").Dot("set")).Block(
			jen.Id("u").Dot("set").Index(jen.Id("i")).Op("=").True(),
		),
		jen.Return(jen.Id("u")),
	)
}

func (g *typedGen) approvalVar(s *ir.State) string { return g.n.prefix + s.GoName + "Approval" }

// approvalStep emits the request of an approval state and the step that
// asks for the decision and routes on it.
func (g *typedGen) approvalStep(f *jen.File, s *ir.State) {
	ap := s.Approval
	f.Line()
	f.Var().Id(g.approvalVar(s)).Op("=").Add(rt("ApprovalRequest")).CustomFunc(multiline, func(d *jen.Group) {
		d.Id("State").Op(":").Lit(s.ID)
		d.Id("Prompt").Op(":").Lit(ap.Prompt)
		d.Id("Options").Op(":").Add(stringSlice(ap.Options))
		if ap.Timeout > 0 {
			d.Id("Timeout").Op(":").Add(duration(ap.Timeout))
		}
	})
	f.Line()
	doc(f, stepMethod(s)+" asks for a decision at approval state "+quote(s.ID)+" and returns the state to run next. "+
		"Without one the run waits: the error is an *flowcrt.Interrupted.")
	decision := "_"
	if usesDecision(s.Next) {
		decision = "decision"
	}
	f.Func().Params(jen.Id("w").Op("*").Id(g.n.Workflow)).Id(stepMethod(s)).Params(g.stepParams(s)...).
		Params(jen.Id(g.n.Step), jen.Error()).BlockFunc(func(b *jen.Group) {
		b.List(jen.Id(decision), jen.Err()).Op(":=").Add(rt("Approve")).Call(
			jen.Id("ctx"), jen.Id("sess"), jen.Id("w").Dot("h"), jen.Op("&").Id(g.approvalVar(s)), jen.Op("*").Id("s"))
		b.If(rt("IsInterrupted").Call(jen.Err())).Block(
			jen.Return(jen.Id(g.n.endConst()), jen.Err()).Comment("the run waits here for a decision"),
		)
		g.onError(b, s)
		g.transition(b, s)
	})
}

// usesDecision reports whether a transition's expressions read `decision`.
func usesDecision(t *ir.Transition) bool {
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
	if reads(t.Cond) {
		return true
	}
	for _, c := range t.Cases {
		if reads(c.Cond) {
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
			b.If(jen.Id("u").Dot("set").Index(jen.Lit(i))).Block(
				jen.Id("fields").Index(jen.Lit(fd.Name)).Op("=").Id("u").Dot("v").Dot(fd.GoName),
			)
		}
		b.Return(jen.Qual("encoding/json", "Marshal").Call(jen.Id("fields")))
	})
}

// sessions emits the session methods of a States Language state machine,
// whose state between top-level states is its JSON input.
func (g *aslGen) sessions(f *jen.File) {
	n, start := g.n, quote(g.w.Start.ID)
	f.Line()
	doc(f, "Invoke runs the state machine as session sessionID, saving a checkpoint after every top-level "+
		"state through the checkpointer of flowcrt.WithCheckpointer. A new session starts at "+start+" on input. "+
		"An existing one goes on from its last checkpoint, with input merged into its saved input (an object's "+
		"members replace those of the same name; nil: unchanged); one whose last run finished starts again at "+start+".")
	f.Func().Params(jen.Id("w").Op("*").Id(n.Workflow)).Id("Invoke").
		Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("sessionID").String(), jen.Id("input").Any()).
		Params(jen.Any(), jen.Error()).Block(
		jen.Var().Id("in").Op("*").Any(),
		jen.If(jen.Id("input").Op("!=").Nil()).Block(jen.Id("in").Op("=").Op("&").Id("input")),
		jen.Return(jen.Id("w").Dot("sessions").Call().Dot("Invoke").Call(jen.Id("ctx"), jen.Op("&").Id("w").Dot("cfg"), jen.Id("sessionID"), jen.Id("in"))),
	)
	f.Line()
	doc(f, "Resume continues session sessionID from its last checkpoint, without running again the top-level "+
		"states that completed; a session whose last run finished returns its output.")
	g.sessionMethod(f, "Resume", nil)
	f.Line()
	doc(f, "Decide answers the approval that session sessionID waits for with decision, one of the "+
		"state's options, and continues the run.")
	g.sessionMethod(f, "Decide", []jen.Code{jen.Id("decision").String()}, jen.Id("decision"))
	f.Line()
	f.Comment("sessions describes the state machine to the runtime's session functions. Its state is JSON,")
	f.Comment("with no schema to check.")
	f.Func().Params(jen.Id("w").Op("*").Id(n.Workflow)).Id("sessions").Params().Op("*").Add(rt("Sessions")).Types(jen.Any(), jen.Any()).Block(
		jen.Return(jen.Op("&").Add(rt("Sessions")).Types(jen.Any(), jen.Any()).Custom(multiline,
			jen.Id("Workflow").Op(":").Lit(g.w.ID),
			jen.Id("Schema").Op(":").Lit("json"),
			jen.Id("Start").Op(":").Lit(g.w.Start.ID),
			jen.Id("Fresh").Op(":").Add(rt("EmptyASLInput")),
			jen.Id("Decode").Op(":").Add(rt("DecodeASLInput")),
			jen.Id("Merge").Op(":").Add(rt("MergeASLInput")),
			jen.Id("Run").Op(":").Id("w").Dot("runAt"),
		)),
	)
}

// sessionMethod emits the method name, which hands its arguments to the
// method of the same name of flowcrt.Sessions.
func (g *aslGen) sessionMethod(f *jen.File, name string, params []jen.Code, args ...jen.Code) {
	sessionMethod(f, g.n.Workflow, jen.Any(), name, name, params, args)
}

// sessionFunc is the flowcrt.SessionFunc of the `flowc run` program: it
// runs a session of the workflow with mocked handlers, merging the fields
// the input has (typed) or its members (ASL), or answers its approval. It
// is nil for workflows without sessions.
func sessionFunc(w *ir.Workflow, n names, wfImport string) jen.Code {
	if w.Mode == ir.ModeChain {
		return nil
	}
	return jen.Func().Params(
		jen.Id("ctx").Qual("context", "Context"),
		jen.Id("id").String(),
		jen.Id("input").Index().Byte(),
		jen.Id("decision").String(),
		jen.Id("mocks").Op("*").Add(rt("Mocks")),
		jen.Id("opts").Op("...").Add(rt("Option")),
	).Params(jen.Any(), jen.Error()).BlockFunc(func(b *jen.Group) {
		b.Id("w").Op(":=").Qual(wfImport, "New"+n.Mock).Call(jen.Id("mocks"), jen.Id("opts").Op("..."))
		b.If(jen.Id("decision").Op("!=").Lit("")).Block(
			jen.Return(jen.Id("w").Dot("Decide").Call(jen.Id("ctx"), jen.Id("id"), jen.Id("decision"))),
		)
		if w.Mode != ir.ModeTyped { // ASL and JSON mode take any JSON value
			decode := map[ir.Mode]string{ir.ModeASL: "DecodeASLInput", ir.ModeJSON: "DecodeChainInput"}[w.Mode]
			b.Var().Id("in").Any()
			b.If(jen.Id("input").Op("!=").Nil()).Block(
				jen.Var().Err().Error(),
				jen.If(jen.List(jen.Id("in"), jen.Err()).Op("=").Add(rt(decode)).Call(jen.Id("input")), jen.Err().Op("!=").Nil()).Block(
					jen.Return(jen.Nil(), jen.Err()),
				),
			)
			b.Return(jen.Id("w").Dot("Invoke").Call(jen.Id("ctx"), jen.Id("id"), jen.Id("in")))
			return
		}
		// The input's keys are the fields to merge: the others keep their value.
		b.Var().Id("u").Qual(wfImport, n.Update)
		b.If(jen.Id("input").Op("!=").Nil()).Block(
			jen.If(jen.Err().Op(":=").Add(rt("DecodeInput")).Call(jen.Id("input"), jen.Op("&").Id("u")), jen.Err().Op("!=").Nil()).Block(
				jen.Return(jen.Nil(), jen.Err()),
			),
		)
		b.Return(jen.Id("w").Dot("InvokeUpdate").Call(jen.Id("ctx"), jen.Id("id"), jen.Id("u")))
	})
}
