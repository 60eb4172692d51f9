package flowtemporal

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	enums "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	flowcrt "github.com/flowc-dev/flowc/runtime"
	flowcimpl "github.com/flowc-dev/flowc/runtime/impl"
	"github.com/flowc-dev/flowc/session"
)

// Sessions of `flowc run --engine temporal --session`: the session is a
// workflow execution on the server, whose id is the session id, and the
// server's history is its checkpoint. One run of the program starts the
// execution or answers what it waits for, works on it with a worker of its
// own until it ends or nothing but a decision, a task token's answer or a
// timer can move it, and then stops; the execution waits on the server for
// the next run, however long and however often the program is killed.

// Session is what one run asks of a session: go on (nothing set), start
// it on Input or give it Input while it runs, or first answer the
// approval (Decision, At) or the task token (Task) it waits for.
type Session struct {
	ID       string
	Input    json.RawMessage // nil: none given
	Decision string
	At       string // the stop Decision answers, when several wait
	Task     flowcimpl.TaskTokenFlags
}

// RunSessionOnServer runs session s of the workflow registered as name on the
// server at address, as described above, decoding a finished run's result
// into out. A session that stops returns the *flowcrt.Interrupted or
// *flowcrt.TaskTokenWait a native session stops with; one that cannot run
// as asked a *flowcrt.SessionError.
func RunSessionOnServer(ctx context.Context, address string, register Register, name string, s Session, out any, stderr io.Writer) error {
	if address == "" {
		return sessionErr(s.ID, errors.New("on Temporal a session lives on a server: give its address (--temporal-address)"))
	}
	c, err := client.Dial(client.Options{HostPort: address, Logger: quietLogger()})
	if err != nil {
		return fmt.Errorf("connecting to Temporal at %s: %w", address, err)
	}
	defer c.Close()
	// The session's own task queue: only this program's worker takes its
	// tasks, with this run's handlers.
	w := worker.New(c, s.ID, worker.Options{})
	register(w)
	if err := w.Start(); err != nil {
		return err
	}
	defer w.Stop()
	if err := openSession(ctx, c, name, s); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "flowc: session %s is workflow %s on %s\n", s.ID, s.ID, address)
	return watch(ctx, c, s.ID, out)
}

func sessionErr(id string, err error) error { return &flowcrt.SessionError{Session: id, Err: err} }

// openSession starts the execution, or answers what it waits for.
func openSession(ctx context.Context, c client.Client, name string, s Session) error {
	status, err := sessionStatus(ctx, c, name, s.ID)
	if err != nil {
		return err
	}
	running := status == enums.WORKFLOW_EXECUTION_STATUS_RUNNING
	switch {
	case status == enums.WORKFLOW_EXECUTION_STATUS_TERMINATED || status == enums.WORKFLOW_EXECUTION_STATUS_CANCELED:
		return sessionErr(s.ID, session.ErrStopped) // as a native session Stop ended
	case running && s.Input != nil:
		return giveInput(ctx, c, s)
	case running || s.Task != (flowcimpl.TaskTokenFlags{}):
		return answer(ctx, c, s) // a token's refusal says why it is not waited for
	case s.Decision != "":
		return sessionErr(s.ID, errors.New("no approval waits for a decision: it is not running"))
	case status != enums.WORKFLOW_EXECUTION_STATUS_UNSPECIFIED && s.Input == nil:
		return nil // ended: its result again
	}
	in := s.Input
	if in == nil {
		in = json.RawMessage("{}")
	}
	opts := client.StartWorkflowOptions{ID: s.ID, TaskQueue: s.ID}
	if skipWaitsRequested() {
		opts.Memo = skipWaitsMemo
	}
	_, err = c.ExecuteWorkflow(ctx, opts, name, in)
	return err
}

// giveInput hands a running session new input through UpdateInput, and
// returns once the run has taken it.
func giveInput(ctx context.Context, c client.Client, s Session) error {
	h, err := c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{
		WorkflowID: s.ID, UpdateName: UpdateInput, WaitForStage: client.WorkflowUpdateStageCompleted,
		Args: []any{s.Input},
	})
	if err == nil {
		err = h.Get(ctx, nil)
	}
	if err != nil {
		return sessionErr(s.ID, err)
	}
	return nil
}

// sessionStatus is the status of the session's latest execution, or
// UNSPECIFIED when there is none; one of another workflow is refused.
func sessionStatus(ctx context.Context, c client.Client, name, id string) (enums.WorkflowExecutionStatus, error) {
	d, err := c.DescribeWorkflowExecution(ctx, id, "")
	if _, missing := errors.AsType[*serviceerror.NotFound](err); missing {
		return enums.WORKFLOW_EXECUTION_STATUS_UNSPECIFIED, nil
	}
	if err != nil {
		return 0, err
	}
	info := d.GetWorkflowExecutionInfo()
	// A long run continues as new under the name with ResumeSuffix.
	if t := strings.TrimSuffix(info.GetType().GetName(), ResumeSuffix); t != name {
		return 0, sessionErr(id, fmt.Errorf("it is a run of workflow %q, not %q", t, name))
	}
	return info.GetStatus(), nil
}

// answer sends the decision or the task token's answer, if any, and
// returns once the run has taken it.
func answer(ctx context.Context, c client.Client, s Session) error {
	ctx = flowcimpl.WithDoor(ctx, session.DoorCLI)
	t := s.Task
	token := cmp.Or(t.Success, t.Failure, t.Heartbeat)
	if token != "" {
		if owner, state, err := flowcimpl.TaskTokenOwner(token); err == nil && owner != s.ID {
			return sessionErr(s.ID, fmt.Errorf("task token of state %q: %w: it belongs to session %q", state, flowcrt.ErrTaskTokenUnknown, owner))
		}
	}
	var err error
	switch {
	case s.Decision != "":
		err = DecideAt(ctx, c, s.ID, s.At, s.Decision)
	case t.Success != "":
		output := t.Output
		if output == "" {
			output = "{}"
		}
		err = SendTaskSuccess(ctx, c, t.Success, json.RawMessage(output))
	case t.Failure != "":
		err = SendTaskFailure(ctx, c, t.Failure, t.Error, t.Cause)
	case t.Heartbeat != "":
		err = SendTaskHeartbeat(ctx, c, t.Heartbeat)
	}
	if err != nil {
		return sessionErr(s.ID, err)
	}
	if answered := cmp.Or(t.Success, t.Failure); answered != "" {
		return awaitTaken(ctx, c, s.ID, answered)
	}
	return nil
}

// awaitTaken waits until the run no longer waits for token: a signal is
// taken in a later workflow task than the one that answers the query.
func awaitTaken(ctx context.Context, c client.Client, id, token string) error {
	for {
		var pending []PendingTaskToken
		err := query(ctx, c, id, QueryTaskTokens, &pending)
		if err != nil || !slices.ContainsFunc(pending, func(p PendingTaskToken) bool { return p.Token == token }) {
			return nil // taken, or the run has ended: watch says which
		}
		if err := pause(ctx); err != nil {
			return err
		}
	}
}

// watchEvery is how often watch asks a running session what it waits for.
const watchEvery = 200 * time.Millisecond

func pause(ctx context.Context) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(watchEvery):
		return nil
	}
}

// watch works on the session until it ends, with its result in out, or
// stops: settled, with approvals or task tokens waiting. A session that
// only sleeps (a Wait, a retry interval) is worked on until it wakes.
func watch(ctx context.Context, c client.Client, id string, out any) error {
	ended := make(chan error, 1)
	watchCtx, cancel := context.WithCancel(ctx)
	go func() { ended <- c.GetWorkflow(watchCtx, id, "").Get(watchCtx, out) }()
	read := false
	defer func() { // no goroutine outlives the run
		cancel()
		if !read {
			<-ended
		}
	}()
	for {
		select {
		case err := <-ended:
			read = true
			return endOf(ctx, err)
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(watchEvery):
		}
		if stop := stopOf(ctx, c, id); stop != nil {
			return stop
		}
	}
}

// endOf is the outcome of a session whose run ended with err.
func endOf(ctx context.Context, err error) error {
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return ctx.Err()
	}
	return decode(err)
}

// stopOf returns what the session stopped at, or nil while it may still
// move on its own (or has just ended, which watch then reads).
func stopOf(ctx context.Context, c client.Client, id string) error {
	var settled bool
	var pending []flowcrt.Pending
	var tokens []PendingTaskToken
	if query(ctx, c, id, querySettled, &settled) != nil || !settled ||
		query(ctx, c, id, QueryPending, &pending) != nil || query(ctx, c, id, QueryTaskTokens, &tokens) != nil {
		return nil
	}
	switch {
	case len(pending) > 0:
		p := pending[0]
		wait := &flowcrt.Interrupted{Session: id, State: p.State, Prompt: p.Prompt, Options: p.Options, Key: p.Key}
		if len(pending) > 1 || p.Key != "" {
			wait.Stops = pending
		}
		return wait
	case len(tokens) > 0:
		wait := &flowcrt.TaskTokenWait{Session: id, State: tokens[0].State, Token: tokens[0].Token}
		if len(tokens) > 1 {
			for _, t := range tokens {
				wait.Tokens = append(wait.Tokens, t.Token)
			}
		}
		return wait
	}
	return nil
}

func query(ctx context.Context, c client.Client, id, name string, v any) error {
	r, err := c.QueryWorkflow(ctx, id, "", name)
	if err != nil {
		return err
	}
	return r.Get(v)
}
