package asl

import (
	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/codegen/internal/emit"
	"github.com/flowc-dev/flowc/ir"
)

// Agent State Language extensions: agent tasks with budgets and memory,
// Include and Workflow states, run-aware intrinsics, computed choice
// variables and structured approval prompts.

// runIntrinsics read the run instead of only their arguments.
var runIntrinsics = map[string]string{
	"States.CurrentCost":   "StatesCurrentCost",
	"States.CurrentTokens": "StatesCurrentTokens",
}

// intrinsicFn is the Fn (or Run) member of a compiled intrinsic call.
func (g *aslGen) intrinsicFn(c *ir.Intrinsic, fn jen.Code) (string, jen.Code) {
	if name, ok := runIntrinsics[c.Name]; ok {
		return "Run", al(name)
	}
	if c.Name == "States.RemainingBudget" {
		return "Run", al("RemainingBudget").Call(budget(g.runBudget()))
	}
	return "Fn", fn
}

// runBudget is the workflow's Budget, which every agent task carries.
func (g *aslGen) runBudget() *ir.Budget { return runBudgetIn(g.w.States) }

func runBudgetIn(states []*ir.State) *ir.Budget {
	for _, s := range states {
		if a := s.ASL.Agent; a != nil && a.RunLimit != nil {
			return a.RunLimit
		}
		for _, m := range s.ASL.Branches {
			if b := runBudgetIn(m.States); b != nil {
				return b
			}
		}
	}
	return nil
}

func budget(b *ir.Budget) jen.Code {
	if b == nil {
		return jen.Nil()
	}
	return jen.Op("&").Add(al("Budget")).CustomFunc(emit.Multiline, func(d *jen.Group) {
		if b.MaxTokens > 0 {
			d.Id("MaxTokens").Op(":").Lit(b.MaxTokens)
		}
		if b.MaxCost > 0 {
			d.Id("MaxCost").Op(":").Lit(b.MaxCost)
		}
		if b.Continue {
			d.Id("Continue").Op(":").True()
		}
		if b.UseFallback {
			d.Id("UseFallback").Op(":").True()
		}
		if len(b.Switches) > 0 {
			d.Id("Switches").Op(":").Index().Add(al("ModelSwitch")).CustomFunc(emit.Multiline, func(ss *jen.Group) {
				for _, s := range b.Switches {
					ss.CustomFunc(emit.Multiline, func(f *jen.Group) {
						optLit(f, "At", s.At)
						optLit(f, "Tokens", s.Tokens)
						f.Id("Model").Op(":").Lit(s.Model)
					})
				}
			})
		}
	})
}

// agentBody is the body of an agent task.
func (g *aslGen) agentBody(f *jen.File, s *ir.State, spec string) jen.Code {
	return jen.Id("x").Dot("AgentTask").Call(jen.Op("&").Id(spec), jen.Id("w").Dot("h").Dot(s.Handler.Name),
		jen.Op("&").Id(g.packageVar(f, s, "Agent", g.agent(s.ASL.Agent))))
}

// includeBody is the body of an Include or Workflow state: its compiled-in
// sub-workflow, or its handler.
func (g *aslGen) includeBody(f *jen.File, s *ir.State, spec string) jen.Code {
	inc := s.ASL.Include
	if inc.Inline && inc.Params != nil {
		return jen.Id("x").Dot("IncludeWith").Call(jen.Id(g.packageVar(f, s, "Params", g.template(inc.Params))),
			jen.Id(g.packageVar(f, s, "ParamChecks", paramChecks(inc.Checks))), jen.Id("w").Dot(g.machineMethod(s, 0)))
	}
	if inc.Inline {
		return jen.Id("x").Dot("Include").Call(jen.Id("w").Dot(g.machineMethod(s, 0)))
	}
	return jen.Id("x").Dot("Task").Call(jen.Op("&").Id(spec), jen.Id("w").Dot("h").Dot(s.Handler.Name))
}

// paramChecks renders the declarations of an Include's run-time
// parameters.
func paramChecks(cs []ir.ParamCheck) jen.Code {
	return jen.Index().Add(al("ParamCheck")).CustomFunc(emit.Multiline, func(d *jen.Group) {
		for _, c := range cs {
			d.CustomFunc(emit.Multiline, func(f *jen.Group) {
				f.Id("Name").Op(":").Lit(c.Name)
				optLit(f, "Type", c.Type)
				if len(c.Enum) > 0 {
					f.Id("Enum").Op(":").Add(emit.StringSlice(c.Enum))
				}
			})
		}
	})
}

// withMemory wraps a body with the memory reads of its state; mem is the
// state's memory block variable, "" when it has none.
func (g *aslGen) withMemory(s *ir.State, mem string, body jen.Code) jen.Code {
	if mem == "" || len(s.ASL.Memory.Reads) == 0 {
		return body
	}
	return jen.Id("x").Dot("Recalling").Call(jen.Op("&").Id(mem), body)
}

// remember emits the memory writes of a state that went well.
func (g *aslGen) remember(b *jen.Group, s *ir.State, mem string) {
	if mem == "" || len(s.ASL.Memory.Writes) == 0 {
		return
	}
	b.If(jen.Err().Op(":=").Id("x").Dot("Remember").Call(jen.Id("ctx"), jen.Op("&").Id(mem),
		jen.Id("cx"), jen.Id("out")), jen.Err().Op("!=").Nil()).Block(
		jen.Return(jen.Id(g.n.EndConst()), jen.Nil(), jen.Err()))
}

// memoryVar declares a state's memory block and returns its name, "" when
// it has none.
func (g *aslGen) memoryVar(f *jen.File, s *ir.State) string {
	m := s.ASL.Memory
	if m == nil {
		return ""
	}
	return g.packageVar(f, s, "Memory", al("Memory").CustomFunc(emit.Multiline, func(d *jen.Group) {
		if len(m.Reads) > 0 {
			d.Id("Reads").Op(":").Index().Add(al("MemoryRead")).CustomFunc(emit.Multiline, func(rs *jen.Group) {
				for _, r := range m.Reads {
					rs.Add(g.memoryRead(r))
				}
			})
		}
		if len(m.Writes) > 0 {
			d.Id("Writes").Op(":").Index().Add(al("MemoryWrite")).CustomFunc(emit.Multiline, func(ws *jen.Group) {
				for _, w := range m.Writes {
					ws.Values(jen.Id("Key").Op(":").Lit(w.Key), jen.Id("Value").Op(":").Add(g.template(w.Value)))
				}
			})
		}
	}))
}

func (g *aslGen) memoryRead(r *ir.MemoryRead) jen.Code {
	return jen.CustomFunc(emit.Multiline, func(d *jen.Group) {
		d.Id("Keys").Op(":").Add(emit.StringSlice(r.Keys))
		if r.InjectAt != nil {
			d.Id("InjectAt").Op(":").Add(g.path(r.InjectAt))
		}
		if r.Default != nil {
			d.Id("Default").Op(":").Add(g.template(r.Default))
		}
	})
}

// callRule renders a rule on a `Variable.$` intrinsic: the rule, over $,
// applied to the call's value.
func (g *aslGen) callRule(r *ir.ChoiceRule) *jen.Statement {
	plain := *r
	plain.Call = nil
	return jen.Func().Params(jen.Id("c").Op("*").Add(al("Choice"))).Bool().Block(
		jen.Return(g.rule(&plain)),
	).Call(jen.Id("c").Dot("With").Call(g.intrinsic(r.Call)))
}

func guardrails(g *ir.Guardrails) jen.Code {
	rules := func(rs []*ir.GuardRule) jen.Code {
		return jen.Index().Add(al("GuardRule")).CustomFunc(emit.Multiline, func(d *jen.Group) {
			for _, r := range rs {
				d.CustomFunc(emit.Multiline, func(f *jen.Group) {
					f.Id("Type").Op(":").Lit(r.Type)
					optLit(f, "Max", r.Max)
					if r.Block != nil {
						f.Id("Block").Op(":").Add(emit.StringSlice(r.Block))
					}
					if r.Pattern != "" {
						f.Id("Pattern").Op(":").Qual("regexp", "MustCompile").Call(jen.Lit(r.Pattern))
					}
					optLit(f, "Action", r.Action)
				})
			}
		})
	}
	return jen.Op("&").Add(al("Guardrails")).CustomFunc(emit.Multiline, func(d *jen.Group) {
		if len(g.Input) > 0 {
			d.Id("Input").Op(":").Add(rules(g.Input))
		}
		if len(g.Output) > 0 {
			d.Id("Output").Op(":").Add(rules(g.Output))
		}
	})
}

// startExecutionBody is the body of a Task that starts a nested execution
// of a compiled-in definition.
func (g *aslGen) startExecutionBody(s *ir.State) jen.Code {
	inc := s.ASL.Include
	return jen.Id("x").Dot("StartExecution").Call(jen.Lit(inc.StateMachine), jen.Lit(inc.Wait),
		jen.Id("w").Dot(g.machineMethod(s, 0)))
}

// agentModel renders an agent task's Model and Generation into its
// flowcrt.Agent; a task without them renders nothing.
func agentModel(d *jen.Group, a *ir.Agent) {
	if m := a.Model; m != nil {
		optLit(d, "Model", m.Preferred)
		if m.Fallback != "" {
			d.Id("Fallback").Op(":").Op("&").Add(al("ModelFallback")).CustomFunc(emit.Multiline, func(f *jen.Group) {
				f.Id("Model").Op(":").Lit(m.Fallback)
				if len(m.FallbackOn) > 0 {
					f.Id("On").Op(":").Add(emit.StringSlice(m.FallbackOn))
				}
			})
		}
	}
	g := a.Generation
	if g == nil {
		return
	}
	d.Id("Generation").Op(":").Op("&").Add(al("Generation")).CustomFunc(emit.Multiline, func(f *jen.Group) {
		for _, p := range []struct {
			name string
			v    *float64
		}{{"Temperature", g.Temperature}, {"TopP", g.TopP}} {
			if p.v != nil {
				f.Id(p.name).Op(":").Add(emit.Flowcimpl("Float")).Call(jen.Lit(*p.v))
			}
		}
		optLit(f, "MaxTokens", g.MaxTokens)
		if len(g.StopSequences) > 0 {
			f.Id("StopSequences").Op(":").Add(emit.StringSlice(g.StopSequences))
		}
	})
}
