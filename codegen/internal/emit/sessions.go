package emit

import (
	"github.com/dave/jennifer/jen"

	"github.com/flowc-dev/flowc/ir/plan"
)

// DecideAt emits DecideAt, for a workflow whose runs can stop inside
// fan-outs, where several stops may wait at once.
func DecideAt(f *jen.File, workflow string, out plan.SessionOut) {
	f.Line()
	Doc(f, "DecideAt answers one of the stops that session sessionID waits at, the one key names (the Key of "+
		"a flowcrt.Pending in the *flowcrt.Interrupted error's Stops, e.g. \"Map/3/Approve\"), with decision, "+
		"one of its options, and continues the run: branches that finished are not run again, the answered one "+
		"goes on from its stop, the others that wait stop again. Decide answers the only stop that waits.")
	SessionMethod(f, workflow, out, "DecideAt", "DecideAt",
		[]jen.Code{jen.Id("key").String(), jen.Id("decision").String()}, []jen.Code{jen.Id("key"), jen.Id("decision")})
}

// SessionMethod emits the method name, which hands its arguments to
// method of flowcrt.Sessions.
func SessionMethod(f *jen.File, workflow string, out plan.SessionOut, name, method string, params, args []jen.Code) {
	call := jen.Id("w").Dot("sessions").Call().Dot(method).Call(
		append([]jen.Code{jen.Id("ctx"), jen.Op("&").Id("w").Dot("cfg"), jen.Id("sessionID")}, args...)...)
	body := []jen.Code{jen.Return(call)}
	if out.Field != "" {
		body = []jen.Code{
			jen.List(jen.Id("s"), jen.Err()).Op(":=").Add(call),
			jen.Return(jen.Id("s").Dot(out.Field), jen.Err()),
		}
	}
	f.Func().Params(jen.Id("w").Op("*").Id(workflow)).Id(name).
		Params(append([]jen.Code{CtxParam(), jen.Id("sessionID").String()}, params...)...).
		Params(GoType(out.Typ), jen.Error()).Block(body...)
}
