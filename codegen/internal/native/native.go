// Package native is the target that runs a workflow in the caller's
// goroutine: it turns a workflow's plan and loops into plain Go, and writes
// the mock handlers into a file of their own.
package native

import (
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/codegen/internal/emit"
	"github.com/flowc-dev/flowc/ir/plan"
)

// writer is the native target's emit.Writer: it runs a workflow in the
// caller's goroutine, a for loop over a step enum whose cases call the
// step methods.
type writer struct {
	Bulk *emit.Bulk // the lines it writes itself
	// The mock handlers go to a file of their own, with its own bulk lines.
	MockFile *jen.File
	MockBulk *emit.Bulk
}

func (t writer) Header(f *jen.File, sh *plan.Plan) {
	n := sh.Names
	f.Line()
	for _, c := range sh.HandlersDoc {
		f.Comment(c)
	}
	f.Type().Id(n.Handlers).InterfaceFunc(func(it *jen.Group) {
		var text strings.Builder
		flush := func() {
			if ph := t.Bulk.Placeholder(text.String()); ph != "" {
				it.Id(ph)
			}
			text.Reset()
		}
		for _, sv := range sh.More {
			it.Add(emit.Comment(sv.Doc))
			if sv.Embed != nil {
				it.Add(emit.Qual(sv.Embed))
			} else {
				it.Add(emit.SigCode(jen.Id(sv.Name), sv.Sig))
			}
		}
		for _, h := range sh.Handlers {
			if h.Doc == "" {
				continue
			}
			if !t.Bulk.Disabled() && emit.BulkSig(h.Sig) {
				text.WriteString("\t// " + emit.OneLine(h.Doc) + "\n\t" + h.Name)
				emit.Imports(nil).WriteSig(&text, h.Sig)
				text.WriteByte('\n')
			} else {
				flush()
				it.Add(emit.Comment(h.Doc))
				it.Add(emit.SigCode(jen.Id(h.Name), h.Sig))
			}
		}
		flush()
	})
	if sh.Into != nil {
		t.intoInterface(f, sh)
	}
	f.Line()
	f.Comment(n.Workflow + " runs " + sh.Noun + ". It is safe for concurrent use: every Run has its own state.")
	if sh.Describe && sh.Workflow.Description != "" {
		f.Comment("")
		f.Add(emit.Comment(sh.Workflow.Description))
	}
	fields := []jen.Code{jen.Id("h").Id(n.Handlers)}
	values := []jen.Code{jen.Id("h").Op(":").Id("h")}
	var find []jen.Code
	if sh.Into != nil {
		fields = append(fields, jen.Id("into").Id(n.Into).Comment("h, when it implements it"))
		values = append(values, jen.Id("into").Op(":").Id("into"))
		find = append(find, jen.List(jen.Id("into"), jen.Id("_")).Op(":=").Id("h").Assert(jen.Id(n.Into)))
	}
	f.Type().Id(n.Workflow).Struct(append(fields, jen.Id("cfg").Add(emit.Flowcimpl("Config")))...)
	f.Line()
	f.Comment("New" + n.Workflow + " returns " + sh.Noun + " over your handlers.")
	values = append(values, jen.Id("cfg").Op(":").Add(emit.Flowcimpl("NewConfig")).Call(jen.Id("opts").Op("...")))
	f.Func().Id("New"+n.Workflow).Params(jen.Id("h").Id(n.Handlers), jen.Id("opts").Op("...").Add(emit.Flowcrt("Option"))).
		Op("*").Id(n.Workflow).Block(
		append(find, jen.Return(jen.Op("&").Id(n.Workflow).Custom(emit.Multiline, values...)))...,
	)
	t.stepEnum(f, sh)
}

// intoInterface declares the in-place form of the plain states' handlers.
func (t writer) intoInterface(f *jen.File, sh *plan.Plan) {
	n := sh.Names
	f.Line()
	f.Comment(n.Into + " is optional. When your handlers also implement it and a run has no observer,")
	f.Comment("state context or session, plain states call its methods instead of the handlers: each writes the")
	f.Comment("update into u, which arrives empty, instead of returning it: Go copies a returned update of")
	f.Comment("more than four words through memory, and that copy is most of what a transition costs. Both")
	f.Comment("forms of a handler must give the same update.")
	sig := "(ctx context.Context, s " + n.State + ", u *" + n.Update + ") error"
	f.Type().Id(n.Into).InterfaceFunc(func(it *jen.Group) {
		var text strings.Builder
		for _, name := range sh.Into {
			text.WriteString("\t// " + name + "Into is " + name + ", writing the update into u.\n\t" + name + "Into" + sig + "\n")
		}
		if ph := t.Bulk.Placeholder(text.String()); ph != "" {
			it.Id(ph)
			return
		}
		for _, name := range sh.Into {
			it.Comment(name + "Into is " + name + ", writing the update into u.")
			it.Id(name+"Into").Params(emit.CtxParam(), jen.Id("s").Id(n.State), jen.Id("u").Op("*").Id(n.Update)).Error()
		}
	})
}

// stepEnum names the states; the ids table turns a step back into its
// state's id for errors and checkpoints. The constants have no comment:
// the table says the same, and comments are the slowest thing to format.
func (t writer) stepEnum(f *jen.File, sh *plan.Plan) {
	n := sh.Names
	keys := make([]string, len(sh.StepEnum))
	ids := make([]string, len(sh.StepEnum))
	for i, s := range sh.StepEnum {
		keys[i], ids[i] = n.StepConst(s), strconv.Quote(s.ID)
	}
	f.Line()
	f.Comment(sh.StepDoc)
	f.Type().Id(n.Step).Int()
	f.Line()
	f.Const().DefsFunc(func(d *jen.Group) {
		d.Id(n.EndConst()).Id(n.Step).Op("=").Iota()
		if ph := t.Bulk.Placeholder(lines("\t", keys, "")); ph != "" {
			d.Id(ph)
			return
		}
		for _, k := range keys {
			d.Id(k)
		}
	})
	f.Line()
	f.Comment(n.IdsVar() + " maps each step to its state's id.")
	f.Var().Id(n.IdsVar()).Op("=").Index(jen.Op("...")).String().CustomFunc(emit.Multiline, func(vals *jen.Group) {
		if text, ok := emit.Aligned("\t", keys, ids); ok {
			if ph := t.Bulk.Placeholder(text); ph != "" {
				vals.Id(ph)
				return
			}
		}
		for _, s := range sh.StepEnum {
			vals.Id(n.StepConst(s)).Op(":").Lit(s.ID)
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

func (t writer) Entry(f *jen.File, d emit.Dialect, sh *plan.Plan) {
	n := sh.Names
	for _, e := range sh.Runs {
		f.Line()
		for _, c := range e.Doc {
			f.Comment(c)
		}
		f.Func().Params(jen.Id("w").Op("*").Id(n.Workflow)).Add(emit.SigCode(jen.Id(e.Name), e.Sig)).Block(d.EntryBody(e)...)
	}
	t.sessions(f, d, sh)
}

func (t writer) Loop(f *jen.File, n plan.Names, l *emit.Loop) {
	params := append([]jen.Code{emit.CtxParam()}, l.Params...)
	if l.FromStep {
		step := jen.Id("step")
		if l.ExitParam {
			step = jen.List(jen.Id("step"), jen.Id("until"))
		}
		params = append(params, step.Id(n.Step))
	}
	params = append(params, l.After...)
	if l.Plain != nil {
		t.plainTable(f, n, l)
	}
	var results []jen.Code
	if l.Result != nil {
		results = append(results, jen.Id(resultName(l)).Add(l.Result))
	}
	results = append(results, jen.Err().Error())
	f.Line()
	emit.Doc(f, l.Doc)
	f.Func().Params(jen.Id("w").Op("*").Id(n.Workflow)).Id(l.Method).Params(params...).Params(results...).BlockFunc(func(b *jen.Group) {
		if !l.FromStep {
			b.Id("step").Op(":=").Id(n.StepConst(l.Start))
		}
		if l.Works != "" {
			b.Id(l.Works).Op("=").Id(l.In).Comment("the run works on its result: returning it copies nothing")
		}
		observeRun(b, n)
		recoverPanic(b, n, l)
		if l.Quiet {
			quiet(b)
		}
		for _, c := range l.Prelude {
			b.Add(c)
		}
		b.For(jen.Id("step").Op("!=").Add(until(n, l))).BlockFunc(func(body *jen.Group) { t.transition(body, n, l) })
		if l.Result != nil {
			b.Return(l.Done, jen.Nil())
			return
		}
		b.Return(jen.Nil())
	})
}

// until is the step the loop stops at.
func until(n plan.Names, l *emit.Loop) jen.Code {
	switch {
	case l.ExitParam:
		return jen.Id("until")
	case l.Exit == nil:
		return jen.Id(n.EndConst())
	}
	return jen.Id(n.StepConst(l.Exit))
}

// recovered is what the recover sets failed to.
func recovered(l *emit.Loop, err jen.Code) []jen.Code {
	if l.Works != "" {
		return []jen.Code{err}
	}
	return failWith(l, err)
}

// failWith is what a loop returns when it fails with err.
func failWith(l *emit.Loop, err jen.Code) []jen.Code {
	if l.Result != nil {
		return []jen.Code{l.Zero, err}
	}
	return []jen.Code{err}
}

// observeRun tells the observer, if any, that the run starts; the loops
// of its branches and items are part of it (see flowcrt.ObserveRun).
func observeRun(b *jen.Group, n plan.Names) {
	b.Comment("An observer (flowcrt.WithObserver) sees the run and its states: end ends the run, leave the")
	b.Comment("state under way.")
	b.Var().Id("end").Op(",").Id("leave").Func().Params(jen.Error())
	b.If(jen.Id("w").Dot("cfg").Dot("Observer").Op("!=").Nil()).Block(
		jen.List(jen.Id("ctx"), jen.Id("end")).Op("=").Add(emit.Flowcimpl("ObserveRun")).Call(jen.Id("ctx"), jen.Op("&").Id("w").Dot("cfg"), jen.Lit(n.Workflow)),
	)
}

// recoverPanic defers the loop's one recover, and ends the observed state
// and run: a panic skips the loop's own calls.
func recoverPanic(b *jen.Group, n plan.Names, l *emit.Loop) {
	b.Comment("A panic fails the run with an error naming its state; one deferred recover per run keeps")
	b.Comment("transitions free of defers.")
	panicErr := jen.Op("&").Add(emit.Flowcrt("StateError")).Values(jen.Id("State").Op(":").Id("id"),
		jen.Id("Err").Op(":").Add(emit.Flowcimpl("PanicError")).Call(jen.Id("id"), jen.Id("r")))
	b.Defer().Func().Params().Block(
		jen.If(jen.Id("r").Op(":=").Recover(), jen.Id("r").Op("!=").Nil()).Block(
			jen.Id("id").Op(":=").Id(n.IdsVar()).Index(jen.Id("step")),
			jen.List(failed(l)...).Op("=").List(recovered(l, panicErr)...),
		),
		jen.If(jen.Id("leave").Op("!=").Nil()).Block(jen.Id("leave").Call(jen.Err())),
		jen.If(jen.Id("end").Op("!=").Nil()).Block(jen.Id("end").Call(jen.Err())),
	).Call()
}

// quiet tells once per run whether anything happens between states, and
// takes ctx's channel for the quiet runs' cancellation test.
func quiet(b *jen.Group) {
	b.Comment("hooked: an observer, the state context or a session acts between states. A run with none")
	b.Comment("tests ctx's channel between states instead of calling ctx.Err.")
	b.Id("hooked").Op(":=").Id("w").Dot("cfg").Dot("StateContext").Op("||").Id("w").Dot("cfg").Dot("Observer").Op("!=").Nil().
		Op("||").Id("sess").Op("!=").Nil()
	b.Id("done").Op(":=").Id("ctx").Dot("Done").Call().Comment("nil if ctx cannot be canceled")
}

// transition is the body of the loop: one step and what follows it.
func (t writer) transition(body *jen.Group, n plan.Names, l *emit.Loop) {
	if l.Plain != nil {
		t.inPlace(body, n, l)
	}
	check := jen.If(jen.Err().Op("=").Id("ctx").Dot("Err").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(failWith(l, jen.Err())...))
	if l.Quiet {
		body.Id("sctx").Op(":=").Id("ctx")
		body.If(jen.Id("hooked")).Block(append([]jen.Code{check}, t.enter(n, l)...)...).Else().Add(canceled(l))
	} else {
		body.Add(check)
		body.Id("sctx").Op(":=").Id("ctx")
		for _, c := range t.enter(n, l) {
			body.Add(c)
		}
	}
	body.Var().Id("next").Id(n.Step)
	if l.Plain != nil {
		body.Var().Id("call").Id(n.CallType()).Comment("the handler of a plain state")
	}
	body.Switch(jen.Id("step")).BlockFunc(func(sw *jen.Group) {
		t.cases(sw, n, l)
		if l.Plain != nil {
			sw.Default().Block(
				jen.Comment("A plain state."),
				jen.List(jen.Id("call"), jen.Id("next")).Op("=").List(
					jen.Id(n.PlainVar()).Index(jen.Id("step")).Dot("call"),
					jen.Id(n.PlainVar()).Index(jen.Id("step")).Dot("next"),
				),
				jen.Switch(jen.Id("call")).BlockFunc(func(sw *jen.Group) { t.calls(sw, n, l.Plain.Handlers, l.Plain.Call, 3) }),
			)
		}
	})
	if l.Fold != nil {
		body.Add(l.Fold)
	}
	if l.Quiet {
		body.If(jen.Id("hooked")).Block(t.leave(l)...)
	} else {
		for _, c := range t.leave(l) {
			body.Add(c)
		}
	}
	stepErr := jen.Code(jen.Err())
	if l.Wrap != nil {
		stepErr = l.Wrap(jen.Err())
	}
	body.If(jen.Err().Op("!=").Nil()).Block(jen.Return(failWith(l, stepErr)...))
	body.Id("step").Op("=").Id("next")
}

// enter tells the hooks the state begins.
func (t writer) enter(n plan.Names, l *emit.Loop) []jen.Code {
	id := jen.Id(n.IdsVar()).Index(jen.Id("step"))
	var out []jen.Code
	if l.Ctx {
		out = append(out, jen.If(jen.Id("w").Dot("cfg").Dot("StateContext")).Block(
			jen.Id("sctx").Op("=").Add(emit.Flowcrt("WithState")).Call(jen.Id("ctx"), id),
		))
	}
	return append(out, jen.If(jen.Id("w").Dot("cfg").Dot("Observer").Op("!=").Nil()).Block(
		jen.List(jen.Id("sctx"), jen.Id("leave")).Op("=").Id("w").Dot("cfg").Dot("Observer").Dot("State").Call(jen.Id("sctx"), id),
		l.Entered,
	))
}

// leave tells the hooks the state has ended: the observer, and the save.
func (t writer) leave(l *emit.Loop) []jen.Code {
	out := []jen.Code{jen.If(jen.Id("leave").Op("!=").Nil()).Block(jen.Id("leave").Call(jen.Err()), jen.Id("leave").Op("=").Nil())}
	if l.Save != nil {
		out = append(out, l.Save)
	}
	return out
}

// cases dispatches on the step: each state but the plain ones calls its
// step.
func (t writer) cases(sw *jen.Group, n plan.Names, l *emit.Loop) {
	lhs := append(append([]jen.Code{jen.Id("next")}, l.Outs...), jen.Err())
	for _, s := range l.States {
		switch {
		case l.Plain != nil && l.Plain.Handler(s) != "":
		case l.Case != nil && l.Case(s) != nil:
			sw.Case(jen.Id(n.StepConst(s))).Block(l.Case(s)...)
		default:
			sw.Case(jen.Id(n.StepConst(s))).Block(jen.List(lhs...).Op("=").Add(l.Call(s)))
		}
	}
}

// canceled ends the run if ctx is done. It receives from done, the channel
// of ctx, without blocking, rather than calling ctx.Err: a nil test between
// states when ctx cannot be canceled, and no call when it can and is not.
// The general loop calls ctx.Err, which engines hook (Temporal's bridge
// context has no channel); their handlers are activities, never in place.
func canceled(l *emit.Loop) jen.Code {
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
func (t writer) inPlace(body *jen.Group, n plan.Names, l *emit.Loop) {
	p := l.Plain
	row := jen.Id(n.PlainVar()).Index(jen.Id("cur"))
	body.If(jen.Id("fast")).Block(
		jen.Comment("Handlers that write in place run plain states here while nothing happens between states."),
		jen.Comment("cur stays in a register; step tells the recover which state failed."),
		jen.Id("cur").Op(":=").Id("step"),
		jen.For(
			jen.Empty(),
			row.Clone().Dot("call").Op("!=").Id(n.NoCall()),
			jen.Id("cur").Op("=").Add(row.Clone()).Dot("next"),
		).BlockFunc(func(lb *jen.Group) {
			lb.Id("step").Op("=").Id("cur")
			lb.Add(canceled(l))
			lb.Var().Id("e").Error().Comment("not err, which the recover shares: this one can stay in a register")
			lb.Switch(row.Clone().Dot("call")).BlockFunc(func(sw *jen.Group) { t.calls(sw, n, p.Handlers, p.InPlace, 4) })
			lb.If(jen.Id("e").Op("!=").Nil()).Block(jen.Return(failWith(l, jen.Op("&").Add(emit.Flowcrt("StateError")).Values(
				jen.Id("State").Op(":").Id(n.IdsVar()).Index(jen.Id("cur")), jen.Id("Err").Op(":").Id("e")))...))
			for _, c := range p.InPlaceFold {
				lb.Add(c)
			}
		}),
		jen.If(jen.Id("step").Op("=").Id("cur"), jen.Id("step").Op("==").Add(until(n, l))).Block(jen.Break()),
	)
}

// calls dispatches a plain state on its handler, one case each: text, as
// it is made of names only.
func (t writer) calls(sw *jen.Group, n plan.Names, handlers []string, call func(string) []string, depth int) {
	indent := strings.Repeat("\t", depth)
	var text strings.Builder
	for _, h := range handlers {
		text.WriteString(indent + "case " + n.CallConst(h) + ":\n" + lines(indent+"\t", call(h), ""))
	}
	if ph := t.Bulk.Placeholder(text.String()); ph != "" {
		sw.Case(jen.Id(ph)).Block()
		return
	}
	for _, h := range handlers {
		sw.Case(jen.Id(n.CallConst(h))).BlockFunc(func(cb *jen.Group) {
			for _, st := range call(h) {
				cb.Op(st)
			}
		})
	}
}

// plainTable names the handlers of a loop's plain states, and gives each
// such state its handler and the step after it.
func (t writer) plainTable(f *jen.File, n plan.Names, l *emit.Loop) {
	p := l.Plain
	f.Line()
	f.Comment(n.CallType() + " names the handler a plain state calls; " + n.NoCall() + ": the state is not plain.")
	f.Type().Id(n.CallType()).Uint32()
	f.Line()
	f.Const().DefsFunc(func(d *jen.Group) {
		d.Id(n.NoCall()).Id(n.CallType()).Op("=").Iota()
		consts := make([]string, len(p.Handlers))
		for i, h := range p.Handlers {
			consts[i] = n.CallConst(h)
		}
		if ph := t.Bulk.Placeholder(lines("\t", consts, "")); ph != "" {
			d.Id(ph)
			return
		}
		for _, c := range consts {
			d.Id(c)
		}
	})
	var keys, rows []string
	for _, s := range l.States {
		if h := p.Handler(s); h != "" {
			keys = append(keys, n.StepConst(s))
			rows = append(rows, "{"+n.CallConst(h)+", "+p.Next(s)+"}")
		}
	}
	f.Line()
	f.Comment(n.PlainVar() + " gives each plain state its handler and the step after it. The loop runs those states")
	f.Comment("from here, not from a case each: a jump through a switch over every state would cost more than")
	f.Comment("the rest of a transition.")
	f.Var().Id(n.PlainVar()).Op("=").Index(jen.Len(jen.Id(n.IdsVar()))).Struct(
		jen.Id("call").Id(n.CallType()),
		jen.Id("next").Id(n.Step),
	).CustomFunc(emit.Multiline, func(vals *jen.Group) {
		if text, ok := emit.Aligned("\t", keys, rows); ok {
			if ph := t.Bulk.Placeholder(text); ph != "" {
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
func failed(l *emit.Loop) []jen.Code {
	if l.Result != nil && l.Works == "" {
		return []jen.Code{jen.Id("out"), jen.Err()}
	}
	return []jen.Code{jen.Err()}
}

// resultName names the loop's result besides err.
func resultName(l *emit.Loop) string {
	if l.Works != "" {
		return l.Works
	}
	return "out"
}

// Mock writes the mock handlers into the mock file; f is the workflow's.
func (t writer) Mock(_ *jen.File, d emit.Dialect, sh *plan.Plan) {
	f, n, m := t.MockFile, sh.Names, sh.Mock
	f.Line()
	f.Comment(n.Mock + " implements " + n.Handlers + " with canned responses, for tests and dry runs.")
	for _, c := range m.Doc {
		f.Comment(c)
	}
	f.Type().Id(n.Mock).Struct(jen.Id("mocks").Op("*").Add(emit.Flowcrun("Mocks")).Comment("unexported: handler methods are exported names"))
	if m.Marker != "" {
		f.Line()
		for _, c := range m.MarkerDoc {
			f.Comment(c)
		}
		f.Func().Params(jen.Id(n.Mock)).Id(m.Marker).Params().Block()
	}
	f.Line()
	f.Comment("New" + n.Mock + "Handlers returns handlers that answer from mocks.")
	f.Func().Id("New" + n.Mock + "Handlers").Params(jen.Id("mocks").Op("*").Add(emit.Flowcrun("Mocks"))).Id(n.Mock).Block(
		jen.Return(jen.Id(n.Mock).Values(jen.Id("mocks").Op(":").Id("mocks"))),
	)
	d.MockHelpers(f)
	// The simple handler methods come first, under one comment: a comment
	// each would be most of the output, and the slowest part to format.
	var simple, other []plan.Handler
	for _, h := range sh.Handlers {
		if h.MockDoc == nil && h.Answer != nil && emit.BulkSig(h.Sig) {
			simple = append(simple, h)
		} else {
			other = append(other, h)
		}
	}
	if len(simple) > 0 {
		f.Line()
		f.Comment("The methods below answer from the mock of the " + m.Caller + " that calls them.")
		// The first goes through jennifer, so that the file imports what
		// the signatures of the rest name.
		first := simple[0]
		f.Func().Params(jen.Id("m").Id(n.Mock)).Add(emit.SigCode(jen.Id(first.Name), first.Sig)).Block(mockBody(d, first)...)
		var text strings.Builder
		for _, h := range simple[1:] {
			text.WriteString("func (m " + n.Mock + ") " + h.Name)
			emit.Imports(nil).WriteSig(&text, h.Sig)
			text.WriteString(" {\n\t")
			emit.WriteMock(&text, h.Answer)
			text.WriteString("\n}\n")
		}
		if ph := t.MockBulk.Placeholder(text.String()); ph != "" {
			// A function, so that the formatter keeps it beside the first
			// method as it keeps methods together.
			f.Func().Id(ph).Params().Block()
		} else {
			for _, h := range simple[1:] {
				f.Func().Params(jen.Id("m").Id(n.Mock)).Add(emit.SigCode(jen.Id(h.Name), h.Sig)).Block(mockBody(d, h)...)
			}
		}
	}
	for _, h := range other {
		f.Line()
		if h.MockDoc == nil {
			f.Comment(h.Name + " answers from the mock of the " + m.Caller + " that calls it.")
		}
		for _, c := range h.MockDoc {
			f.Comment(c)
		}
		f.Func().Params(jen.Id("m").Id(n.Mock)).Add(emit.SigCode(jen.Id(h.Name), h.Sig)).Block(mockBody(d, h)...)
	}
	opts := jen.Id("opts").Op("...")
	if m.StateContext {
		opts = jen.Append(jen.Id("opts").Index(jen.Op(":").Len(jen.Id("opts")).Op(":").Len(jen.Id("opts"))), emit.Flowcrt("WithStateContext").Call()).Op("...")
	}
	f.Line()
	f.Comment("New" + n.Mock + " returns a " + n.Workflow + " whose handlers answer from mocks.")
	f.Func().Id("New"+n.Mock).Params(jen.Id("mocks").Op("*").Add(emit.Flowcrun("Mocks")), jen.Id("opts").Op("...").Add(emit.Flowcrt("Option"))).
		Op("*").Id(n.Workflow).Block(
		jen.Return(jen.Id("New"+n.Workflow).Call(jen.Id("New"+n.Mock+"Handlers").Call(jen.Id("mocks")), opts)),
	)
}

// sessions writes the methods that run a workflow as a session through
// flowcrt.Sessions, and runAt, which goes on from the state a checkpoint
// names.
func (writer) sessions(f *jen.File, d emit.Dialect, sh *plan.Plan) {
	n, ss := sh.Names, sh.Sessions
	d.Invoke(f)
	out := ss.Out
	if out.Field == "" {
		out = plan.SessionOut{Typ: ss.Value}
	}
	f.Line()
	emit.Doc(f, ss.Resume)
	emit.SessionMethod(f, n.Workflow, out, "Resume", "Resume", nil, nil)
	if ss.Decides {
		f.Line()
		decide := ss.Decide
		if decide == "" {
			decide = "Decide answers the approval that session sessionID waits for with decision, one of the " +
				"state's options, and continues the run."
		}
		emit.Doc(f, decide)
		emit.SessionMethod(f, n.Workflow, out, "Decide", "Decide", []jen.Code{jen.Id("decision").String()}, []jen.Code{jen.Id("decision")})
	}
	f.Line()
	for _, c := range ss.Doc {
		f.Comment(c)
	}
	fields := append([]jen.Code{
		jen.Id("Workflow").Op(":").Lit(sh.Workflow.ID),
		jen.Id("Schema").Op(":").Add(schema(ss)),
		jen.Id("Start").Op(":").Lit(sh.Workflow.Start.ID),
	}, d.SessionHooks()...)
	fields = append(fields, jen.Id("Run").Op(":").Id("w").Dot("runAt"))
	types := []jen.Code{emit.GoType(ss.Value), emit.GoType(ss.Input)}
	f.Func().Params(jen.Id("w").Op("*").Id(n.Workflow)).Id("sessions").Params().Op("*").Add(emit.Flowcimpl("Sessions")).Types(types...).Block(
		jen.Return(jen.Op("&").Add(emit.Flowcimpl("Sessions")).Types(types...).Custom(emit.Multiline, fields...)),
	)
	f.Line()
	f.Comment("runAt runs session sess on " + ss.Arg + " from the state a checkpoint names.")
	f.Func().Params(jen.Id("w").Op("*").Id(n.Workflow)).Id("runAt").Params(
		emit.CtxParam(), jen.Id("sess").Op("*").Add(emit.Flowcimpl("Session")), jen.Id(ss.Arg).Add(emit.GoType(ss.Value)), jen.Id("state").String(),
	).Params(emit.GoType(ss.Value), jen.Error()).BlockFunc(func(b *jen.Group) {
		b.Id("i").Op(":=").Qual("slices", "Index").Call(jen.Id(n.IdsVar()).Index(jen.Lit(1).Op(":").Lit(sh.Resumable+1)), jen.Id("state"))
		zero := jen.Id(ss.Arg)
		if ss.ZeroNil {
			zero = jen.Nil()
		}
		b.If(jen.Id("i").Op("<").Lit(0)).Block(jen.Return(zero, jen.Id("sess").Dot("UnknownState").Call(jen.Id("state"))))
		b.Id("step").Op(":=").Id(n.Step).Call(jen.Id("i").Op("+").Lit(1))
		for _, c := range d.RunAt() {
			b.Add(c)
		}
	})
}

// schema is the Schema of flowcrt.Sessions: the dialect's constant, or
// the literal.
func schema(ss *plan.SessionSpec) jen.Code {
	if ss.SchemaConst != "" {
		return jen.Id(ss.SchemaConst)
	}
	return jen.Lit(ss.Schema)
}

// mockBody is the body of h's mock method: its answer, when the plan
// holds it, else what the dialect writes.
func mockBody(d emit.Dialect, h plan.Handler) []jen.Code {
	if h.Answer != nil {
		return emit.MockCode(h.Answer)
	}
	return d.MockBody(h)
}
