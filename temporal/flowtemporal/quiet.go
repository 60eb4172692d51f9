package flowtemporal

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"go.temporal.io/sdk/workflow"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// States that run no activity (a Pass, a Choice, a Succeed, a Fail, a
// Wait) would leave no event of their own in the workflow's history, and
// no trace in a session's history read from it. Runs started since the
// change quietStatesChange record each visit of one, once it ends, as a
// side effect (a marker), which readHistory reads as the state's
// state_entered and state_succeeded or state_failed. Runs started before
// it replay without those markers: GetVersion tells them apart.
const quietStatesChange = "flowc-quiet-states"

// recordsQuietStates reports whether the run records its quiet states:
// the version check's marker is the first command of a run that does.
func recordsQuietStates(wctx workflow.Context) bool {
	return workflow.GetVersion(wctx, quietStatesChange, workflow.DefaultVersion, 1) >= 1
}

// quietVisit is the side effect of a quiet state's visit.
type quietVisit struct {
	Quiet   string    `json:"flowc_quiet_state"`
	Entered time.Time `json:"entered,omitzero"` // workflow time; markers recorded before it have none
	Error   string    `json:"error,omitempty"`
	Cause   string    `json:"cause,omitempty"`
}

// quietStates is the observer that records the quiet states' visits: a
// visit during which the run scheduled no activity and recorded no other
// visit (a fan-out whose items are all quiet shows its items). A Pass or
// a Choice never yields, so no other coroutine does either meanwhile.
//
// A visit's end also runs when the SDK tears down a coroutine blocked in
// it (eviction from the sticky cache, a worker's stop): its Close ends
// the coroutine with runtime.Goexit, and the generated code ends the
// state in a defer. The workflow API then panics ("illegal access from
// outside of workflow context"), and nothing done would be kept anyway:
// a visit whose coroutine is still parked in one of its waits records
// nothing.
type quietStates struct {
	r      *runState
	visits int // recorded
}

type visitKey struct{}

// visit is a state's visit under way.
type visit struct {
	parked int // the waits in it that have not returned
}

// park runs wait, a wait of ctx's coroutine (a timer, another coroutine,
// a signal), counted on the visit of ctx's state while it lasts. The count
// is not undone in a defer: a coroutine torn down in wait leaves it, and
// the visit's end sees it (quietStates).
func park(ctx context.Context, wait func()) {
	v, _ := ctx.Value(visitKey{}).(*visit)
	if v == nil {
		wait()
		return
	}
	v.parked++
	wait()
	v.parked--
}

func (*quietStates) Run(ctx context.Context, _ string) (context.Context, func(error)) {
	return ctx, nil
}

func (q *quietStates) State(ctx context.Context, state string) (context.Context, func(error)) {
	activities, visits := q.r.activities, q.visits
	entered := workflow.Now(workflowContext(ctx))
	at := &visit{}
	return context.WithValue(ctx, visitKey{}, at), func(err error) {
		if at.parked > 0 {
			return // torn down in a wait: no workflow API
		}
		named, isNamed := errors.AsType[*flowcrt.Error](err)
		if q.r.activities != activities || q.visits != visits || err != nil && !isNamed {
			return // it ran an activity or other states, or it stopped: no failure of its own
		}
		q.visits++
		v := quietVisit{Quiet: state, Entered: entered}
		if isNamed {
			v.Error, v.Cause = named.Name, named.Cause
		}
		// A side effect's result is always recorded; Get cannot fail on it.
		_ = workflow.SideEffect(workflowContext(ctx), func(workflow.Context) any { return v }).Get(nil)
	}
}

func (*quietStates) Attempt(ctx context.Context, _ string, _ int) (context.Context, func(error)) {
	return ctx, nil
}

func (*quietStates) Item(ctx context.Context, _ string, _, _ int) (context.Context, func(error)) {
	return ctx, nil
}

// quietVisitOf reads the side effect of a quiet state's visit, if data
// is one.
func quietVisitOf(data json.RawMessage) (quietVisit, bool) {
	var v quietVisit
	return v, json.Unmarshal(data, &v) == nil && v.Quiet != ""
}
