package flowtemporal

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	flowcrt "github.com/flowc-dev/flowc/runtime"
	flowcimpl "github.com/flowc-dev/flowc/runtime/impl"
)

// Stops inside fan-outs. Every branch or item of a fan-out runs on a
// coroutine of its own, so an approval inside one waits there for its own
// decision while the others go on; finished branches are done for good,
// their activities recorded in the history. Each waiting approval has the
// key a native session gives its stop: "<fan-out state>/<index>/<state>",
// nested as deep as the fan-outs are, and a decision names it.

type stopPrefixKey struct{}

// inBranch returns ctx running branch or item i of the fan-out state.
func inBranch(ctx context.Context, state string, i int) context.Context {
	prefix, _ := ctx.Value(stopPrefixKey{}).(string)
	return context.WithValue(ctx, stopPrefixKey{}, prefix+state+"/"+strconv.Itoa(i)+"/")
}

// stopKey is the key of an approval at state in the branch ctx runs in;
// "" outside any fan-out, where the state names it.
func stopKey(ctx context.Context, state string) string {
	prefix, _ := ctx.Value(stopPrefixKey{}).(string)
	if prefix == "" {
		return ""
	}
	return prefix + state
}

func keyOf(p *flowcrt.Pending) string {
	if p.Key != "" {
		return p.Key
	}
	return p.State
}

// UpdateDecide answers an approval as SignalDecision does, but as an
// update: a decision that answers no waiting approval, names none when
// several wait, or is not one of the options is refused, with the reason.
const UpdateDecide = "decide"

// resolve returns the waiting approval d answers: the one its Key names,
// else the only one of its State, else the only one that waits.
func (r *runState) resolve(d Decision) (*flowcrt.Pending, error) {
	var found []*flowcrt.Pending
	for _, p := range r.pending {
		if d.Key != "" && keyOf(p) == d.Key || d.Key == "" && (d.State == "" || d.State == p.State) {
			found = append(found, p)
		}
	}
	switch {
	case len(found) == 0 && d.Key != "":
		return nil, notWaiting{fmt.Errorf("no stop %q waits for a decision; waiting: %s", d.Key, keysOf(r.pending))}
	case len(found) == 0:
		return nil, notWaiting{fmt.Errorf("no approval %q waits for a decision; waiting: %s", d.State, keysOf(r.pending))}
	case len(found) > 1:
		return nil, fmt.Errorf("%d stops wait for a decision, %s: name one by its key", len(found), keysOf(found))
	}
	if p := found[0]; !validOption(p, d.Decision) {
		return nil, fmt.Errorf("approval decision %q is not one of the options %s", d.Decision, quoted(p.Options))
	}
	return found[0], nil
}

func keysOf(pending []*flowcrt.Pending) string {
	keys := make([]string, len(pending))
	for i, p := range pending {
		keys[i] = keyOf(p)
	}
	slices.Sort(keys)
	return quoted(keys)
}

func quoted(s []string) string {
	q := make([]string, len(s))
	for i, v := range s {
		q[i] = strconv.Quote(v)
	}
	return strings.Join(q, ", ")
}

// take keeps decision d for the approval it answers.
func (r *runState) take(d Decision) error {
	p, err := r.resolve(d)
	if err != nil {
		return err
	}
	r.decisions = append(r.decisions, Decision{Key: keyOf(p), State: p.State, Decision: d.Decision})
	return nil
}

// decideHandlers serves UpdateDecide: the validator refuses before the
// update enters the history, so a refused decision leaves no trace. It
// also refuses a stop that has a decision its approval has not yet taken:
// of two decisions sent at once, the second is told so (NotWaiting)
// rather than left behind for a later visit of the same stop. Validators
// do not run on replay, so this changes no history.
func (r *runState) decideHandlers(wctx workflow.Context) error {
	return workflow.SetUpdateHandlerWithOptions(wctx, UpdateDecide,
		func(_ workflow.Context, d Decision) error { return r.take(d) },
		workflow.UpdateHandlerOptions{Validator: func(d Decision) error {
			p, err := r.resolve(d)
			if err == nil && slices.ContainsFunc(r.decisions, func(t Decision) bool { return t.Key == keyOf(p) }) {
				err = notWaiting{fmt.Errorf("stop %q was answered already", keyOf(p))}
			}
			return refusal(err)
		}})
}

// notWaiting marks the refusal of an answer whose stop does not wait (any
// more): answered already, or never there.
type notWaiting struct{ error }

// NotWaitingError is the type of the application error an update is
// refused with when the stop it answers does not wait: it was answered
// already (the other of two answers sent at once won), or the run went
// on. IsNotWaiting tells it apart from a refusal of the answer itself.
const NotWaitingError = "flowc.NotWaiting"

// refusal is the error a validator refuses with: NotWaitingError for a
// stop that does not wait, err itself otherwise.
func refusal(err error) error {
	if _, ok := errors.AsType[notWaiting](err); ok {
		return temporal.NewApplicationErrorWithOptions(err.Error(), NotWaitingError, temporal.ApplicationErrorOptions{NonRetryable: true})
	}
	return err
}

// IsNotWaiting reports whether err is an update's refusal because the
// stop it answers does not wait.
func IsNotWaiting(err error) bool {
	app, ok := errors.AsType[*temporal.ApplicationError](err)
	return ok && app.Type() == NotWaitingError
}

// querySettled says whether nothing in the run can move but a decision, a
// task token's answer or a timer: no coroutine runs steps or waits for an
// activity. RunWorkflow's test runs stop only then, so that every branch
// that is going to wait does.
const querySettled = "flowc-settled"

func (r *runState) settled() (bool, error) { return r.busy == r.sleeping, nil }

// Decide answers the approval workflow id waits for, when exactly one
// waits; with several waiting it is refused with their keys (DecideAt).
func Decide(ctx context.Context, c client.Client, id, decision string) error {
	return DecideAt(ctx, c, id, "", decision)
}

// DecideAt answers the stop key names in workflow id (a key of the query
// QueryPending, e.g. "Review/2/Approve") with decision, through the update
// UpdateDecide: it returns once the workflow has taken it, or with the
// reason it refused it.
func DecideAt(ctx context.Context, c client.Client, id, key, decision string) error {
	h, err := c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{
		WorkflowID: id, UpdateName: UpdateDecide, WaitForStage: client.WorkflowUpdateStageCompleted,
		Args: []any{Decision{Key: key, Decision: decision, Door: flowcimpl.DoorOf(ctx)}},
	})
	if err == nil {
		err = h.Get(ctx, nil)
	}
	if err != nil {
		return fmt.Errorf("workflow %q: %w", id, err)
	}
	return nil
}
