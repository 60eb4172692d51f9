package flowtemporal

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	flowcrt "github.com/flowc-dev/flowc/runtime"
	flowcimpl "github.com/flowc-dev/flowc/runtime/impl"
)

// activityStartToClose bounds an activity whose state has no timeout of
// its own: past it Temporal runs the activity again, on any worker.
const activityStartToClose = 10 * time.Minute

// heartbeatTimeout is how long the server waits for a running activity's
// heartbeat before it takes the worker for lost and runs the activity
// again elsewhere; without heartbeats a killed worker's activities would
// wait out activityStartToClose. Every activity beats every
// heartbeatEvery while its handler runs.
const (
	heartbeatTimeout = 10 * time.Second
	heartbeatEvery   = 2 * time.Second
)

// Execute runs activity with args inside a workflow and stores its result
// in result (nil for none). The handler's error comes back with its
// message and name; Temporal retries only what the handler never saw
// fail (a lost worker), and what a rule that maps onto a RetryPolicy
// retries; flowc's retry rules do the rest. A state with a timeout runs
// its attempts under it.
func Execute(ctx context.Context, name string, result any, args ...any) error {
	wctx := workflowContext(ctx)
	// A handler's failure is retried only under a rule that maps exactly
	// (engine.Retry); a lost worker, whose attempt ran out of time, is.
	opts := workflow.ActivityOptions{StartToCloseTimeout: activityStartToClose, HeartbeatTimeout: heartbeatTimeout,
		RetryPolicy: &temporal.RetryPolicy{NonRetryableErrorTypes: []string{failureType}}}
	if d := timeoutOf(ctx); d > 0 {
		opts.StartToCloseTimeout = d
		opts.RetryPolicy = &temporal.RetryPolicy{MaximumAttempts: 1}
	}
	if p := retryOf(ctx); p != nil {
		opts.RetryPolicy = p
	}
	if state := flowcrt.StateFromContext(ctx); state != "" {
		// The activity's handler learns its state from the id, which the
		// run's counter keeps unique.
		opts.ActivityID = state + "#" + strconv.Itoa(runOf(ctx).nextActivity())
	}
	err := workflow.ExecuteActivity(workflow.WithActivityOptions(wctx, opts), name, args...).Get(wctx, result)
	if raw, ok := result.(*json.RawMessage); ok && err == nil && len(*raw) == 0 {
		*raw = json.RawMessage("null") // a handler's nil result comes back as no payload at all
	}
	var timeout *temporal.TimeoutError
	if errors.As(err, &timeout) && timeoutOf(ctx) > 0 {
		return errActivityTimeout
	}
	return decode(err)
}

// ActivityContext returns the context a handler runs with inside an
// activity: it names the state that calls it, as in the native engine,
// and the activity heartbeats until Finish.
func ActivityContext(ctx context.Context) context.Context {
	id := activity.GetInfo(ctx).ActivityID
	if i := strings.LastIndexByte(id, '#'); i > 0 {
		ctx = flowcrt.WithState(ctx, id[:i])
	}
	ctx, stop := context.WithCancel(ctx)
	go heartbeat(ctx)
	return context.WithValue(ctx, stopHeartbeat{}, stop)
}

type stopHeartbeat struct{}

func heartbeat(ctx context.Context) {
	tick := time.NewTicker(heartbeatEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			activity.RecordHeartbeat(ctx)
		}
	}
}

// Finish ends an activity: its heartbeat stops, a panic of its handler
// becomes a task failure naming the state, and the error is encoded for
// the workflow. Defer it directly.
func Finish(ctx context.Context, err *error) {
	if stop, ok := ctx.Value(stopHeartbeat{}).(context.CancelFunc); ok {
		stop()
	}
	if r := recover(); r != nil {
		*err = flowcimpl.PanicError(flowcrt.StateFromContext(ctx), r)
	}
	*err = encode(*err)
}

// ApproveActivity is the activity of approval states: handlers that
// implement flowcrt.Approver answer; others leave the decision to a
// signal.
func ApproveActivity(ctx context.Context, h any, req flowcrt.ApprovalRequest) (decision string, err error) {
	ctx = ActivityContext(ctx)
	defer Finish(ctx, &err)
	a, ok := h.(flowcrt.Approver)
	if !ok {
		return "", flowcrt.ErrNoDecision
	}
	return a.Approve(ctx, req)
}
