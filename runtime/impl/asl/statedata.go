package asl

import (
	"context"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// A session's history records the input and output of the states inside
// Maps and Parallels (issue 36), as the executor alone knows them: when
// the run's observer takes them (impl.StateData, checked once per run in
// NewASLExec), a state reports its raw input when it starts (Do, a
// Choice's Input, Fail) and its output when it ends well (Do, Chosen, a
// catcher's output).

// entered reports the raw input of the state ctx visits.
func (x *ASLExec) entered(ctx context.Context, raw any) {
	if x != nil && x.data != nil {
		x.data.Entered(ctx, raw)
	}
}

// succeeded reports the output of the state ctx visits.
func (x *ASLExec) succeeded(ctx context.Context, out any) {
	if x != nil && x.data != nil {
		x.data.Succeeded(ctx, out)
	}
}

// reportData marks ctx, the context of a Map or Parallel state's items,
// as reporting its states' data.
func (x *ASLExec) reportData(ctx context.Context) context.Context {
	if x.data == nil {
		return ctx
	}
	return impl.ReportsData(ctx, x.cfg)
}
