package flowtemporal

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"go.temporal.io/sdk/workflow"

	flowcrt "github.com/flowc-dev/flowc/runtime"
	flowcimpl "github.com/flowc-dev/flowc/runtime/impl"
)

// ResumeSuffix ends the name of the workflow a long run continues as: it
// takes the run's last checkpoint and goes on from there.
const ResumeSuffix = ".resume"

// StepsPerRun bounds the steps of one Temporal run: past it, or once the
// server suggests it (the history grows large), the run continues as new
// from its last checkpoint, keeping the history of each run small.
var StepsPerRun = 1000

// errContinue stops the steps so that the run continues as new.
var errContinue = errors.New("flowc: continuing as new")

// Start returns the checkpoint a run starts from: the state in, before
// state start, for the session named after the workflow execution.
func Start(wctx workflow.Context, name, schema, start string, in any) (flowcrt.Checkpoint, error) {
	data, err := json.Marshal(in)
	if err != nil {
		return flowcrt.Checkpoint{}, fmt.Errorf("%w: %v", flowcrt.ErrNoCheckpoint, err)
	}
	return flowcrt.Checkpoint{
		Session: workflow.GetInfo(wctx).WorkflowExecution.ID, Workflow: name, Schema: schema,
		Status: flowcrt.StatusRunning, Position: flowcimpl.Position{State: start}, State: data, Time: workflow.Now(wctx),
	}, nil
}

// continuing keeps the checkpoints of one run and ends it between two
// states, outside fan-outs and sleeps, once it has run long enough.
type continuing struct {
	wctx  workflow.Context
	last  *flowcrt.Checkpoint // nil: none yet
	saves int
	next  *flowcrt.Checkpoint // set: continue as new from it
}

func (c *continuing) Save(_ context.Context, cp *flowcrt.Checkpoint) error {
	saved := *cp
	c.last = &saved
	c.saves++
	long := c.saves >= StepsPerRun || workflow.GetInfo(c.wctx).GetContinueAsNewSuggested()
	// A checkpoint that keeps the deadline of a sleep is saved inside a
	// state (a Wait, a retry's delay), whose error rules would see the
	// stop; the run continues as new at a later one.
	if long && cp.Status == flowcrt.StatusRunning && cp.Position.FanOut == nil && cp.Position.Timer == nil {
		c.next = &saved
		return errContinue
	}
	return nil
}

func (c *continuing) Load(_ context.Context, session string) (*flowcrt.Checkpoint, error) {
	if c.last == nil {
		return nil, flowcrt.ErrNoCheckpoint
	}
	cp := *c.last
	return &cp, nil
}

func (c *continuing) List(context.Context) ([]string, error) {
	if c.last == nil {
		return nil, nil
	}
	return []string{c.last.Session}, nil
}

func (c *continuing) Delete(context.Context, string) error { return nil }

// UpdateInput gives a running session new input, JSON, as a native
// session's Invoke does: the steps in flight stop, the input is merged
// into the state of the last checkpoint, and the run goes on at that
// checkpoint's state; an approval that waited there asks again.
const UpdateInput = "input"

// RunSession is the body of a workflow that runs its steps as a session:
// run runs them from checkpoint cp, or, with cp nil, from the start, as the
// session named after the workflow execution, and invoke runs them on new
// input given while the session runs (UpdateInput), from its last
// checkpoint, as the native Invoke does. Every state saves a checkpoint in
// the run's memory, and when the run has made StepsPerRun steps or the
// server suggests it, the workflow continues as new, as name+ResumeSuffix,
// from the last one.
func RunSession(wctx workflow.Context, name string, cp *flowcrt.Checkpoint, run func(ctx context.Context, session string, opts ...flowcrt.Option) error, invoke func(ctx context.Context, session string, input json.RawMessage, opts ...flowcrt.Option) error) error {
	session := workflow.GetInfo(wctx).WorkflowExecution.ID
	if cp != nil {
		session = cp.Session
	}
	store := &continuing{wctx: wctx, last: cp}
	err := runStepsAgain(wctx, func(ctx context.Context, opts ...flowcrt.Option) error {
		return run(ctx, session, append(opts, flowcrt.WithCheckpointer(store))...)
	}, func(ctx context.Context, input json.RawMessage, opts ...flowcrt.Option) error {
		return invoke(ctx, session, input, append(opts, flowcrt.WithCheckpointer(store))...)
	})
	if store.next != nil {
		return workflow.NewContinueAsNewError(wctx, name+ResumeSuffix, *store.next)
	}
	return err
}

// newInputs are the inputs UpdateInput gave a run, not yet taken.
type newInputs struct {
	queue []json.RawMessage
	stop  workflow.CancelFunc // stops the steps in flight
}

func (n *newInputs) handle(wctx workflow.Context) error {
	return workflow.SetUpdateHandlerWithOptions(wctx, UpdateInput,
		func(_ workflow.Context, in json.RawMessage) error {
			n.queue = append(n.queue, in)
			n.stop()
			return nil
		},
		workflow.UpdateHandlerOptions{Validator: func(in json.RawMessage) error {
			if !json.Valid(in) {
				return errors.New("the new input is not JSON")
			}
			return nil
		}})
}

// next takes the first input not yet taken.
func (n *newInputs) next() (json.RawMessage, bool) {
	if len(n.queue) == 0 {
		return nil, false
	}
	in := n.queue[0]
	n.queue = n.queue[1:]
	return in, true
}

// DecodeInput reads new input into v, refusing unknown fields, as the
// native runs of `flowc run` read theirs.
func DecodeInput(input json.RawMessage, v any) error {
	dec := json.NewDecoder(bytes.NewReader(input))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%w: %v", flowcimpl.ErrInput, err)
	}
	return nil
}
