package flowtemporal

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"go.temporal.io/sdk/workflow"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// Approve answers an approval state inside a workflow: first the
// handlers, through the approval activity; when they leave the decision
// to a person, a SignalDecision, waited for on a durable timer of the
// state's timeout. QueryPending lists the approval meanwhile.
func Approve(ctx context.Context, activity string, req flowcrt.ApprovalRequest) (string, error) {
	var decision string
	err := Execute(withTimeout(ctx, req.Timeout), activity, &decision, approvalArgs{req, stopKey(ctx, req.State)})
	switch {
	case errors.Is(err, errActivityTimeout):
		return "", timedOut(req)
	case !errors.Is(err, flowcrt.ErrNoDecision):
		return decision, err
	}
	return runOf(ctx).wait(ctx, req)
}

// approvalArgs is the approval activity's argument: the request, and
// beside it the key of its stop, which the activity does not read (its
// parameter is the request) but the history keeps, so that the stops of
// a session are read from its history (Executions), keys and all.
type approvalArgs struct {
	flowcrt.ApprovalRequest
	Key string `json:",omitempty"` // "" outside fan-outs: the state names the stop
}

func timedOut(req flowcrt.ApprovalRequest) error {
	return fmt.Errorf("%w: no decision within %s", flowcrt.ErrStateTimeout, req.Timeout)
}

func (r *runState) wait(ctx context.Context, req flowcrt.ApprovalRequest) (string, error) {
	p := &flowcrt.Pending{Key: stopKey(ctx, req.State), State: req.State, Prompt: req.Prompt, Options: req.Options}
	r.pending = append(r.pending, p)
	defer func() { r.pending = slices.DeleteFunc(r.pending, func(q *flowcrt.Pending) bool { return q == p }) }()
	i := -1
	arrived := func() bool {
		i = slices.IndexFunc(r.decisions, func(d Decision) bool { return d.Key == keyOf(p) })
		return i >= 0
	}
	wctx := workflowContext(ctx)
	ok, err := true, error(nil)
	r.idle(ctx, func() {
		if req.Timeout <= 0 {
			err = workflow.Await(wctx, arrived)
		} else {
			ok, err = workflow.AwaitWithTimeout(wctx, req.Timeout, arrived)
		}
	})
	if err != nil {
		return "", context.Canceled
	}
	if !ok {
		return "", timedOut(req)
	}
	d := r.decisions[i]
	r.decisions = slices.Delete(r.decisions, i, i+1)
	return d.Decision, nil
}
