package asl

import (
	"slices"

	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/codegen/internal/emit"
	"github.com/flowc-dev/flowc/ir"
	"github.com/flowc-dev/flowc/ir/plan"
)

// The callback pattern of Step Functions (runtime/impl/asl/callback.go): a
// Task whose Resource ends in .waitForTaskToken hands its handler a task
// token and waits for a success or failure sent for it, which the
// workflow's SendTaskSuccess and SendTaskFailure methods deliver.

func hasCallbacks(w *ir.Workflow) bool {
	return slices.ContainsFunc(ir.AllStates(w.States), plan.IsCallback)
}

// durableCallback reports whether a run of a session stops at callback
// state s, its checkpoint holding the token: at a top-level state or one
// of a compiled-in child it runs (SaveChild saves that). Inside a Parallel
// branch or a Map iteration, compiled-in children included, the state
// stops its branch instead (runtime/impl/asl/callback_branch.go).
func (g *aslGen) durableCallback(s *ir.State) bool {
	return g.p.Checkpointed(s)
}

// callbackBody renders the body of a callback Task state.
func (g *aslGen) callbackBody(s *ir.State, spec string) jen.Code {
	heartbeat := jen.Lit(0)
	if s.ASL.Heartbeat > 0 {
		heartbeat = emit.Duration(s.ASL.Heartbeat)
	}
	return jen.Id("x").Dot("Callback").Call(jen.Op("&").Id(spec), jen.Id("w").Dot("h").Dot(s.Handler.Name), heartbeat, jen.Lit(g.durableCallback(s)))
}

// enter renders the context object of state s being entered.
func (g *aslGen) enter(s *ir.State) jen.Code {
	method := "Enter"
	if plan.IsCallback(s) {
		method = "EnterCallback"
	}
	return jen.Id("x").Dot(method).Call(jen.Id("ctx"), jen.Lit(s.ID))
}

// callbackStop emits what a durable callback state does when its run stops
// to wait for the token: the checkpoint saves the state's input.
func (g *aslGen) callbackStop(b *jen.Group, s *ir.State) {
	if !plan.IsCallback(s) || !g.durableCallback(s) {
		return
	}
	b.If(emit.Flowcimpl("IsWaitingForTaskToken").Call(jen.Err())).Block(
		jen.Return(jen.Id(g.n.EndConst()), jen.Id("in"), jen.Err()).Comment("the run waits here for the task token: save its input"),
	)
}

// callbackAPI emits SendTaskSuccess, SendTaskFailure and
// SendTaskHeartbeat on a workflow that has a callback Task state.
func (g *aslGen) callbackAPI(f *jen.File) {
	if !hasCallbacks(g.w) {
		return
	}
	wf := g.n.Workflow
	token := jen.Id("token").String()
	f.Line()
	emit.Doc(f, "SendTaskSuccess completes the Task state that waits for token (its $$.Task.Token) with output, a JSON "+
		"value, as its result, as Step Functions' SendTaskSuccess does. A session waiting at the state goes on from "+
		"its checkpoint, and its output (or where it stops next) is returned; a run waiting in this process goes on "+
		"in its own goroutine, and nil is returned. A token that is unknown, used already or timed out is refused "+
		"with an error wrapping flowcrt.ErrTaskToken*, and nothing runs.")
	f.Func().Params(jen.Id("w").Op("*").Id(wf)).Id("SendTaskSuccess").
		Params(emit.CtxParam(), token, jen.Id("output").Qual("encoding/json", "RawMessage")).Params(jen.Any(), jen.Error()).Block(
		jen.Return(jen.Id("w").Dot("sessions").Call().Dot("SendTaskSuccess").Call(jen.Id("ctx"), jen.Op("&").Id("w").Dot("cfg"), jen.Id("token"), jen.Id("output"))),
	)
	f.Line()
	emit.Doc(f, "SendTaskFailure fails the Task state that waits for token with the error name and cause, which its Retry "+
		"and Catch rules see; otherwise as SendTaskSuccess.")
	f.Func().Params(jen.Id("w").Op("*").Id(wf)).Id("SendTaskFailure").
		Params(emit.CtxParam(), token, jen.Id("name"), jen.Id("cause").String()).Params(jen.Any(), jen.Error()).Block(
		jen.Return(jen.Id("w").Dot("sessions").Call().Dot("SendTaskFailure").Call(jen.Id("ctx"), jen.Op("&").Id("w").Dot("cfg"), jen.Id("token"), jen.Id("name"), jen.Id("cause"))),
	)
	f.Line()
	emit.Doc(f, "SendTaskHeartbeat renews the HeartbeatSeconds of the Task state that waits for token; nothing runs.")
	f.Func().Params(jen.Id("w").Op("*").Id(wf)).Id("SendTaskHeartbeat").
		Params(emit.CtxParam(), token).Error().Block(
		jen.Return(jen.Id("w").Dot("sessions").Call().Dot("SendTaskHeartbeat").Call(jen.Id("ctx"), jen.Op("&").Id("w").Dot("cfg"), jen.Id("token"))),
	)
}

// heartbeatSpec renders the HeartbeatSecondsPath or HeartbeatSeconds
// expression of a callback state; a static HeartbeatSeconds is an argument
// of its body.
func (g *aslGen) heartbeatSpec(d *jen.Group, s *ir.State) {
	if !plan.IsCallback(s) {
		return
	}
	if s.ASL.HeartbeatPath != nil {
		d.Id("HeartbeatPath").Op(":").Add(g.path(s.ASL.HeartbeatPath))
	}
	g.optTemplate(d, "HeartbeatExpr", s.ASL.HeartbeatExpr)
}
