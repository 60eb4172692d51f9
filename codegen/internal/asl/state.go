package asl

import (
	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/codegen/internal/emit"
	"github.com/flowc-dev/flowc/ir"
	"github.com/flowc-dev/flowc/ir/plan"
)

// stepSignature is the signature of every step method: it runs one state
// on its raw input and returns the next step and the state's output.
func (g *aslGen) stepSignature() *jen.Statement {
	return jen.Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("x").Op("*").Add(al("ASLExec")), jen.Id("in").Any()).
		Params(jen.Id(g.n.Step), jen.Any(), jen.Error())
}

// state emits a state's package-level spec and its step method, then the
// machines it holds.
func (g *aslGen) state(f *jen.File, t emit.Writer, s *ir.State) {
	a := s.ASL
	var spec string
	if a.Type != ir.ASLFail { // a Fail state has no processing of its own
		spec = g.ids.Fresh(g.n.Prefix + s.GoName + "State")
		f.Line()
		f.Var().Id(spec).Op("=").Add(g.spec(s))
	}
	f.Line()
	f.Comment(emit.StepMethod(s) + " runs " + string(a.Type) + " state " + emit.Quote(s.ID) + ".")
	if a.Comment != "" {
		f.Add(emit.Comment(a.Comment))
	}
	f.Func().Params(jen.Id("w").Op("*").Id(g.n.Workflow)).Id(emit.StepMethod(s)).Add(g.stepSignature()).BlockFunc(func(b *jen.Group) {
		g.stepBody(f, b, s, spec)
	})
	for _, m := range a.Branches {
		g.machine(f, t, g.p.MachineLoop(m))
	}
}

// machineMethod is the method that runs machine i of s: a Parallel
// branch, the Map iterator or the compiled-in child.
func (g *aslGen) machineMethod(s *ir.State, i int) string {
	return g.p.MachineLoop(s.ASL.Branches[i]).Entry
}

// spec renders the flowcrt.ASLState of a state.
func (g *aslGen) spec(s *ir.State) jen.Code {
	a := s.ASL
	return al("ASLState").CustomFunc(emit.Multiline, func(d *jen.Group) {
		d.Id("Name").Op(":").Lit(s.ID)
		if a.Type == ir.ASLTask || s.Handler != nil && a.Include != nil {
			d.Id("Task").Op(":").True()
		}
		g.pathField(d, "InputPath", a.InputPath)
		if a.Parameters != nil && a.Type != ir.ASLMap {
			d.Id("Parameters").Op(":").Add(g.template(a.Parameters))
		}
		if a.ResultSelector != nil {
			d.Id("ResultSelector").Op(":").Add(g.template(a.ResultSelector))
		}
		g.pathField(d, "ResultPath", a.ResultPath)
		g.pathField(d, "OutputPath", a.OutputPath)
		if len(s.Retry) > 0 {
			d.Id("Retry").Op(":").Index().Add(emit.Flowcimpl("Retrier")).CustomFunc(emit.Multiline, func(rs *jen.Group) {
				for _, r := range s.Retry {
					rs.Add(emit.Retrier(r))
				}
			})
		}
		if len(s.Catch) > 0 {
			d.Id("Catch").Op(":").Index().Add(al("ASLCatcher")).CustomFunc(emit.Multiline, func(cs *jen.Group) {
				for i, c := range s.Catch {
					cs.Add(g.catcher(c, a.CatchPaths[i], at(a.CatchAssign, i), at(a.CatchOutput, i)))
				}
			})
		}
		if s.Timeout > 0 {
			d.Id("Timeout").Op(":").Add(emit.Duration(s.Timeout))
		}
		if a.TimeoutPath != nil {
			d.Id("TimeoutPath").Op(":").Add(g.path(a.TimeoutPath))
		}
		g.heartbeatSpec(d, s)
		g.querySpec(d, a)
	})
}

func (g *aslGen) pathField(d *jen.Group, name string, f *ir.PathField) {
	switch {
	case f == nil:
		return
	case f.Null:
		d.Id(name).Op(":").Op("&").Add(al("PathField")).Values(jen.Id("Null").Op(":").True())
	default:
		d.Id(name).Op(":").Op("&").Add(al("PathField")).Values(jen.Id("Path").Op(":").Add(g.path(f.Path)))
	}
}

func (g *aslGen) catcher(c *ir.Catcher, rp *ir.PathField, assign, output *ir.Template) jen.Code {
	return jen.CustomFunc(emit.Multiline, func(d *jen.Group) {
		d.Id("Errors").Op(":").Add(emit.StringSlice(c.Errors))
		g.pathField(d, "ResultPath", rp)
		g.optTemplate(d, "Assign", assign)
		g.optTemplate(d, "Output", output)
	})
}

// stepBody emits the work of one state.
func (g *aslGen) stepBody(f *jen.File, b *jen.Group, s *ir.State, spec string) {
	a := s.ASL
	switch a.Type {
	case ir.ASLChoice:
		g.choiceStep(b, s, spec)
		return
	case ir.ASLFail:
		b.Return(jen.Id(g.n.EndConst()), jen.Nil(), al("Fail").Call(
			jen.Id("in"), jen.Id("x").Dot("Enter").Call(jen.Id("ctx"), jen.Lit(s.ID)),
			g.failField(a.Error, a.ErrorPath, a.ErrorCall, a.ErrorExpr), g.failField(a.Cause, a.CausePath, a.CauseCall, a.CauseExpr)))
		return
	}
	if a.Type == ir.ASLCheckpoint {
		b.Comment("A Checkpoint passes its input through; with a session, the run saves a checkpoint after it, as")
		b.Comment("after every top-level state. Inside a Parallel or Map it saves nothing.")
	}
	mem := g.memoryVar(f, s)
	b.Id("cx").Op(":=").Add(g.enter(s))
	b.List(jen.Id("out"), jen.Err()).Op(":=").Id("x").Dot("Do").Call(
		jen.Id("ctx"), jen.Op("&").Id(spec), jen.Id("cx"), jen.Id("in"), g.withMemory(s, mem, g.body(f, s, spec)))
	b.If(jen.Err().Op("!=").Nil()).BlockFunc(func(eb *jen.Group) {
		g.onError(eb, s, spec)
	})
	g.remember(b, s, mem)
	if a.Type == ir.ASLApproval && len(a.Rules) > 0 {
		g.routeOn(b, s, "out", "")
		return
	}
	b.Return(g.target(s.Next), jen.Id("out"), jen.Nil())
}

// body renders the flowcrt.Body of a state.
func (g *aslGen) body(f *jen.File, s *ir.State, spec string) jen.Code {
	a := s.ASL
	switch a.Type {
	case ir.ASLTask:
		if a.Agent != nil {
			return g.agentBody(f, s, spec)
		}
		if a.Include != nil {
			return g.startExecutionBody(s)
		}
		if plan.IsCallback(s) {
			return g.callbackBody(s, spec)
		}
		return jen.Id("x").Dot("Task").Call(jen.Op("&").Id(spec), jen.Id("w").Dot("h").Dot(s.Handler.Name))
	case ir.ASLInclude, ir.ASLWorkflow:
		return g.includeBody(f, s, spec)
	case ir.ASLPass:
		if a.Result != nil {
			return al("PassResult").Call(jen.Id(g.packageVar(f, s, "Result", g.template(a.Result))))
		}
	case ir.ASLWait:
		return jen.Id("x").Dot("Wait").Call(jen.Op("&").Id(g.packageVar(f, s, "Wait", g.wait(a))))
	case ir.ASLParallel:
		return jen.Id("x").Dot("Parallel").CallFunc(func(c *jen.Group) {
			c.Lit(s.ID)
			for i := range a.Branches {
				c.Id("w").Dot(g.machineMethod(s, i))
			}
		})
	case ir.ASLMap:
		if a.Distributed != nil {
			return g.distributedBody(f, s)
		}
		return jen.Id("x").Dot("Map").Call(jen.Lit(s.ID), jen.Op("&").Id(g.packageVar(f, s, "Items", g.mapSpec(a))), jen.Id("w").Dot(g.machineMethod(s, 0)))
	case ir.ASLApproval:
		return jen.Id("x").Dot("Approval").Call(g.approvalRequest(s), jen.Lit(g.p.Checkpointed(s)))
	case ir.ASLDebate:
		return jen.Id("x").Dot("Debate").CallFunc(func(c *jen.Group) {
			c.Lit(s.ID)
			c.Op("&").Id(g.packageVar(f, s, "Debate", g.debate(a.Debate)))
			for _, h := range a.Debate.Agents {
				c.Id("w").Dot("h").Dot(h.Name)
			}
		})
	}
	return al("Identity") // Pass without Result, Succeed, Checkpoint
}

// onError emits what a failed state does: its catchers, then failure.
func (g *aslGen) onError(b *jen.Group, s *ir.State, spec string) {
	a := s.ASL
	g.callbackStop(b, s)
	if a.Type == ir.ASLApproval && g.p.Checkpointed(s) { // a session saves the run waiting there
		b.If(emit.Flowcrt("IsInterrupted").Call(jen.Err())).Block(
			jen.Return(jen.Id(g.n.EndConst()), jen.Id("in"), jen.Err()).Comment("the run waits here: save its input"),
		)
	}
	if a.Type == ir.ASLApproval && s.Next.Kind == ir.TransSwitch && s.Next.Default != nil {
		b.Comment("An approval that times out takes the Default.")
		b.If(al("IsTimeout").Call(jen.Err())).Block(jen.Return(g.ref(*s.Next.Default), jen.Id("in"), jen.Nil()))
	}
	if len(s.Catch) == 0 {
		b.Return(jen.Id(g.n.EndConst()), jen.Nil(), jen.Err())
		return
	}
	b.List(jen.Id("i"), jen.Id("out"), jen.Err()).Op(":=").Id(spec).Dot("Caught").Call(jen.Id("cx"), jen.Id("in"), jen.Err())
	b.Switch(jen.Id("i")).BlockFunc(func(sw *jen.Group) {
		for i, c := range s.Catch {
			sw.Case(jen.Lit(i)).Block(jen.Return(g.ref(c.Next), jen.Id("out"), jen.Nil()))
		}
	})
	b.Return(jen.Id(g.n.EndConst()), jen.Nil(), jen.Err())
}

// target is the step after a state that went well.
func (g *aslGen) target(t *ir.Transition) jen.Code {
	if t.Kind == ir.TransGoto {
		return g.ref(t.To)
	}
	return jen.Id(g.n.EndConst())
}

// ref is the step of a state; ASL references always name a state of the
// same scope, which the front-end has checked.
func (g *aslGen) ref(r ir.Ref) *jen.Statement {
	return jen.Id(g.n.StepConst(g.byID[r.ID]))
}

// packageVar declares a package-level variable for a state and returns its
// name.
func (g *aslGen) packageVar(f *jen.File, s *ir.State, what string, value jen.Code) string {
	name := g.ids.Fresh(g.n.Prefix + s.GoName + what)
	f.Var().Id(name).Op("=").Add(value)
	f.Line()
	return name
}

func (g *aslGen) wait(a *ir.ASLState) jen.Code {
	w := a.Wait
	return al("Wait").CustomFunc(emit.Multiline, func(d *jen.Group) {
		switch {
		case w.Seconds != nil:
			d.Id("Seconds").Op(":").Lit(*w.Seconds)
			d.Id("HasSeconds").Op(":").True()
		case w.SecondsPath != nil:
			d.Id("SecondsPath").Op(":").Add(g.path(w.SecondsPath))
		case w.TimestampPath != nil:
			d.Id("TimestampPath").Op(":").Add(g.path(w.TimestampPath))
		case a.SecondsExpr != nil:
			d.Id("SecondsExpr").Op(":").Add(g.template(a.SecondsExpr))
		case a.TimestampExpr != nil:
			d.Id("TimestampExpr").Op(":").Add(g.template(a.TimestampExpr))
		default:
			d.Id("Timestamp").Op(":").Lit(w.Timestamp)
		}
	})
}

func (g *aslGen) mapSpec(a *ir.ASLState) jen.Code {
	return al("MapSpec").CustomFunc(emit.Multiline, func(d *jen.Group) {
		if a.ItemsPath != nil {
			d.Id("ItemsPath").Op(":").Add(g.path(a.ItemsPath))
		}
		if a.Parameters != nil {
			d.Id("ItemSelector").Op(":").Add(g.template(a.Parameters))
		}
		if a.MaxConcurrency > 0 {
			d.Id("MaxConcurrency").Op(":").Lit(a.MaxConcurrency)
		}
		if a.MaxConcurrencyPath != nil {
			d.Id("MaxConcurrencyPath").Op(":").Add(g.path(a.MaxConcurrencyPath))
		}
		g.optTemplate(d, "Items", a.Items)
		g.optTemplate(d, "MaxConcurrencyExpr", a.ConcurrencyExpr)
	})
}

func (g *aslGen) approvalRequest(s *ir.State) jen.Code {
	ap := s.ASL.Approval
	return emit.Flowcrt("ApprovalRequest").CustomFunc(emit.Multiline, func(d *jen.Group) {
		d.Id("State").Op(":").Lit(s.ID)
		d.Id("Prompt").Op(":").Lit(ap.Prompt)
		if ap.PromptTemplate != nil {
			d.Id("PromptTemplate").Op(":").Add(g.template(ap.PromptTemplate))
		}
		if len(ap.Options) > 0 {
			d.Id("Options").Op(":").Add(emit.StringSlice(ap.Options))
		}
		if ap.Timeout > 0 {
			d.Id("Timeout").Op(":").Add(emit.Duration(ap.Timeout))
		}
	})
}

func (g *aslGen) debate(d *ir.Debate) jen.Code {
	return al("DebateSpec").CustomFunc(emit.Multiline, func(c *jen.Group) {
		if d.TopicPath != nil {
			c.Id("TopicPath").Op(":").Add(g.path(d.TopicPath))
		} else {
			c.Id("Topic").Op(":").Lit(d.Topic)
		}
		c.Id("Rounds").Op(":").Lit(d.Rounds)
		c.Id("Agents").Op(":").Add(emit.StringSlice(d.Names))
	})
}

func (g *aslGen) agent(a *ir.Agent) jen.Code {
	return emit.Flowcrt("Agent").CustomFunc(emit.Multiline, func(d *jen.Group) {
		d.Id("Name").Op(":").Lit(a.Name)
		for _, f := range []struct {
			name  string
			value any
		}{
			{"Memory", a.Memory}, {"Context", a.Context}, {"Tools", a.Tools},
			{"Budget", a.Budget}, {"Guardrails", a.Guardrails}, {"Reasoning", a.Reasoning},
		} {
			if f.value != nil {
				d.Id(f.name).Op(":").Add(plainValue(f.value))
			}
		}
		if a.Limit != nil {
			d.Id("Limit").Op(":").Add(budget(a.Limit))
		}
		if a.RunLimit != nil {
			d.Id("RunLimit").Op(":").Add(budget(a.RunLimit))
		}
		if a.Guards != nil {
			d.Id("Guards").Op(":").Add(guardrails(a.Guards))
		}
		agentModel(d, a)
	})
}
