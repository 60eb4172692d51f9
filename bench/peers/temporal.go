package peers

import (
	"time"

	"go.temporal.io/sdk/workflow"

	"github.com/flowc-dev/flowc/bench/loop"
)

// Each Temporal workflow runs every state as a local activity, the
// cheapest way Temporal runs a step outside the workflow's deterministic
// code: the activity is the state's handler itself (its signature is an
// activity's), the workflow folds the update it returns through the
// reducers (Apply) and tests the same condition as the definition. The
// state and the update cross the data converter as JSON, as any
// activity's input and result do.

// localOptions gives every local activity a timeout, which Temporal
// requires; no run comes near it.
func localOptions(ctx workflow.Context) workflow.Context {
	return workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{ScheduleToCloseTimeout: time.Minute})
}

// local runs one state: its handler as a local activity on s, then the fold.
func local[S any, U any](ctx workflow.Context, handler any, s *S, apply func(*S, *U)) error {
	var u U
	if err := workflow.ExecuteLocalActivity(ctx, handler, *s).Get(ctx, &u); err != nil {
		return err
	}
	apply(s, &u)
	return nil
}

// TemporalLoop is loop.flow.yaml as a Temporal workflow over the handlers
// of loop.Counter: tick, then tock while n < limit.
func TemporalLoop(ctx workflow.Context, s loop.LoopState) (loop.LoopState, error) {
	ctx = localOptions(ctx)
	h, apply := loop.Counter{}, (*loop.LoopState).Apply
	for {
		if err := local(ctx, h.Tick, &s, apply); err != nil {
			return s, err
		}
		if s.N >= s.Limit {
			return s, nil
		}
		if err := local(ctx, h.Tock, &s, apply); err != nil {
			return s, err
		}
	}
}

// TemporalTriage is triage.flow.yaml as a Temporal workflow over the
// handlers of loop.Desk: classify's switch, fix, review's condition, and
// answer or escalate.
func TemporalTriage(ctx workflow.Context, s loop.TriageState) (loop.TriageState, error) {
	ctx = localOptions(ctx)
	h, apply := loop.Desk{}, (*loop.TriageState).Apply
	if err := local(ctx, h.Classify, &s, apply); err != nil {
		return s, err
	}
	last := h.Answer
	switch {
	case s.Priority >= 4:
		last = h.Escalate
	case s.Category == "bug":
		for _, state := range []any{h.Fix, h.Review} {
			if err := local(ctx, state, &s, apply); err != nil {
				return s, err
			}
		}
		if s.Status != "fixed" {
			last = h.Escalate
		}
	}
	return s, local(ctx, last, &s, apply)
}

// TemporalAnchor is anchor.flow.yaml as a Temporal workflow over
// loop.AnchorCount: 102 states calling count, round and round until n
// reaches loop.AnchorTransitions, tested after the last state.
func TemporalAnchor(ctx workflow.Context, s loop.AnchorState) (loop.AnchorState, error) {
	ctx = localOptions(ctx)
	h, apply := loop.AnchorCount{}, (*loop.AnchorState).Apply
	for {
		for range loop.AnchorStates {
			if err := local(ctx, h.Count, &s, apply); err != nil {
				return s, err
			}
		}
		if s.N >= loop.AnchorTransitions {
			return s, nil
		}
	}
}
