package asl

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/flowc-dev/flowc/runtime/impl"
	flowcagent "github.com/flowc-dev/flowc/runtime/impl/asl/agent"
)

// machineFunc runs a nested state machine (a Parallel branch or a Map
// iterator) on its input and returns its output.
type machineFunc func(ctx context.Context, x *ASLExec, in any) (any, error)

// Wait is how long a Wait state waits; exactly one field is set.
type Wait struct {
	Seconds       float64
	HasSeconds    bool
	Timestamp     string
	SecondsPath   *JSONPath
	TimestampPath *JSONPath
	// JSONata: Seconds or Timestamp given as expressions.
	SecondsExpr, TimestampExpr *Template
}

// Wait is the body of a Wait state: it sleeps through the configured
// clock, so that tests and `--skip-waits` take no time, and passes its
// input on. In a session its deadline goes into the checkpoint before it
// sleeps: a run resumed after a crash sleeps only what is left.
func (x *ASLExec) Wait(w *Wait) stateBody {
	return func(ctx context.Context, cx *aslContext, in any) (any, error) {
		d, err := x.waitFor(w, in, cx)
		if err != nil {
			return nil, err
		}
		branchStarted(ctx)
		t := x.sess.TakeTimer(cx.state, false)
		if t == nil {
			t = &impl.DurableTimer{State: cx.state, Until: x.cfg.RunClock().Now().Add(d).UTC()}
		}
		if err := impl.SleepUntil(ctx, x.cfg, x.sess, t, x.here(ctx, cx.state)); err != nil {
			return nil, err
		}
		return in, nil
	}
}

// here says whether a checkpoint at a position names state of the run
// ctx is in: a top-level state, or one of the compiled-in children ctx
// runs in (see SaveChild). A state of a Parallel branch or a Map
// iteration is named by none.
func (x *ASLExec) here(ctx context.Context, state string) func(impl.Position) bool {
	fr := frames(ctx)
	if len(fr) == 0 {
		return impl.TopLevel(state)
	}
	return func(pos impl.Position) bool {
		if pos.FanOut != nil || pos.State != fr[0].state || len(pos.Inside) != len(fr) {
			return false
		}
		for i, p := range pos.Inside {
			want := state
			if i+1 < len(fr) {
				want = fr[i+1].state
			}
			if p.State != want {
				return false
			}
		}
		return true
	}
}

func (x *ASLExec) waitFor(w *Wait, in any, cx *aslContext) (time.Duration, error) {
	switch {
	case w.HasSeconds:
		return time.Duration(w.Seconds * float64(time.Second)), nil
	case w.SecondsExpr != nil:
		n, err := exprInt(w.SecondsExpr, "Seconds", 0, in, cx)
		return time.Duration(n) * time.Second, err
	case w.SecondsPath != nil:
		v, err := w.SecondsPath.Get(in, cx)
		if err != nil {
			return 0, err
		}
		if !isInteger(v) || v.(float64) < 0 {
			return 0, runtimeErrorf("SecondsPath %q must point to a whole number of seconds, got %s", w.SecondsPath.Src, impl.JSONText(v))
		}
		return time.Duration(v.(float64)) * time.Second, nil
	}
	ts := w.Timestamp
	if w.TimestampPath != nil || w.TimestampExpr != nil {
		v, err := w.timestampValue(in, cx)
		if err != nil {
			return 0, err
		}
		s, ok := v.(string)
		if _, valid := timestamp(v); !ok || !valid {
			return 0, runtimeErrorf("the Timestamp of a Wait state must be an RFC 3339 timestamp, got %s", impl.JSONText(v))
		}
		ts = s
	}
	t, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		return 0, runtimeErrorf("invalid timestamp %q", ts)
	}
	return max(t.Sub(x.cfg.RunClock().Now()), 0), nil
}

// Parallel is the body of a Parallel state: every branch runs on the
// effective input at once; the result lists their outputs in branch order.
// A failing branch cancels the others and fails the state (runBranches).
func (x *ASLExec) Parallel(state string, branches ...machineFunc) stateBody {
	return func(ctx context.Context, cx *aslContext, in any) (any, error) {
		ctx = x.reportData(ctx)
		stops, err := x.openFanOut(ctx, state, cx)
		if err != nil {
			return nil, err
		}
		out, err := x.runBranches(ctx, state, branches, in, stops)
		if err == nil {
			err = x.stopped(ctx, stops, cx)
		}
		return out, err
	}
}

// MapSpec is the iteration of a Map state.
type MapSpec struct {
	ItemsPath          *JSONPath // nil: the effective input itself
	ItemSelector       *Template // or the legacy Parameters
	MaxConcurrency     int       // 0: no bound
	MaxConcurrencyPath *JSONPath
	// JSONata: the items and MaxConcurrency as expressions.
	Items, MaxConcurrencyExpr *Template
}

// Map is the body of a Map state: the iterator runs once per item, at most
// MaxConcurrency at a time, each on the item or on what ItemSelector makes
// of it (with $$.Map.Item.Index and Value); the result lists the outputs in
// item order. The first item to fail cancels the rest and fails the state.
// An item that waits for a decision or a task token still counts against
// MaxConcurrency, as on Step Functions (OpenFanOut.FanOut).
func (x *ASLExec) Map(state string, spec *MapSpec, iterator machineFunc) stateBody {
	return func(ctx context.Context, cx *aslContext, in any) (any, error) {
		items, limit, err := spec.setup(in, cx)
		if err != nil {
			return nil, err
		}
		out := make([]any, len(items))
		ctx = x.reportData(ctx)
		stops, err := x.openFanOut(ctx, state, cx)
		if err != nil {
			return nil, err
		}
		err = stops.FanOut(ctx, state, len(items), limit, func(ctx context.Context, i int) error {
			if raw, ok := stops.Finished(i); ok {
				return x.restoreOutput(raw, &out[i])
			}
			item, err := spec.itemInput(in, cx, i, items[i])
			if err == nil {
				out[i], err = iterator(x.innerScope(stops.Branch(ctx, i)), x, item)
			}
			return stops.Settle(ctx, i, out[i], err)
		})
		if err == nil {
			err = x.stopped(ctx, stops, cx)
		}
		if err != nil {
			return nil, err
		}
		return out, nil
	}
}

func (spec *MapSpec) setup(in any, cx *aslContext) ([]any, int, error) {
	items, err := spec.items(in, cx)
	if err != nil {
		return nil, 0, err
	}
	list, ok := items.([]any)
	if !ok {
		return nil, 0, runtimeErrorf("the items of a Map state must be an array, got %s", typeName(items))
	}
	limit, err := spec.limit(in, cx)
	return list, limit, err
}

// limit is MaxConcurrency, its JSONata expression, or the number at
// MaxConcurrencyPath (a numeric string counts, as on Step Functions).
func (spec *MapSpec) limit(in any, cx *aslContext) (int, error) {
	if spec.MaxConcurrencyExpr != nil {
		return exprInt(spec.MaxConcurrencyExpr, "MaxConcurrency", 0, in, cx)
	}
	if spec.MaxConcurrencyPath == nil {
		return spec.MaxConcurrency, nil
	}
	v, err := spec.MaxConcurrencyPath.Get(in, cx)
	if err != nil {
		return 0, err
	}
	v = numericString(v)
	if !isInteger(v) || v.(float64) < 0 {
		return 0, runtimeErrorf("MaxConcurrencyPath %q must point to a whole number, got %s", spec.MaxConcurrencyPath.Src, impl.JSONText(v))
	}
	return int(v.(float64)), nil
}

func (spec *MapSpec) itemInput(in any, cx *aslContext, i int, item any) (any, error) {
	if spec.ItemSelector == nil {
		return item, nil
	}
	icx := *cx
	icx.item = Obj("Index", float64(i), "Value", item)
	return spec.ItemSelector.Eval(in, &icx)
}

// Approval is the body of an Approval state. Its result is
// {"approval": "<option>"} (the spec's result): the decision a resumed session was given, or
// the answer of the handlers when they implement Approver. A decision
// outside Options is a States.Runtime error, and an approver that runs past
// Timeout fails with States.Timeout. Without a decision a top-level state
// interrupts the run (see Approve); so does one inside a Parallel or Map of
// a session's run, whose checkpoint holds the fan-out's progress
// (impl's checkpoint_stops.go). Without a session, inside a Parallel or Map, that
// is a States.Runtime error.
func (x *ASLExec) Approval(req impl.ApprovalRequest, topLevel bool) stateBody {
	return func(ctx context.Context, cx *aslContext, in any) (any, error) {
		req := req // its own Details
		if err := promptDetails(&req, in, cx, x.ordered); err != nil {
			return nil, err
		}
		input := in
		if !x.ordered {
			input = Plain(in)
		}
		if x.cfg.StateContext {
			ctx = impl.WithState(ctx, req.State)
		}
		branchStarted(ctx)
		decision, err := impl.Approve(ctx, x.sess, x.handlers, &req, input)
		switch {
		case impl.IsInterrupted(err) && !topLevel && inBranch(ctx):
			vars, verr := x.branchVars(ctx)
			if verr != nil {
				return nil, verr
			}
			return nil, impl.StopInBranch(ctx, err, req.State, cx.input, vars)
		case impl.IsInterrupted(err) && !topLevel:
			return nil, runtimeErrorf("Approval state %q got no decision: inside a Parallel or Map an approval cannot wait, so the handlers must answer it", req.State)
		case impl.IsInterrupted(err):
			return nil, err
		case err != nil:
			return nil, aslError(err)
		}
		return Obj("approval", decision), nil
	}
}

// IsTimeout reports whether err is a States.Timeout.
func IsTimeout(err error) bool {
	var e *impl.Error
	return errors.As(err, &e) && e.Name == impl.StatesTimeout
}

// agentHandler is the shape of an agent's handler.
type agentHandler func(ctx context.Context, in any, agent flowcagent.Agent) (any, error)

// agentTask adapts an agent's handler to a Task body's handler.
func agentTask(h agentHandler, agent flowcagent.Agent) aslHandler {
	return func(ctx context.Context, in any) (any, error) { return h(ctx, in, agent) }
}

// DebateSpec is the setup of a Debate state.
type DebateSpec struct {
	Topic     any
	TopicPath *JSONPath
	Rounds    int
	Agents    []string
}

// Debate is the body of a Debate state: for each round, each agent in
// turn gets {"topic", "round", "transcript"} (round counts from 1, the
// transcript holds the turns so far) and answers with its message. The
// result is {"topic", "transcript": [{"agent", "round", "message"}]}.
func (x *ASLExec) Debate(state string, spec *DebateSpec, agents ...agentHandler) stateBody {
	return func(ctx context.Context, cx *aslContext, in any) (any, error) {
		topic := spec.Topic
		if spec.TopicPath != nil {
			var err error
			if topic, err = spec.TopicPath.Get(in, cx); err != nil {
				return nil, err
			}
		}
		transcript := []any{}
		for round := 1; round <= spec.Rounds; round++ {
			for i, h := range agents {
				turn := Obj("topic", topic, "round", float64(round), "transcript", slices.Clone(transcript))
				msg, err := x.call(ctx, state, agentTask(h, flowcagent.Agent{Name: spec.Agents[i]}), turn)
				if err != nil {
					return nil, err
				}
				transcript = append(transcript, Obj("agent", spec.Agents[i], "round", float64(round), "message", msg))
			}
		}
		return Obj("topic", topic, "transcript", transcript), nil
	}
}
