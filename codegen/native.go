package codegen

import (
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"
)

// nativeLoop is the target that runs a workflow in the caller's goroutine:
// a for loop over a step enum whose cases call the step methods.
type nativeLoop struct {
	b *bulk // the lines it writes itself
	// The mock handlers go to a file of their own, with its own bulk lines.
	mockFile *jen.File
	mb       *bulk
}

func (t nativeLoop) header(f *jen.File, sh *shell) {
	n := sh.n
	f.Line()
	for _, c := range sh.handlersDoc {
		f.Comment(c)
	}
	f.Type().Id(n.Handlers).InterfaceFunc(func(it *jen.Group) {
		var text strings.Builder
		flush := func() {
			if ph := t.b.placeholder(text.String()); ph != "" {
				it.Id(ph)
			}
			text.Reset()
		}
		for _, sv := range sh.more {
			it.Add(comment(sv.doc))
			if sv.embed != "" {
				it.Add(rt(sv.embed))
			} else {
				it.Add(sv.sig.code(jen.Id(sv.name)))
			}
		}
		for _, h := range sh.handlers {
			switch {
			case h.doc == "":
			case h.sigText != "" && !t.b.disabled():
				text.WriteString("\t// " + oneLine(h.doc) + "\n\t" + h.name + h.sigText + "\n")
			default:
				flush()
				it.Add(comment(h.doc))
				it.Add(h.sig.code(jen.Id(h.name)))
			}
		}
		flush()
	})
	if sh.into != nil {
		t.intoInterface(f, sh)
	}
	f.Line()
	f.Comment(n.Workflow + " runs " + sh.noun + ". It is safe for concurrent use: every Run has its own state.")
	if sh.describe && sh.w.Description != "" {
		f.Comment("")
		f.Add(comment(sh.w.Description))
	}
	fields := []jen.Code{jen.Id("h").Id(n.Handlers)}
	values := []jen.Code{jen.Id("h").Op(":").Id("h")}
	var find []jen.Code
	if sh.into != nil {
		fields = append(fields, jen.Id("into").Id(n.Into).Comment("h, when it implements it"))
		values = append(values, jen.Id("into").Op(":").Id("into"))
		find = append(find, jen.List(jen.Id("into"), jen.Id("_")).Op(":=").Id("h").Assert(jen.Id(n.Into)))
	}
	f.Type().Id(n.Workflow).Struct(append(fields, jen.Id("cfg").Add(rt("Config")))...)
	f.Line()
	f.Comment("New" + n.Workflow + " returns " + sh.noun + " over your handlers.")
	values = append(values, jen.Id("cfg").Op(":").Add(rt("NewConfig")).Call(jen.Id("opts").Op("...")))
	f.Func().Id("New"+n.Workflow).Params(jen.Id("h").Id(n.Handlers), jen.Id("opts").Op("...").Add(rt("Option"))).
		Op("*").Id(n.Workflow).Block(
		append(find, jen.Return(jen.Op("&").Id(n.Workflow).Custom(multiline, values...)))...,
	)
	t.stepEnum(f, sh)
}

// intoInterface declares the in-place form of the plain states' handlers.
func (t nativeLoop) intoInterface(f *jen.File, sh *shell) {
	n := sh.n
	f.Line()
	f.Comment(n.Into + " is optional. When your handlers also implement it and a run has no observer,")
	f.Comment("state context or session, plain states call its methods instead of the handlers: each writes the")
	f.Comment("update into u, which arrives empty, instead of returning it: Go copies a returned update of")
	f.Comment("more than four words through memory, and that copy is most of what a transition costs. Both")
	f.Comment("forms of a handler must give the same update.")
	sig := "(ctx context.Context, s " + n.State + ", u *" + n.Update + ") error"
	f.Type().Id(n.Into).InterfaceFunc(func(it *jen.Group) {
		var text strings.Builder
		for _, name := range sh.into {
			text.WriteString("\t// " + name + "Into is " + name + ", writing the update into u.\n\t" + name + "Into" + sig + "\n")
		}
		if ph := t.b.placeholder(text.String()); ph != "" {
			it.Id(ph)
			return
		}
		for _, name := range sh.into {
			it.Comment(name + "Into is " + name + ", writing the update into u.")
			it.Id(name+"Into").Params(ctxParam(), jen.Id("s").Id(n.State), jen.Id("u").Op("*").Id(n.Update)).Error()
		}
	})
}

// stepEnum names the states; the ids table turns a step back into its
// state's id for errors and checkpoints. The constants have no comment:
// the table says the same, and comments are the slowest thing to format.
func (t nativeLoop) stepEnum(f *jen.File, sh *shell) {
	n := sh.n
	keys := make([]string, len(sh.states))
	ids := make([]string, len(sh.states))
	for i, s := range sh.states {
		keys[i], ids[i] = n.stepConst(s), strconv.Quote(s.ID)
	}
	f.Line()
	f.Comment(sh.stepDoc)
	f.Type().Id(n.Step).Int()
	f.Line()
	f.Const().DefsFunc(func(d *jen.Group) {
		d.Id(n.endConst()).Id(n.Step).Op("=").Iota()
		if ph := t.b.placeholder(lines("\t", keys, "")); ph != "" {
			d.Id(ph)
			return
		}
		for _, k := range keys {
			d.Id(k)
		}
	})
	f.Line()
	f.Comment(n.idsVar() + " maps each step to its state's id.")
	f.Var().Id(n.idsVar()).Op("=").Index(jen.Op("...")).String().CustomFunc(multiline, func(vals *jen.Group) {
		if text, ok := aligned("\t", keys, ids); ok {
			if ph := t.b.placeholder(text); ph != "" {
				vals.Id(ph)
				return
			}
		}
		for _, s := range sh.states {
			vals.Id(n.stepConst(s)).Op(":").Lit(s.ID)
		}
	})
}

// lines writes each item on a line of its own.
func lines(indent string, items []string, end string) string {
	var sb strings.Builder
	for _, it := range items {
		sb.WriteString(indent + it + end + "\n")
	}
	return sb.String()
}

func (t nativeLoop) entry(f *jen.File, sh *shell) {
	n := sh.n
	for _, e := range sh.runs {
		f.Line()
		for _, c := range e.doc {
			f.Comment(c)
		}
		f.Func().Params(jen.Id("w").Op("*").Id(n.Workflow)).Add(e.sig.code(jen.Id(e.name))).Block(e.body...)
	}
	t.sessions(f, sh)
}

func (t nativeLoop) loop(f *jen.File, n names, l *loop) {
	params := append([]jen.Code{ctxParam()}, l.params...)
	if l.first == nil {
		step := jen.Id("step")
		if l.until == nil {
			step = jen.List(jen.Id("step"), jen.Id("until"))
		}
		params = append(params, step.Id(n.Step))
	}
	params = append(params, l.after...)
	if l.plain != nil {
		t.plainTable(f, n, l)
	}
	var results []jen.Code
	if l.result != nil {
		results = append(results, jen.Id("out").Add(l.result))
	}
	results = append(results, jen.Err().Error())
	until := l.until
	if until == nil {
		until = jen.Id("until")
	}
	f.Line()
	doc(f, l.doc)
	f.Func().Params(jen.Id("w").Op("*").Id(n.Workflow)).Id(l.method).Params(params...).Params(results...).BlockFunc(func(b *jen.Group) {
		if l.first != nil {
			b.Id("step").Op(":=").Id(n.stepConst(l.first))
		}
		observeRun(b, n)
		recoverPanic(b, n, l)
		for _, c := range l.prelude {
			b.Add(c)
		}
		b.For(jen.Id("step").Op("!=").Add(until)).BlockFunc(func(body *jen.Group) { t.transition(body, n, l) })
		if l.result != nil {
			b.Return(l.done, jen.Nil())
			return
		}
		b.Return(jen.Nil())
	})
}

// failWith is what a loop returns when it fails with err.
func failWith(l *loop, err jen.Code) []jen.Code {
	if l.result != nil {
		return []jen.Code{l.zero, err}
	}
	return []jen.Code{err}
}

// observeRun tells the observer, if any, that the run starts; the loops
// of its branches and items are part of it (see flowcrt.ObserveRun).
func observeRun(b *jen.Group, n names) {
	b.Comment("An observer (flowcrt.WithObserver) sees the run and its states: end ends the run, leave the")
	b.Comment("state under way.")
	b.Var().Id("end").Op(",").Id("leave").Func().Params(jen.Error())
	b.If(jen.Id("w").Dot("cfg").Dot("Observer").Op("!=").Nil()).Block(
		jen.List(jen.Id("ctx"), jen.Id("end")).Op("=").Add(rt("ObserveRun")).Call(jen.Id("ctx"), jen.Op("&").Id("w").Dot("cfg"), jen.Lit(n.Workflow)),
	)
}

// recoverPanic defers the loop's one recover, and ends the observed state
// and run: a panic skips the loop's own calls.
func recoverPanic(b *jen.Group, n names, l *loop) {
	b.Comment("A panic fails the run with an error naming its state; one deferred recover per run keeps")
	b.Comment("transitions free of defers.")
	panicErr := jen.Op("&").Add(rt("StateError")).Values(jen.Id("State").Op(":").Id("id"),
		jen.Id("Err").Op(":").Add(rt("PanicError")).Call(jen.Id("id"), jen.Id("r")))
	b.Defer().Func().Params().Block(
		jen.If(jen.Id("r").Op(":=").Recover(), jen.Id("r").Op("!=").Nil()).Block(
			jen.Id("id").Op(":=").Id(n.idsVar()).Index(jen.Id("step")),
			jen.List(failed(l)...).Op("=").List(failWith(l, panicErr)...),
		),
		jen.If(jen.Id("leave").Op("!=").Nil()).Block(jen.Id("leave").Call(jen.Err())),
		jen.If(jen.Id("end").Op("!=").Nil()).Block(jen.Id("end").Call(jen.Err())),
	).Call()
}

// transition is the body of the loop: one step and what follows it.
func (t nativeLoop) transition(body *jen.Group, n names, l *loop) {
	if l.plain != nil {
		t.inPlace(body, n, l)
	}
	body.If(jen.Err().Op("=").Id("ctx").Dot("Err").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(failWith(l, jen.Err())...))
	id := jen.Id(n.idsVar()).Index(jen.Id("step"))
	body.Id("sctx").Op(":=").Id("ctx")
	if l.ctx {
		body.If(jen.Id("w").Dot("cfg").Dot("StateContext")).Block(
			jen.Id("sctx").Op("=").Add(rt("WithState")).Call(jen.Id("ctx"), id),
		)
	}
	body.If(jen.Id("w").Dot("cfg").Dot("Observer").Op("!=").Nil()).Block(
		jen.List(jen.Id("sctx"), jen.Id("leave")).Op("=").Id("w").Dot("cfg").Dot("Observer").Dot("State").Call(jen.Id("sctx"), id),
	)
	body.Var().Id("next").Id(n.Step)
	if l.plain != nil {
		body.Var().Id("call").Id(n.callType()).Comment("the handler of a plain state")
	}
	body.Switch(jen.Id("step")).BlockFunc(func(sw *jen.Group) {
		t.cases(sw, n, l)
		if l.plain != nil {
			sw.Default().Block(
				jen.Comment("A plain state."),
				jen.List(jen.Id("call"), jen.Id("next")).Op("=").List(
					jen.Id(n.plainVar()).Index(jen.Id("step")).Dot("call"),
					jen.Id(n.plainVar()).Index(jen.Id("step")).Dot("next"),
				),
				jen.Switch(jen.Id("call")).BlockFunc(func(sw *jen.Group) { t.calls(sw, n, l.plain.handlers, l.plain.call, 3) }),
			)
		}
	})
	if l.fold != nil {
		body.Add(l.fold)
	}
	body.If(jen.Id("leave").Op("!=").Nil()).Block(jen.Id("leave").Call(jen.Err()), jen.Id("leave").Op("=").Nil())
	if l.save != nil {
		body.Add(l.save)
	}
	stepErr := jen.Code(jen.Err())
	if l.wrap != nil {
		stepErr = l.wrap(jen.Err())
	}
	body.If(jen.Err().Op("!=").Nil()).Block(jen.Return(failWith(l, stepErr)...))
	body.Id("step").Op("=").Id("next")
}

// cases dispatches on the step: each state but the plain ones calls its
// step.
func (t nativeLoop) cases(sw *jen.Group, n names, l *loop) {
	lhs := append(append([]jen.Code{jen.Id("next")}, l.outs...), jen.Err())
	for _, s := range l.states {
		if l.plain == nil || l.plain.handler(s) == "" {
			sw.Case(jen.Id(n.stepConst(s))).Block(jen.List(lhs...).Op("=").Add(l.call(s)))
		}
	}
}

// canceled ends the run if ctx is done. It receives from done, the channel
// of ctx, without blocking, rather than calling ctx.Err: a nil test between
// states when ctx cannot be canceled, and no call when it can and is not.
// The general loop calls ctx.Err, which engines hook (Temporal's bridge
// context has no channel); their handlers are activities, never in place.
func canceled(l *loop) jen.Code {
	return jen.If(jen.Id("done").Op("!=").Nil()).Block(
		jen.Select().Block(
			jen.Case(jen.Op("<-").Id("done")).Block(jen.Return(failWith(l, jen.Id("ctx").Dot("Err").Call())...)),
			jen.Default(),
		),
	)
}

// inPlace runs plain states one after another through the in-place form
// of their handlers, while fast: with no observer, state context or
// session between states, this loop has only the cancellation test, the
// call and the fold (docs/benchmarks.md).
func (t nativeLoop) inPlace(body *jen.Group, n names, l *loop) {
	p := l.plain
	row := jen.Id(n.plainVar()).Index(jen.Id("cur"))
	body.If(jen.Id("fast")).Block(
		jen.Comment("Handlers that write in place run plain states here while nothing happens between states."),
		jen.Comment("cur stays in a register; step tells the recover which state failed."),
		jen.Id("cur").Op(":=").Id("step"),
		jen.Id("done").Op(":=").Id("ctx").Dot("Done").Call().Comment("nil if ctx cannot be canceled"),
		jen.For(
			jen.Empty(),
			row.Clone().Dot("call").Op("!=").Id(n.noCall()),
			jen.Id("cur").Op("=").Add(row.Clone()).Dot("next"),
		).BlockFunc(func(lb *jen.Group) {
			lb.Id("step").Op("=").Id("cur")
			lb.Add(canceled(l))
			lb.Var().Id("e").Error().Comment("not err, which the recover shares: this one can stay in a register")
			lb.Switch(row.Clone().Dot("call")).BlockFunc(func(sw *jen.Group) { t.calls(sw, n, p.handlers, p.inPlace, 4) })
			lb.If(jen.Id("e").Op("!=").Nil()).Block(jen.Return(failWith(l, jen.Op("&").Add(rt("StateError")).Values(
				jen.Id("State").Op(":").Id(n.idsVar()).Index(jen.Id("cur")), jen.Id("Err").Op(":").Id("e")))...))
			for _, c := range p.inPlaceFold {
				lb.Add(c)
			}
		}),
		jen.If(jen.Id("step").Op("=").Id("cur"), jen.Id("step").Op("==").Add(l.until)).Block(jen.Break()),
	)
}

// calls dispatches a plain state on its handler, one case each: text, as
// it is made of names only.
func (t nativeLoop) calls(sw *jen.Group, n names, handlers []string, call func(string) []string, depth int) {
	indent := strings.Repeat("\t", depth)
	var text strings.Builder
	for _, h := range handlers {
		text.WriteString(indent + "case " + n.callConst(h) + ":\n" + lines(indent+"\t", call(h), ""))
	}
	if ph := t.b.placeholder(text.String()); ph != "" {
		sw.Case(jen.Id(ph)).Block()
		return
	}
	for _, h := range handlers {
		sw.Case(jen.Id(n.callConst(h))).BlockFunc(func(cb *jen.Group) {
			for _, st := range call(h) {
				cb.Op(st)
			}
		})
	}
}

// plainTable names the handlers of a loop's plain states, and gives each
// such state its handler and the step after it.
func (t nativeLoop) plainTable(f *jen.File, n names, l *loop) {
	p := l.plain
	f.Line()
	f.Comment(n.callType() + " names the handler a plain state calls; " + n.noCall() + ": the state is not plain.")
	f.Type().Id(n.callType()).Uint32()
	f.Line()
	f.Const().DefsFunc(func(d *jen.Group) {
		d.Id(n.noCall()).Id(n.callType()).Op("=").Iota()
		consts := make([]string, len(p.handlers))
		for i, h := range p.handlers {
			consts[i] = n.callConst(h)
		}
		if ph := t.b.placeholder(lines("\t", consts, "")); ph != "" {
			d.Id(ph)
			return
		}
		for _, c := range consts {
			d.Id(c)
		}
	})
	var keys, rows []string
	for _, s := range l.states {
		if h := p.handler(s); h != "" {
			keys = append(keys, n.stepConst(s))
			rows = append(rows, "{"+n.callConst(h)+", "+p.next(s)+"}")
		}
	}
	f.Line()
	f.Comment(n.plainVar() + " gives each plain state its handler and the step after it. The loop runs those states")
	f.Comment("from here, not from a case each: a jump through a switch over every state would cost more than")
	f.Comment("the rest of a transition.")
	f.Var().Id(n.plainVar()).Op("=").Index(jen.Len(jen.Id(n.idsVar()))).Struct(
		jen.Id("call").Id(n.callType()),
		jen.Id("next").Id(n.Step),
	).CustomFunc(multiline, func(vals *jen.Group) {
		if text, ok := aligned("\t", keys, rows); ok {
			if ph := t.b.placeholder(text); ph != "" {
				vals.Id(ph)
				return
			}
		}
		for i, k := range keys {
			vals.Id(k).Op(":").Op(rows[i])
		}
	})
}

// failed lists the named results a recovered panic sets.
func failed(l *loop) []jen.Code {
	if l.result != nil {
		return []jen.Code{jen.Id("out"), jen.Err()}
	}
	return []jen.Code{jen.Err()}
}

// mock writes the mock handlers into the mock file; f is the workflow's.
func (t nativeLoop) mock(_ *jen.File, sh *shell) {
	f, n, m := t.mockFile, sh.n, sh.mock
	f.Line()
	f.Comment(n.Mock + " implements " + n.Handlers + " with canned responses, for tests and dry runs.")
	for _, c := range m.doc {
		f.Comment(c)
	}
	f.Type().Id(n.Mock).Struct(jen.Id("mocks").Op("*").Add(rt("Mocks")).Comment("unexported: handler methods are exported names"))
	if m.marker != "" {
		f.Line()
		for _, c := range m.markerDoc {
			f.Comment(c)
		}
		f.Func().Params(jen.Id(n.Mock)).Id(m.marker).Params().Block()
	}
	f.Line()
	f.Comment("New" + n.Mock + "Handlers returns handlers that answer from mocks.")
	f.Func().Id("New" + n.Mock + "Handlers").Params(jen.Id("mocks").Op("*").Add(rt("Mocks"))).Id(n.Mock).Block(
		jen.Return(jen.Id(n.Mock).Values(jen.Id("mocks").Op(":").Id("mocks"))),
	)
	if m.helpers != nil {
		m.helpers(f)
	}
	// The simple handler methods come first, under one comment: a comment
	// each would be most of the output, and the slowest part to format.
	var simple, other []handler
	for _, h := range sh.handlers {
		if h.mockDoc == nil && h.sigText != "" && h.mockText != "" {
			simple = append(simple, h)
		} else {
			other = append(other, h)
		}
	}
	if len(simple) > 0 {
		f.Line()
		f.Comment("The methods below answer from the mock of the " + m.caller + " that calls them.")
		// The first goes through jennifer, so that the file imports what
		// the signatures of the rest name.
		first := simple[0]
		f.Func().Params(jen.Id("m").Id(n.Mock)).Add(first.sig.code(jen.Id(first.name))).Block(first.mock...)
		var text strings.Builder
		for _, h := range simple[1:] {
			text.WriteString("func (m " + n.Mock + ") " + h.name + h.sigText + " {\n\t" + h.mockText + "\n}\n")
		}
		if ph := t.mb.placeholder(text.String()); ph != "" {
			// A function, so that the formatter keeps it beside the first
			// method as it keeps methods together.
			f.Func().Id(ph).Params().Block()
		} else {
			for _, h := range simple[1:] {
				f.Func().Params(jen.Id("m").Id(n.Mock)).Add(h.sig.code(jen.Id(h.name))).Block(h.mock...)
			}
		}
	}
	for _, h := range other {
		f.Line()
		if h.mockDoc == nil {
			f.Comment(h.name + " answers from the mock of the " + m.caller + " that calls it.")
		}
		for _, c := range h.mockDoc {
			f.Comment(c)
		}
		f.Func().Params(jen.Id("m").Id(n.Mock)).Add(h.sig.code(jen.Id(h.name))).Block(h.mock...)
	}
	opts := jen.Id("opts").Op("...")
	if m.stateContext {
		opts = jen.Append(jen.Id("opts").Index(jen.Op(":").Len(jen.Id("opts")).Op(":").Len(jen.Id("opts"))), rt("WithStateContext").Call()).Op("...")
	}
	f.Line()
	f.Comment("New" + n.Mock + " returns a " + n.Workflow + " whose handlers answer from mocks.")
	f.Func().Id("New"+n.Mock).Params(jen.Id("mocks").Op("*").Add(rt("Mocks")), jen.Id("opts").Op("...").Add(rt("Option"))).
		Op("*").Id(n.Workflow).Block(
		jen.Return(jen.Id("New"+n.Workflow).Call(jen.Id("New"+n.Mock+"Handlers").Call(jen.Id("mocks")), opts)),
	)
}

// sessions writes the methods that run a workflow as a session through
// flowcrt.Sessions, and runAt, which goes on from the state a checkpoint
// names.
func (nativeLoop) sessions(f *jen.File, sh *shell) {
	n, ss := sh.n, sh.sessions
	ss.invoke(f)
	out := ss.out
	if out.field == "" {
		out = sessionOut{typ: ss.value}
	}
	f.Line()
	doc(f, ss.resume)
	sessionMethod(f, n.Workflow, out, "Resume", "Resume", nil, nil)
	if ss.decides {
		f.Line()
		decide := ss.decide
		if decide == "" {
			decide = "Decide answers the approval that session sessionID waits for with decision, one of the " +
				"state's options, and continues the run."
		}
		doc(f, decide)
		sessionMethod(f, n.Workflow, out, "Decide", "Decide", []jen.Code{jen.Id("decision").String()}, []jen.Code{jen.Id("decision")})
	}
	f.Line()
	for _, c := range ss.doc {
		f.Comment(c)
	}
	fields := append([]jen.Code{
		jen.Id("Workflow").Op(":").Lit(sh.w.ID),
		jen.Id("Schema").Op(":").Add(ss.schema),
		jen.Id("Start").Op(":").Lit(sh.w.Start.ID),
	}, ss.fields...)
	fields = append(fields, jen.Id("Run").Op(":").Id("w").Dot("runAt"))
	f.Func().Params(jen.Id("w").Op("*").Id(n.Workflow)).Id("sessions").Params().Op("*").Add(rt("Sessions")).Types(ss.types...).Block(
		jen.Return(jen.Op("&").Add(rt("Sessions")).Types(ss.types...).Custom(multiline, fields...)),
	)
	f.Line()
	f.Comment("runAt runs session sess on " + ss.arg + " from the state a checkpoint names.")
	f.Func().Params(jen.Id("w").Op("*").Id(n.Workflow)).Id("runAt").Params(
		ctxParam(), jen.Id("sess").Op("*").Add(rt("Session")), jen.Id(ss.arg).Add(ss.value), jen.Id("state").String(),
	).Params(ss.value, jen.Error()).BlockFunc(func(b *jen.Group) {
		b.Id("i").Op(":=").Qual("slices", "Index").Call(jen.Id(n.idsVar()).Index(jen.Lit(1).Op(":").Lit(sh.resumable+1)), jen.Id("state"))
		b.If(jen.Id("i").Op("<").Lit(0)).Block(jen.Return(ss.zero, jen.Id("sess").Dot("UnknownState").Call(jen.Id("state"))))
		b.Id("step").Op(":=").Id(n.Step).Call(jen.Id("i").Op("+").Lit(1))
		for _, c := range ss.runAtOn {
			b.Add(c)
		}
	})
}

// sessionOut is what a session method returns: the session's state, or
// one field of it.
type sessionOut struct {
	typ   jen.Code
	field string
}

// sessionMethod emits the method name, which hands its arguments to
// method of flowcrt.Sessions.
func sessionMethod(f *jen.File, workflow string, out sessionOut, name, method string, params, args []jen.Code) {
	call := jen.Id("w").Dot("sessions").Call().Dot(method).Call(
		append([]jen.Code{jen.Id("ctx"), jen.Op("&").Id("w").Dot("cfg"), jen.Id("sessionID")}, args...)...)
	body := []jen.Code{jen.Return(call)}
	if out.field != "" {
		body = []jen.Code{
			jen.List(jen.Id("s"), jen.Err()).Op(":=").Add(call),
			jen.Return(jen.Id("s").Dot(out.field), jen.Err()),
		}
	}
	f.Func().Params(jen.Id("w").Op("*").Id(workflow)).Id(name).
		Params(append([]jen.Code{ctxParam(), jen.Id("sessionID").String()}, params...)...).
		Params(out.typ, jen.Error()).Block(body...)
}
