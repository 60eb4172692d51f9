package flowtemporal

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/workflow"

	flowcrt "github.com/flowc-dev/flowc/runtime"
	flowcimpl "github.com/flowc-dev/flowc/runtime/impl"
)

// The callback pattern on Temporal: a Task whose Resource ends in
// .waitForTaskToken calls its handler through an activity, then waits in
// the workflow for a SignalTaskToken carrying its token, on workflow
// timers of its TimeoutSeconds and HeartbeatSeconds. A token's session is
// the workflow id; SendTaskSuccess, SendTaskFailure and SendTaskHeartbeat
// signal it from a client.

const (
	// SignalTaskToken answers a task token: its payload is a TaskTokenAnswer.
	SignalTaskToken = "task-token"
	// QueryTaskTokens returns the task tokens the run waits for,
	// []PendingTaskToken.
	QueryTaskTokens = "task-tokens"
	// UpdateTaskToken answers a task token as SignalTaskToken does, but
	// as an update (AnswerTaskToken): a token the run does not wait for,
	// or whose answer the run has not yet taken, is refused with
	// NotWaitingError before anything is recorded, so that of two answers
	// sent at once one wins and the other is told so.
	UpdateTaskToken = "answer-task-token"
)

// TaskTokenAnswer is the payload of SignalTaskToken: a success (Output),
// a failure (Failed, Error, Cause) or a heartbeat.
type TaskTokenAnswer struct {
	Token     string          `json:"token"`
	Output    json.RawMessage `json:"output,omitempty"`
	Failed    bool            `json:"failed,omitempty"`
	Error     string          `json:"error,omitempty"`
	Cause     string          `json:"cause,omitempty"`
	Heartbeat bool            `json:"heartbeat,omitempty"`
	// Door is where the answer came from, for the session's history
	// (flowcrt.WithDoor); the workflow ignores it.
	Door string `json:"door,omitempty"`
}

// PendingTaskToken is a task token a run waits for, and its state.
type PendingTaskToken struct {
	State string `json:"state"`
	Token string `json:"token"`
}

// NewTaskToken issues the token through a side effect, so that a replay
// reads the same one from the history.
func (engine) NewTaskToken(ctx context.Context, state string) string {
	wctx := workflowContext(ctx)
	id := workflow.GetInfo(wctx).WorkflowExecution.ID
	var token string
	// A side effect's result is always recorded; Get cannot fail on it.
	_ = workflow.SideEffect(wctx, func(workflow.Context) any { return flowcimpl.NewTaskToken(id, state) }).Get(&token)
	return token
}

// AwaitTaskToken waits for the answer signalled for token; heartbeats
// renew its heartbeat timer.
func (engine) AwaitTaskToken(ctx context.Context, state, token string, timeout, heartbeat time.Duration) (json.RawMessage, error) {
	r, wctx := runOf(ctx), workflowContext(ctx)
	p := &PendingTaskToken{State: state, Token: token}
	r.tokens = append(r.tokens, p)
	defer func() { r.tokens = slices.DeleteFunc(r.tokens, func(q *PendingTaskToken) bool { return q == p }) }()
	var until time.Time
	if timeout > 0 {
		until = workflow.Now(wctx).Add(timeout)
	}
	for {
		wait, beat := time.Duration(0), false
		if heartbeat > 0 {
			wait, beat = heartbeat, true
		}
		if !until.IsZero() {
			if left := until.Sub(workflow.Now(wctx)); wait == 0 || left <= wait {
				wait, beat = left, false
			}
		}
		var a *TaskTokenAnswer
		var err error
		// Idle while it waits, as an approval is: the next item of an
		// in-order fan-out starts, and a session's run counts as settled.
		r.idle(ctx, func() { a, err = r.awaitAnswer(wctx, token, wait) })
		switch {
		case err != nil:
			return nil, err
		case a == nil && beat:
			return nil, flowcrt.NewError(flowcrt.StatesHeartbeatTimeout, fmt.Sprintf("no heartbeat was sent for the task token of state %q within %s", state, heartbeat))
		case a == nil:
			return nil, flowcrt.NewError("States.Timeout", fmt.Sprintf("no success or failure was sent for the task token of state %q within %s", state, timeout))
		case a.Heartbeat:
			continue
		case a.Failed:
			return nil, flowcrt.NewError(a.Error, a.Cause)
		}
		return a.Output, nil
	}
}

// awaitAnswer takes the next answer signalled for token, waiting at most
// wait (0: for ever); nil when none came in time.
func (r *runState) awaitAnswer(wctx workflow.Context, token string, wait time.Duration) (*TaskTokenAnswer, error) {
	i := -1
	arrived := func() bool {
		i = slices.IndexFunc(r.answers, func(a TaskTokenAnswer) bool { return a.Token == token })
		return i >= 0
	}
	if wait <= 0 {
		if err := workflow.Await(wctx, arrived); err != nil {
			return nil, context.Canceled
		}
	} else if ok, err := workflow.AwaitWithTimeout(wctx, wait, arrived); err != nil {
		return nil, context.Canceled
	} else if !ok {
		return nil, nil
	}
	a := r.answers[i]
	r.answers = slices.Delete(r.answers, i, i+1)
	return &a, nil
}

// receiveTokens keeps the answers signalled for the tokens the run waits
// for; others are logged and dropped, as decisions are.
func (r *runState) receiveTokens(wctx workflow.Context) {
	ch := workflow.GetSignalChannel(wctx, SignalTaskToken)
	for {
		var a TaskTokenAnswer
		ch.Receive(wctx, &a)
		if slices.ContainsFunc(r.tokens, func(p *PendingTaskToken) bool { return p.Token == a.Token }) {
			r.answers = append(r.answers, a)
			continue
		}
		workflow.GetLogger(wctx).Warn("flowc: task token answer for no token the run waits for, dropped", "token", a.Token)
	}
}

// tokenHandlers serves UpdateTaskToken. Validators do not run on replay;
// the handler takes what its validator let through.
func (r *runState) tokenHandlers(wctx workflow.Context) error {
	return workflow.SetUpdateHandlerWithOptions(wctx, UpdateTaskToken,
		func(_ workflow.Context, a TaskTokenAnswer) error {
			r.answers = append(r.answers, a)
			return nil
		},
		workflow.UpdateHandlerOptions{Validator: func(a TaskTokenAnswer) error { return refusal(r.validAnswer(a)) }})
}

// validAnswer refuses an answer to a token the run does not wait for, or
// a second success or failure before the run took the first.
func (r *runState) validAnswer(a TaskTokenAnswer) error {
	i := slices.IndexFunc(r.tokens, func(p *PendingTaskToken) bool { return p.Token == a.Token })
	if i < 0 {
		return notWaiting{fmt.Errorf("%w, or its state has ended: the workflow waits for no such token", flowcrt.ErrTaskTokenUsed)}
	}
	if !a.Heartbeat && slices.ContainsFunc(r.answers, func(b TaskTokenAnswer) bool { return b.Token == a.Token && !b.Heartbeat }) {
		return notWaiting{fmt.Errorf("the task token of state %q was answered already", r.tokens[i].State)}
	}
	return nil
}

func (r *runState) queryTokens() ([]PendingTaskToken, error) {
	out := make([]PendingTaskToken, len(r.tokens))
	for i, p := range r.tokens {
		out[i] = *p
	}
	return out, nil
}

// SendTaskSuccess completes the Task state that waits for token, in the
// workflow the token names, with output as its result. A token no run
// waits for is refused (flowcrt.ErrTaskTokenInvalid, ErrTaskTokenUnknown,
// ErrTaskTokenUsed) and nothing is signalled.
func SendTaskSuccess(ctx context.Context, c client.Client, token string, output json.RawMessage) error {
	if !json.Valid(output) {
		return fmt.Errorf("the output sent for a task token is not JSON")
	}
	return sendTaskToken(ctx, c, TaskTokenAnswer{Token: token, Output: output})
}

// SendTaskFailure fails the Task state that waits for token with the
// error name and cause, which its Retry and Catch rules see.
func SendTaskFailure(ctx context.Context, c client.Client, token, name, cause string) error {
	return sendTaskToken(ctx, c, TaskTokenAnswer{Token: token, Failed: true, Error: name, Cause: cause})
}

// SendTaskHeartbeat renews the HeartbeatSeconds of the Task state that
// waits for token.
func SendTaskHeartbeat(ctx context.Context, c client.Client, token string) error {
	return sendTaskToken(ctx, c, TaskTokenAnswer{Token: token, Heartbeat: true})
}

func sendTaskToken(ctx context.Context, c client.Client, a TaskTokenAnswer) error {
	a.Door = flowcimpl.DoorOf(ctx)
	id, state, err := flowcimpl.TaskTokenOwner(a.Token)
	if err != nil {
		return err
	}
	refuse := func(err error) error { return fmt.Errorf("workflow %q: task token of state %q: %w", id, state, err) }
	v, err := c.QueryWorkflow(ctx, id, "", QueryTaskTokens)
	if _, missing := errors.AsType[*serviceerror.NotFound](err); missing {
		return refuse(fmt.Errorf("%w: no such workflow", flowcrt.ErrTaskTokenUnknown))
	}
	var pending []PendingTaskToken
	if err == nil {
		err = v.Get(&pending)
	}
	if err != nil {
		return refuse(err)
	}
	if !slices.ContainsFunc(pending, func(p PendingTaskToken) bool { return p.Token == a.Token }) {
		return refuse(fmt.Errorf("%w, or its state has ended: the workflow waits for no such token", flowcrt.ErrTaskTokenUsed))
	}
	return c.SignalWorkflow(ctx, id, "", SignalTaskToken, a)
}

// AnswerTaskToken sends a, the answer to a task token, to the workflow the
// token names through UpdateTaskToken, and returns once the run has taken
// it, or with the reason it refused it (IsNotWaiting: the token was
// answered already, or its state has ended). A worker of the workflow must
// run to take it.
func AnswerTaskToken(ctx context.Context, c client.Client, a TaskTokenAnswer) error {
	a.Door = flowcimpl.DoorOf(ctx)
	id, state, err := flowcimpl.TaskTokenOwner(a.Token)
	if err != nil {
		return err
	}
	if !a.Failed && !a.Heartbeat && !json.Valid(a.Output) {
		return fmt.Errorf("the output sent for a task token is not JSON")
	}
	h, err := c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{
		WorkflowID: id, UpdateName: UpdateTaskToken, WaitForStage: client.WorkflowUpdateStageCompleted, Args: []any{a},
	})
	if err == nil {
		err = h.Get(ctx, nil)
	}
	if err != nil {
		return fmt.Errorf("workflow %q: task token of state %q: %w", id, state, err)
	}
	return nil
}
