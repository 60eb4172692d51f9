package codegen

import (
	"strconv"
	"time"

	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/ir"
)

func quote(s string) string { return strconv.Quote(s) }

func (g *typedGen) workflowType(f *jen.File) {
	n := g.n
	f.Comment(n.Workflow + " runs the workflow. It is safe for concurrent use: every Run has its own state.")
	f.Type().Id(n.Workflow).Struct(
		jen.Id("h").Id(n.Handlers),
		jen.Id("cfg").Add(rt("Config")),
	)
	f.Line()
	f.Comment("New" + n.Workflow + " returns the workflow over your handlers.")
	f.Func().Id("New"+n.Workflow).Params(jen.Id("h").Id(n.Handlers), jen.Id("opts").Op("...").Add(rt("Option"))).
		Op("*").Id(n.Workflow).Block(
		jen.Return(jen.Op("&").Id(n.Workflow).Custom(multiline,
			jen.Id("h").Op(":").Id("h"),
			jen.Id("cfg").Op(":").Add(rt("NewConfig")).Call(jen.Id("opts").Op("...")),
		)),
	)
	g.stepEnum(f)
	g.runLoop(f)
}

func (g *typedGen) stepEnum(f *jen.File) {
	n := g.n
	f.Line()
	f.Comment(n.Step + " names the state a run is in; the zero value means the run is over.")
	f.Type().Id(n.Step).Int()
	f.Line()
	f.Const().DefsFunc(func(d *jen.Group) {
		d.Id(n.endConst()).Id(n.Step).Op("=").Iota()
		for _, s := range g.w.States {
			d.Id(n.stepConst(s)).Comment(quote(s.ID))
		}
	})
	f.Line()
	f.Comment(n.prefix + "StateIDs maps each step to its state id, for errors.")
	f.Var().Id(n.prefix+"StateIDs").Op("=").Index(jen.Op("...")).String().CustomFunc(multiline, func(vals *jen.Group) {
		for _, s := range g.w.States {
			vals.Id(n.stepConst(s)).Op(":").Lit(s.ID)
		}
	})
}

func (g *typedGen) runLoop(f *jen.File) {
	n := g.n
	start := g.w.State(g.w.Start.ID)
	f.Line()
	f.Comment("Run executes the workflow from state " + quote(start.ID) + " and returns the final state.")
	f.Comment("On failure it returns the state as it was when the failing state began, and the error.")
	if g.hasApprovals() {
		f.Comment("An approval state without a decision stops it with an *flowcrt.Interrupted error; run a session")
		f.Comment("(Invoke) to continue such a run later.")
	}
	f.Func().Params(jen.Id("w").Op("*").Id(n.Workflow)).Id("Run").
		Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("in").Id(n.State)).
		Params(jen.Id(n.State), jen.Error()).Block(
		jen.Return(jen.Id("w").Dot("run").Call(jen.Id("ctx"), jen.Nil(), jen.Id("in"), jen.Id(n.stepConst(start)))),
	)
	f.Line()
	f.Comment("run executes the workflow from step; with a session it saves a checkpoint after every state.")
	f.Func().Params(jen.Id("w").Op("*").Id(n.Workflow)).Id("run").
		Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("sess").Op("*").Add(rt("Session")), jen.Id("s").Id(n.State), jen.Id("step").Id(n.Step)).
		Params(jen.Id("out").Id(n.State), jen.Err().Error()).Block(
		jen.Comment("A panicking handler fails the run with an error naming its state."),
		jen.Comment("One deferred recover per run keeps transitions free of defers."),
		jen.Defer().Func().Params().Block(
			jen.If(jen.Id("r").Op(":=").Recover(), jen.Id("r").Op("!=").Nil()).Block(
				jen.Id("id").Op(":=").Id(n.prefix+"StateIDs").Index(jen.Id("step")),
				jen.List(jen.Id("out"), jen.Err()).Op("=").List(jen.Id("s"), jen.Op("&").Add(rt("StateError")).Custom(multiline,
					jen.Id("State").Op(":").Id("id"),
					jen.Id("Err").Op(":").Add(rt("PanicError")).Call(jen.Id("id"), jen.Id("r")),
				)),
			),
		).Call(),
		jen.For(jen.Id("step").Op("!=").Id(n.endConst())).Block(
			jen.If(jen.Err().Op("=").Id("ctx").Dot("Err").Call(), jen.Err().Op("!=").Nil()).Block(
				jen.Return(jen.Id("s"), jen.Err()),
			),
			jen.Switch(jen.Id("step")).BlockFunc(func(sw *jen.Group) {
				for _, s := range g.w.States {
					if g.w.RegionOf(s.ID) != nil {
						continue // run by its fan-out, on a branch's copy of the state
					}
					args := []jen.Code{jen.Id("ctx"), jen.Op("&").Id("s")}
					if takesSession(s) {
						args = append(args, jen.Id("sess"))
					}
					sw.Case(jen.Id(n.stepConst(s))).Block(
						jen.List(jen.Id("step"), jen.Err()).Op("=").Id("w").Dot(stepMethod(s)).Call(args...),
					)
				}
			}),
			jen.If(jen.Id("sess").Op("!=").Nil()).Block(
				jen.Comment("The state's outcome: the state to run next, or the approval the run waits for."),
				jen.Err().Op("=").Id("sess").Dot("Save").Call(jen.Id("ctx"), jen.Id(n.prefix+"StateIDs").Index(jen.Id("step")), jen.Id("s"), jen.Err()),
			),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Id("s"), jen.Err())),
		),
		jen.Return(jen.Id("s"), jen.Nil()),
	)
	g.sessions(f)
}

func (g *typedGen) steps(f *jen.File) {
	for _, s := range g.w.States {
		if s.Kind == ir.StateApproval {
			g.approvalStep(f, s)
			continue
		}
		if hasPolicy(s) {
			g.policy(f, s)
		}
		g.step(f, s)
		if r := s.Next.Region; r != nil {
			g.region(f, r)
		}
	}
}

// hasPolicy: states that retry, time out or catch run through flowcrt.Call,
// which also turns a panic into an error the catchers see.
func hasPolicy(s *ir.State) bool {
	return s.Timeout > 0 || len(s.Retry) > 0 || len(s.Catch) > 0 || s.Next.OnFailure != nil
}

func (g *typedGen) policy(f *jen.File, s *ir.State) {
	f.Line()
	f.Var().Id(g.n.policyVar(s)).Op("=").Add(rt("Policy")).CustomFunc(multiline, func(vals *jen.Group) {
		vals.Id("State").Op(":").Lit(s.ID)
		if s.Timeout > 0 {
			vals.Id("Timeout").Op(":").Add(duration(s.Timeout))
		}
		if len(s.Retry) > 0 {
			vals.Id("Retry").Op(":").Index().Add(rt("Retrier")).ValuesFunc(func(rs *jen.Group) {
				for _, r := range s.Retry {
					rs.Add(retrier(r))
				}
			})
		}
	})
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
