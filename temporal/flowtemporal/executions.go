package flowtemporal

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"time"

	enums "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/serviceerror"
	workflowpb "go.temporal.io/api/workflow/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"

	"github.com/flowc-dev/flowc/session"
	"github.com/flowc-dev/flowc/session/cli"
)

// Executions are the sessions of a Temporal server, as `flowc sessions
// --temporal-address` lists, shows, follows and stops them: each workflow
// execution is a session, whose id is the workflow id, and what it did and
// what it waits for are read from its event history alone, so that no
// worker need run (a query waits for one). A long run's history is read
// across its continue-as-new chain.
type Executions struct{ c client.Client }

// NewExecutions returns the sessions of the server c talks to.
func NewExecutions(c client.Client) *Executions { return &Executions{c} }

var _ cli.Sessions = (*Executions)(nil)

// Sessions lists the latest execution of every workflow id, newest first.
// Status and workflow are filtered here: whether a running execution
// waits, and for what, is in its history, not in the visibility store.
func (e *Executions) Sessions(ctx context.Context, q session.Query) (session.Page, error) {
	infos, err := e.latest(ctx)
	if err != nil {
		return session.Page{}, err
	}
	page := session.Page{Counts: map[session.Status]int{}}
	var all []session.Summary
	for _, info := range infos {
		d, err := e.describe(ctx, info)
		if err != nil {
			return session.Page{}, err
		}
		page.Counts[d.Status]++
		if (q.Status == "" || d.Status == q.Status) && (q.Workflow == "" || sameWorkflow(d.Workflow, q.Workflow)) {
			all = append(all, session.Summary{ID: d.ID, Workflow: d.Workflow, Status: d.Status, State: d.State, Updated: d.Updated, Stops: len(d.Stops)})
		}
	}
	slices.SortFunc(all, func(a, b session.Summary) int {
		return cmp.Or(b.Updated.Compare(a.Updated), strings.Compare(a.ID, b.ID))
	})
	if q.Before != "" {
		i := slices.IndexFunc(all, func(s session.Summary) bool { return s.ID == q.Before })
		all = all[i+1:] // -1: the cursor's session is gone; start again
	}
	if q.Limit > 0 && len(all) > q.Limit {
		all = all[:q.Limit]
		page.Next = all[len(all)-1].ID
	}
	page.Sessions = all
	return page, nil
}

// latest lists the newest execution of each workflow id: a session that
// continued as new, or was started again once ended, is one session.
func (e *Executions) latest(ctx context.Context) ([]*workflowpb.WorkflowExecutionInfo, error) {
	newest := map[string]*workflowpb.WorkflowExecutionInfo{}
	var token []byte
	for {
		resp, err := e.c.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{NextPageToken: token})
		if err != nil {
			return nil, err
		}
		for _, info := range resp.GetExecutions() {
			id := info.GetExecution().GetWorkflowId()
			if old, ok := newest[id]; !ok || info.GetStartTime().AsTime().After(old.GetStartTime().AsTime()) {
				newest[id] = info
			}
		}
		if token = resp.GetNextPageToken(); len(token) == 0 {
			break
		}
	}
	infos := make([]*workflowpb.WorkflowExecutionInfo, 0, len(newest))
	for _, info := range newest {
		infos = append(infos, info)
	}
	return infos, nil
}

// sameWorkflow matches a workflow type against the name given to
// --workflow: the type itself, or the flowc id it was generated from
// ("order-intake" for OrderIntake).
func sameWorkflow(typ, name string) bool {
	fold := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r == '-' || r == '_' || r == '.' || r == ' ' {
				return -1
			}
			return r
		}, strings.ToLower(s))
	}
	return typ == name || fold(typ) == fold(name)
}

// Describe returns the session as `flowc sessions show` prints it.
func (e *Executions) Describe(ctx context.Context, id string) (cli.Description, error) {
	resp, err := e.c.DescribeWorkflowExecution(ctx, id, "")
	if err != nil {
		return cli.Description{}, notFound(id, err)
	}
	return e.describe(ctx, resp.GetWorkflowExecutionInfo())
}

func (e *Executions) describe(ctx context.Context, info *workflowpb.WorkflowExecutionInfo) (cli.Description, error) {
	id := info.GetExecution().GetWorkflowId()
	h, err := e.read(ctx, id)
	if err != nil {
		return cli.Description{}, err
	}
	d := cli.Description{ID: id, Workflow: strings.TrimSuffix(info.GetType().GetName(), ResumeSuffix),
		Status: statusOf(info.GetStatus(), h.stops), State: h.state, Updated: h.updated, Stops: h.stops}
	if info.GetStatus() != enums.WORKFLOW_EXECUTION_STATUS_RUNNING {
		d.Stops = nil
	}
	if len(d.Stops) > 0 {
		d.State = d.Stops[0].State
	}
	switch d.Status {
	case session.StatusSucceeded:
		d.Data = h.result
	case session.StatusFailed:
		d.Failure = h.failure
	}
	return d, nil
}

// statusOf is the status of an execution: a running one is interrupted
// while an approval waits, waiting while a task token does.
func statusOf(s enums.WorkflowExecutionStatus, stops []session.StopInfo) session.Status {
	switch s {
	case enums.WORKFLOW_EXECUTION_STATUS_COMPLETED:
		return session.StatusSucceeded
	case enums.WORKFLOW_EXECUTION_STATUS_FAILED, enums.WORKFLOW_EXECUTION_STATUS_TIMED_OUT:
		return session.StatusFailed
	case enums.WORKFLOW_EXECUTION_STATUS_TERMINATED, enums.WORKFLOW_EXECUTION_STATUS_CANCELED:
		return session.StatusStopped
	}
	switch {
	case slices.ContainsFunc(stops, func(s session.StopInfo) bool { return s.Kind == session.KindApproval }):
		return session.StatusInterrupted
	case len(stops) > 0:
		return session.StatusWaiting
	}
	return session.StatusRunning
}

// ErrNotWaiting is wrapped by WaitingAt's error when the stop does not
// wait: it was answered, or the run went on or ended.
var ErrNotWaiting = errors.New("it does not wait: it was answered, or the run went on")

// WaitingAt returns the stop key of session id as its history shows it
// waiting, and for a task token's stop the token, which no listing
// shows. A stop that does not wait is an error wrapping ErrNotWaiting,
// or session.ErrStopped once the session was stopped.
func (e *Executions) WaitingAt(ctx context.Context, id, key string) (session.StopInfo, string, error) {
	resp, err := e.c.DescribeWorkflowExecution(ctx, id, "")
	if err != nil {
		return session.StopInfo{}, "", notFound(id, err)
	}
	switch st := resp.GetWorkflowExecutionInfo().GetStatus(); statusOf(st, nil) {
	case session.StatusStopped:
		return session.StopInfo{}, "", session.Err(id, session.ErrStopped)
	case session.StatusSucceeded, session.StatusFailed:
		return session.StopInfo{}, "", fmt.Errorf("session %q: stop %q: %w", id, key, ErrNotWaiting)
	}
	h, err := e.read(ctx, id)
	if err != nil {
		return session.StopInfo{}, "", err
	}
	i := slices.IndexFunc(h.stops, func(s session.StopInfo) bool { return s.Key == key })
	if i < 0 {
		return session.StopInfo{}, "", fmt.Errorf("session %q: stop %q: %w", id, key, ErrNotWaiting)
	}
	return h.stops[i], h.token(h.stops[i].TokenHash), nil
}

// History returns the session's history, mapped to flowc's kinds of
// events (see readHistory); nothing is dropped: the server keeps it all.
func (e *Executions) History(ctx context.Context, id string, after int64, limit int) ([]session.Event, int64, error) {
	h, err := e.read(ctx, id)
	if err != nil {
		return nil, 0, err
	}
	events := h.events[min(int(max(after, 0)), len(h.events)):]
	if limit > 0 && len(events) > limit {
		events = events[:limit]
	}
	return events, 0, nil
}

// read reads the history of session id's latest execution and of the
// executions it continued, oldest first.
func (e *Executions) read(ctx context.Context, id string) (*history, error) {
	var runs [][]*historypb.HistoryEvent
	for runID := ""; ; {
		events, err := e.run(ctx, id, runID)
		if err != nil {
			return nil, notFound(id, err)
		}
		runs = append(runs, events)
		if len(events) == 0 {
			break
		}
		if runID = events[0].GetWorkflowExecutionStartedEventAttributes().GetContinuedExecutionRunId(); runID == "" {
			break
		}
	}
	slices.Reverse(runs)
	return readHistory(slices.Concat(runs...)), nil
}

func (e *Executions) run(ctx context.Context, id, runID string) ([]*historypb.HistoryEvent, error) {
	it := e.c.GetWorkflowHistory(ctx, id, runID, false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	var events []*historypb.HistoryEvent
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			return nil, err
		}
		events = append(events, ev)
	}
	return events, nil
}

// ErrNoExecution is wrapped by the error of Executions' methods for a
// session id of which the server has no workflow execution.
var ErrNoExecution = errors.New("the server has no workflow execution of that id")

func notFound(id string, err error) error {
	if _, ok := errors.AsType[*serviceerror.NotFound](err); ok {
		return fmt.Errorf("no session %q: %w", id, ErrNoExecution)
	}
	return err
}

// stopDetails are the details of a termination by Stop, which the
// session_stopped event reads back.
type stopDetails struct {
	Error string `json:"error,omitempty"`
	Cause string `json:"cause,omitempty"`
}

// Stop terminates the session's running execution, with the error name
// and cause in its details: it runs nothing after it, and no decision,
// task token or input is taken (the update, signal and run of flowc find
// it ended). An ended execution cannot be stopped.
func (e *Executions) Stop(ctx context.Context, id, errName, cause string) error {
	resp, err := e.c.DescribeWorkflowExecution(ctx, id, "")
	if err != nil {
		return notFound(id, err)
	}
	switch st := statusOf(resp.GetWorkflowExecutionInfo().GetStatus(), nil); st {
	case session.StatusStopped:
		return session.Err(id, session.ErrStopped)
	case session.StatusSucceeded, session.StatusFailed:
		return session.Err(id, fmt.Errorf("the session has %s; there is nothing to stop", st))
	}
	reason := "stopped by flowc" // by flowc sessions stop or the console
	if errName != "" || cause != "" {
		reason += ": " + strings.TrimPrefix(errName+": "+cause, ": ")
	}
	return e.c.TerminateWorkflow(ctx, id, "", reason, stopDetails{Error: errName, Cause: cause})
}

// SessionsMain runs `flowc sessions` on the server at address: args are
// the command and its arguments (package session/cli). It returns the
// exit code.
func SessionsMain(address string, args []string, stdout, stderr io.Writer) int {
	c, err := client.Dial(client.Options{HostPort: address, Logger: quietLogger()})
	if err != nil {
		fmt.Fprintf(stderr, "flowc sessions: connecting to Temporal at %s: %v\n", address, err)
		return 2
	}
	defer c.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, sessionsTimeout)
	defer cancel()
	return cli.Run(ctx, NewExecutions(c), args, stdout, stderr)
}

// sessionsTimeout bounds one command, so that a server that stops
// answering does not hang a script.
const sessionsTimeout = 2 * time.Minute
