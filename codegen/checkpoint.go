package codegen

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/ir"
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

func (g *typedGen) hasApprovals() bool { return hasApprovalStates(g.w) }

func hasApprovalStates(w *ir.Workflow) bool {
	return slices.ContainsFunc(w.States, func(s *ir.State) bool { return s.Kind == ir.StateApproval })
}

// stopsForDecision reports whether a run of w can stop for a decision: at an
// approval state, a States Language Approval, or a CodeMie state that
// interrupts before it runs. Only such a workflow has Decide.
func stopsForDecision(w *ir.Workflow) bool {
	switch w.Mode {
	case ir.ModeTyped:
		return hasApprovalStates(w)
	case ir.ModeASL:
		return slices.ContainsFunc(ir.AllStates(w.States), func(s *ir.State) bool { return s.ASL.Type == ir.ASLApproval })
	case ir.ModeJSON:
		return interruptsBefore(w)
	}
	return false
}

func (g *typedGen) schemaConst() string { return g.n.prefix + "Schema" }

// schemaHash identifies the top-level fields of the state: names and
// types, in order. Reducers are left out, as they do not change what a
// saved state decodes to. The whole type graph, named types of the user's
// package at any depth, is not known here (the checker loads it and lets
// it go), and it may change without the workflow being generated again:
// the runtime reads it from the compiled state type instead and saves it
// beside this hash (flowcimpl.Sessions, checkpoint_shape.go). The hash
// alone still decides for checkpoints saved before shapes were.
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

// sessionSpec: a typed session keeps the state, checked against the
// schema hash, and merges an input through the reducers.
func (g *typedGen) sessionSpec() *sessionSpec {
	n := g.n
	return &sessionSpec{
		value: jen.Id(n.State), arg: "s", zero: jen.Id("s"), decides: stopsForDecision(g.w),
		types:  []jen.Code{jen.Id(n.State), jen.Id(n.Update)},
		schema: jen.Id(g.schemaConst()),
		fields: []jen.Code{jen.Id("Merge").Op(":").Func().Params(jen.Id("s").Op("*").Id(n.State), jen.Id("u").Id(n.Update)).Block(
			jen.Id("s").Dot("apply").Call(jen.Op("&").Id("u")),
		)},
		doc:    []string{"sessions describes the workflow to the runtime's session functions."},
		invoke: g.invoke,
		resume: "Resume continues session sessionID from its last checkpoint, without running again the states " +
			"that completed; a session whose last run finished returns its final state.",
		runAtOn: []jen.Code{jen.Return(jen.Id("w").Dot("run").Call(jen.Id("ctx"), jen.Id("sess"), jen.Id("s"), jen.Id("step")))},
	}
}

// invoke emits the schema hash, Invoke and InvokeUpdate, and asUpdate.
func (g *typedGen) invoke(f *jen.File) {
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
		Params(ctxParam(), jen.Id("sessionID").String(), jen.Id("in").Op("*").Add(state.Clone())).
		Params(state.Clone(), jen.Error()).Block(
		jen.Var().Id("u").Id(n.Update),
		jen.If(jen.Id("in").Op("!=").Nil()).Block(jen.Id("u").Op("=").Id("in").Dot("asUpdate").Call()),
		jen.Return(jen.Id("w").Dot("InvokeUpdate").Call(jen.Id("ctx"), jen.Id("sessionID"), jen.Id("u"))),
	)
	f.Line()
	doc(f, "InvokeUpdate is Invoke with an update: only the fields u sets are merged, so that a session "+
		"keeps the values of the others (`flowc run --session` merges its input so).")
	sessionMethod(f, n.Workflow, sessionOut{typ: jen.Id(n.State)}, "InvokeUpdate", "Invoke", []jen.Code{jen.Id("u").Id(n.Update)}, []jen.Code{jen.Op("&").Id("u")})
	if slices.ContainsFunc(g.w.Regions, g.stopsInRegion) {
		decideAt(f, n.Workflow, sessionOut{typ: jen.Id(n.State)})
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
	if g.usesDecision(s.Next) {
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

// sessionSpec: a States Language session keeps the JSON input of the next
// top-level state, and merges an input's members into it.
func (g *aslGen) sessionSpec() *sessionSpec {
	return &sessionSpec{
		value: jen.Any(), arg: "input", zero: jen.Nil(),
		decides: stopsForDecision(g.w),
		types:   []jen.Code{jen.Any(), jen.Any()},
		schema:  jen.Lit("json"),
		fields: []jen.Code{
			jen.Id("Fresh").Op(":").Add(rt("EmptyASLInput")),
			jen.Id("Decode").Op(":").Add(rt("DecodeASLInput")),
			jen.Id("Merge").Op(":").Add(rt("MergeASLInput")),
		},
		doc: []string{"sessions describes the state machine to the runtime's session functions. Its state is JSON,",
			"with no schema to check."},
		invoke: g.invoke,
		resume: "Resume continues session sessionID from its last checkpoint, without running again the top-level " +
			"states that completed; a session whose last run finished returns its output.",
		runAtOn: []jen.Code{
			jen.List(jen.Id("x"), jen.Id("in"), jen.Err()).Op(":=").Add(rt("NewASLExec")).Call(
				jen.Op("&").Id("w").Dot("cfg"), jen.Lit(g.w.ID), jen.Id("w").Dot("h"), jen.Id("input")),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
			jen.Id("x").Dot("SetSession").Call(jen.Id("sess")),
			jen.List(jen.Id("out"), jen.Err()).Op(":=").Id("w").Dot("run").Call(jen.Id("ctx"), jen.Id("x"), jen.Id("in"), jen.Id("step")),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
			jen.Return(rt("Plain").Call(jen.Id("out")), jen.Nil()),
		},
	}
}

// invoke emits Invoke, which merges its input into the session's.
func (g *aslGen) invoke(f *jen.File) {
	start := quote(g.w.Start.ID)
	f.Line()
	doc(f, "Invoke runs the state machine as session sessionID, saving a checkpoint after every top-level "+
		"state through the checkpointer of flowcrt.WithCheckpointer. A new session starts at "+start+" on input. "+
		"An existing one goes on from its last checkpoint, with input merged into its saved input (an object's "+
		"members replace those of the same name; nil: unchanged); one whose last run finished starts again at "+start+".")
	f.Func().Params(jen.Id("w").Op("*").Id(g.n.Workflow)).Id("Invoke").
		Params(ctxParam(), jen.Id("sessionID").String(), jen.Id("input").Any()).
		Params(jen.Any(), jen.Error()).Block(
		jen.Var().Id("in").Op("*").Any(),
		jen.If(jen.Id("input").Op("!=").Nil()).Block(jen.Id("in").Op("=").Op("&").Id("input")),
		jen.Return(jen.Id("w").Dot("sessions").Call().Dot("Invoke").Call(jen.Id("ctx"), jen.Op("&").Id("w").Dot("cfg"), jen.Id("sessionID"), jen.Id("in"))),
	)
	if slices.ContainsFunc(ir.AllStates(g.w.States), func(s *ir.State) bool {
		return slices.ContainsFunc(s.ASL.Branches, g.stopsInBranch)
	}) {
		decideAt(f, g.n.Workflow, sessionOut{typ: jen.Any()})
	}
}

// decideAt emits DecideAt, for a workflow whose runs can stop inside
// fan-outs, where several stops may wait at once.
func decideAt(f *jen.File, workflow string, out sessionOut) {
	f.Line()
	doc(f, "DecideAt answers one of the stops that session sessionID waits at, the one key names (the Key of "+
		"a flowcrt.Pending in the *flowcrt.Interrupted error's Stops, e.g. \"Map/3/Approve\"), with decision, "+
		"one of its options, and continues the run: branches that finished are not run again, the answered one "+
		"goes on from its stop, the others that wait stop again. Decide answers the only stop that waits.")
	sessionMethod(f, workflow, out, "DecideAt", "DecideAt",
		[]jen.Code{jen.Id("key").String(), jen.Id("decision").String()}, []jen.Code{jen.Id("key"), jen.Id("decision")})
}

// session is the session function of the program: it runs a session of
// the workflow, merging the fields the input has (typed), its members
// (ASL), or its keys (JSON mode), or taking it as a chain's input, or
// answers its approval.
func (p programFuncs) session() jen.Code {
	w, n, wfImport := p.w, p.n, p.wfImport
	return jen.Func().Params(
		jen.Id("ctx").Qual("context", "Context"),
		jen.Id("id").String(),
		jen.Id("input").Index().Byte(),
		jen.Id("decision").String(),
		p.param,
		jen.Id("opts").Op("...").Add(rt("Option")),
	).Params(jen.Any(), jen.Error()).BlockFunc(func(b *jen.Group) {
		b.Id("w").Op(":=").Add(p.build)
		decide := []jen.Code{jen.Id("w").Dot("Decide").Call(jen.Id("ctx"), jen.Id("id"), jen.Id("decision"))}
		if !stopsForDecision(w) {
			decide = []jen.Code{jen.Nil(), rt("NoDecisions").Call(jen.Id("id"), jen.Lit(w.ID))}
		}
		b.If(jen.Id("decision").Op("!=").Lit("")).Block(jen.Return(decide...))
		if w.Mode != ir.ModeTyped { // ASL, JSON mode and chains take any JSON value
			decode := inputDecoders[w.Mode]
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
