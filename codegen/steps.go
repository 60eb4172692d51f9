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
	states, resumable := g.stepOrder()
	vars, fold := g.fold(states[:resumable])
	t.loop(f, g.n, &loop{
		method: "run",
		doc:    "run executes the workflow from step; with a session it saves a checkpoint after every state.",
		params: []jen.Code{jen.Id("sess").Op("*").Add(rt("Session")), jen.Id("s").Id(n.State)},
		until:  jen.Id(n.endConst()),
		result: jen.Id(n.State), zero: jen.Id("s"), done: jen.Id("s"),
		states: states[:resumable],
		inline: g.inlineCase, vars: vars, fold: fold,
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

// inline: a plain state, one outside fan-outs whose handler returns only
// an update, with no policy, that goes on to one state or ends the run,
// needs no step method: its case in the loop calls the handler, and the
// loop folds the outcome into the state after the switch, in one place for
// all of them. That keeps a plain state to a few lines of code, and the
// loop small enough that a transition stays cheap.
func (g *typedGen) inline(s *ir.State) bool {
	if s.Kind != ir.StateTask || s.Handler.Kind != ir.HandlerUpdate || hasPolicy(s) || g.w.RegionOf(s.ID) != nil {
		return false
	}
	return s.Next.Kind == ir.TransGoto || s.Next.Kind == ir.TransEnd
}

// inlineCase is the case of an inline state in the run loop, nil for the
// others: plain text, as it is made of names only.
func (g *typedGen) inlineCase(s *ir.State) []string {
	if !g.inline(s) {
		return nil
	}
	next := g.n.endConst()
	if s.Next.Kind == ir.TransGoto && !s.Next.To.IsEnd() {
		next = g.n.stepConst(g.w.State(s.Next.To.ID))
	}
	return []string{"u, err = w.h." + s.Handler.Name + "(sctx, s)", "next, plain = " + next + ", true"}
}

// fold is what the loop does after an inline state: tag its error with the
// state, or apply its update.
func (g *typedGen) fold(states []*ir.State) (vars []jen.Code, fold jen.Code) {
	for _, s := range states {
		if !g.inline(s) {
			continue
		}
		vars = []jen.Code{
			jen.Var().Id("u").Id(g.n.Update).Comment("the update of an inline state"),
			jen.Id("plain").Op(":=").False(),
		}
		fold = jen.If(jen.Id("plain").Op("&&").Err().Op("!=").Nil()).Block(
			jen.Err().Op("=").Op("&").Add(rt("StateError")).Values(jen.Id("State").Op(":").Id(g.n.idsVar()).Index(jen.Id("step")), jen.Id("Err").Op(":").Err()),
		).Else().If(jen.Id("plain")).Block(
			jen.Id("s").Dot("apply").Call(jen.Id("u")),
		)
		return vars, fold
	}
	return nil, nil
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
