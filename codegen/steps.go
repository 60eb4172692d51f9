package codegen

import (
	"strconv"
	"time"

	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/ir"
)

func quote(s string) string { return strconv.Quote(s) }

// steps emits the run loop, then each state's step, its transition and
// the fan-out it opens.
func (g *typedGen) steps(f *jen.File, t target) {
	n := g.n
	states, resumable := topFirst(g.w)
	var prelude []jen.Code
	var fold jen.Code
	plain := g.plainStates()
	if plain != nil {
		prelude, fold = g.plainBuffers(), g.fold()
	}
	t.loop(f, g.n, &loop{
		method: "run",
		doc:    "run executes the workflow from step; with a session it saves a checkpoint after every state.",
		params: []jen.Code{jen.Id("sess").Op("*").Add(rt("Session")), jen.Id("s").Id(n.State)},
		until:  jen.Id(n.endConst()),
		result: jen.Id(n.State), zero: jen.Id("s"), done: jen.Id("s"),
		states: states[:resumable],
		plain:  plain, prelude: prelude, fold: fold,
		call: func(s *ir.State) *jen.Statement {
			args := []jen.Code{jen.Id("sctx"), jen.Op("&").Id("s")}
			if takesSession(s) {
				args = append(args, jen.Id("sess"))
			}
			return jen.Id("w").Dot(stepMethod(s)).Call(args...)
		},
		ctx: true,
		save: jen.If(jen.Id("sess").Op("!=").Nil()).Block(
			jen.Comment("The state's outcome: the state to run next, or the approval the run waits for."),
			jen.Err().Op("=").Id("sess").Dot("Save").Call(jen.Id("ctx"), jen.Id(n.idsVar()).Index(jen.Id("next")), jen.Id("s"), jen.Err()),
		),
	})
	for _, s := range g.w.States {
		if s.Kind == ir.StateApproval {
			g.approvalStep(f, s)
			g.transitionFunc(f, s)
			continue
		}
		if hasPolicy(s) {
			g.policy(f, s)
		}
		if !g.inline(s) {
			g.step(f, s)
		}
		g.transitionFunc(f, s)
		if r := s.Next.Region; r != nil {
			g.region(f, r, t)
		}
	}
}

// inline: a plain state that needs no step method. The run loop takes it
// from its table of plain states, calls the handler and folds the outcome
// into the state, in one place for all of them. That keeps a plain state to
// a few lines of code, and a transition cheap. A plain state whose handler
// has no in-place form (see intoHandlers) is not inline: the tighter loop
// of in-place handlers could not call it.
func (g *typedGen) inline(s *ir.State) bool {
	return g.plain(s) && g.has[s.Handler.Name]
}

// plain: a state outside fan-outs whose handler returns only an update,
// with no policy, that goes on to one state or ends the run.
func (g *typedGen) plain(s *ir.State) bool {
	if s.Kind != ir.StateTask || s.Handler.Kind != ir.HandlerUpdate || hasPolicy(s) || g.w.RegionOf(s.ID) != nil {
		return false
	}
	return s.Next.Kind == ir.TransGoto || s.Next.Kind == ir.TransEnd
}

// plainStates tells the run loop how to run the inline states: from a
// table of their handlers and next steps, one call site per handler.
func (g *typedGen) plainStates() *plainSpec {
	if len(g.into) == 0 {
		return nil
	}
	return &plainSpec{
		handlers: g.into, handler: g.plainHandler, next: g.plainNext, call: g.plainCall, inPlace: g.inPlaceCall,
		inPlaceFold: []jen.Code{
			jen.Id("s").Dot("apply").Call(jen.Id("into")),
			jen.Op("*").Id("into").Op("=").Id(g.n.Update).Values(),
		},
	}
}

// plainHandler is the handler of an inline state, "" for the others.
func (g *typedGen) plainHandler(s *ir.State) string {
	if !g.inline(s) {
		return ""
	}
	return s.Handler.Name
}

// plainNext is the step after an inline state.
func (g *typedGen) plainNext(s *ir.State) string {
	if s.Next.Kind == ir.TransGoto && !s.Next.To.IsEnd() {
		return g.n.stepConst(g.w.State(s.Next.To.ID))
	}
	return g.n.endConst()
}

// plainCall calls a plain state's handler, which returns its update.
func (g *typedGen) plainCall(handler string) []string {
	return []string{"u, err = w.h." + handler + "(sctx, s)"}
}

// inPlaceCall calls the in-place form of a plain state's handler.
func (g *typedGen) inPlaceCall(handler string) []string {
	return []string{"e = w.into." + handler + "Into(ctx, s, into)"}
}

// plainBuffers are the updates of plain states: u, which a handler's
// result overwrites whole, and into, where the in-place handlers write,
// one per run, allocated only for handlers that implement n.Into, since it
// escapes to them. Those run plain states in a loop of their own when
// nothing happens between states (see nativeLoop.inPlace).
func (g *typedGen) plainBuffers() []jen.Code {
	return []jen.Code{
		jen.Var().Id("u").Id(g.n.Update).Comment("the update of a plain state"),
		jen.Comment("Handlers that implement " + g.n.Into + " write a plain state's update here."),
		jen.Var().Id("into").Op("*").Id(g.n.Update),
		jen.If(jen.Id("w").Dot("into").Op("!=").Nil()).Block(jen.Id("into").Op("=").New(jen.Id(g.n.Update))),
		jen.Id("fast").Op(":=").Id("into").Op("!=").Nil().Op("&&").Op("!").Id("w").Dot("cfg").Dot("StateContext").
			Op("&&").Id("w").Dot("cfg").Dot("Observer").Op("==").Nil().Op("&&").Id("sess").Op("==").Nil(),
	}
}

// fold is what the loop does after a plain state: tag its error with the
// state, or apply its update.
func (g *typedGen) fold() jen.Code {
	plain := jen.Id("call").Op("!=").Id(g.n.noCall())
	return jen.If(plain.Clone().Op("&&").Err().Op("!=").Nil()).Block(
		jen.Err().Op("=").Op("&").Add(rt("StateError")).Values(jen.Id("State").Op(":").Id(g.n.idsVar()).Index(jen.Id("step")), jen.Id("Err").Op(":").Err()),
	).Else().If(plain).Block(jen.Id("s").Dot("apply").Call(jen.Op("&").Id("u")))
}

// hasPolicy: states that retry, time out or catch run through flowcrt.Call,
// which also turns a panic into an error the catchers see.
func hasPolicy(s *ir.State) bool {
	return s.Timeout > 0 || len(s.Retry) > 0 || len(s.Catch) > 0 || s.Next.OnFailure != nil
}

func (g *typedGen) policy(f *jen.File, s *ir.State) {
	f.Line()
	f.Var().Id(g.n.policyVar(s)).Op("=").Add(rt("Policy")).CustomFunc(multiline, func(vals *jen.Group) { policyFields(vals, s) })
}

// retrier writes a rule with its fields in declaration order, for diffs.
func retrier(r *ir.Retrier) jen.Code {
	return jen.CustomFunc(multiline, func(vals *jen.Group) {
		vals.Id("Errors").Op(":").Add(stringSlice(r.Errors))
		vals.Id("MaxAttempts").Op(":").Lit(r.MaxAttempts)
		if r.Interval > 0 {
			vals.Id("Interval").Op(":").Add(duration(r.Interval))
		}
		vals.Id("BackoffRate").Op(":").Lit(r.BackoffRate)
		if r.MaxDelay > 0 {
			vals.Id("MaxDelay").Op(":").Add(duration(r.MaxDelay))
		}
		if r.Jitter {
			vals.Id("Jitter").Op(":").True()
		}
	})
}

func stringSlice(ss []string) *jen.Statement {
	return jen.Index().String().ValuesFunc(func(vals *jen.Group) {
		for _, s := range ss {
			vals.Lit(s)
		}
	})
}

// duration writes d in the largest whole unit: 30 * time.Second.
func duration(d time.Duration) *jen.Statement {
	units := []struct {
		size time.Duration
		name string
	}{{time.Hour, "Hour"}, {time.Minute, "Minute"}, {time.Second, "Second"}, {time.Millisecond, "Millisecond"}, {time.Microsecond, "Microsecond"}}
	for _, u := range units {
		if d%u.size == 0 {
			return jen.Lit(int(d/u.size)).Op("*").Qual("time", u.name)
		}
	}
	return jen.Qual("time", "Duration").Call(jen.Lit(int64(d)))
}
