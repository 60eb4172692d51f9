package flowtemporal

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enums "go.temporal.io/api/enums/v1"
	failurepb "go.temporal.io/api/failure/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"

	flowcrt "github.com/flowc-dev/flowc/runtime"
	flowcimpl "github.com/flowc-dev/flowc/runtime/impl"
	"github.com/flowc-dev/flowc/session"
)

// A session's history on Temporal is the workflow's own event history,
// mapped to the kinds of events a native session records
// (docs/temporal.md#flowc-sessions-on-a-server):
//
//   - WorkflowExecutionStarted (not a continuation): run_started, input
//   - ActivityTaskScheduled: state_entered, with the activity's input; its
//     state is the activity id's ("<state>#<n>", Execute)
//   - ActivityTaskStarted of an attempt past the first (a RetryPolicy), or
//     a state scheduled again after it failed and a timer started (a
//     retry rule's interval): retry_scheduled, attempt
//   - ActivityTaskCompleted: state_succeeded, output
//   - ActivityTaskFailed, TimedOut: state_failed, error and cause; the
//     approval activity's "no decision" is stopped_for_approval instead
//   - the side effect that issues a task token: task_token_issued, by hash
//   - the decision signal and the decide update, the task-token signal:
//     answer_received; the input update: input_merged
//   - WorkflowExecutionCompleted: run_succeeded; Failed, TimedOut:
//     run_failed; Terminated, Canceled: session_stopped
//
// States that run no activity (a Pass, a Choice, a Wait) leave a side
// effect of their own in runs started since quiet.go's change: their
// state_entered, then state_succeeded or state_failed; in runs started
// before it they leave no event. The stops
// that wait are those issued and not answered; the key of a task token's
// stop is its state.

// history is what readHistory reads of one session.
type history struct {
	events  []session.Event
	stops   []session.StopInfo // waiting at its end, in the order they began
	state   string             // the state entered last
	updated time.Time          // its last event's
	result  json.RawMessage    // a completed run's
	failure *session.Failure   // a failed run's
	tokens  []string           // the task tokens issued, which redact hides
}

// token is the task token issued whose hash is hash, "" when none was.
func (h *history) token(hash string) string {
	for _, t := range h.tokens {
		if session.TokenHash(t) == hash {
			return t
		}
	}
	return ""
}

// reader reads the events of one session, oldest first.
type reader struct {
	history
	scheduled map[int64]activityOf // per run: event ids start again at each
	failed    map[string]int       // the attempts that failed of states not yet retried or passed
	timed     map[string]bool      // of those, the states a timer started for since
}

// activityOf is a scheduled activity, as its later events need it.
type activityOf struct {
	state    string
	approval *approvalArgs // the approval activity's request
}

func readHistory(events []*historypb.HistoryEvent) *history {
	r := &reader{failed: map[string]int{}, timed: map[string]bool{}}
	for _, ev := range events {
		r.updated = ev.GetEventTime().AsTime()
		r.read(ev)
	}
	for i := range r.events {
		r.events[i].Seq = int64(i + 1)
	}
	return &r.history
}

func (r *reader) add(ev *historypb.HistoryEvent, kind session.EventKind, state string, fields any) {
	r.addAt(ev.GetEventTime().AsTime(), kind, state, fields)
}

// addAt adds an event that happened at at, before the history event that
// tells of it.
func (r *reader) addAt(at time.Time, kind session.EventKind, state string, fields any) {
	e := session.NewEvent(at, kind, state, fields)
	e.Fields = r.redact(e.Fields)
	r.events = append(r.events, e)
}

// redact replaces the task tokens issued so far with their hashes: a
// callback's activity gets its token in its input (Parameters with
// $$.Task.Token), and a history shows a token by its hash only.
func (r *reader) redact(data json.RawMessage) json.RawMessage {
	for _, t := range r.tokens {
		// A token is URL-safe base64 and dots: inside a JSON string as is.
		data = bytes.ReplaceAll(data, []byte(t), []byte("task-token:"+session.TokenHash(t)))
	}
	return data
}

func (r *reader) read(ev *historypb.HistoryEvent) {
	switch ev.GetEventType() {
	case enums.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED:
		r.scheduled = map[int64]activityOf{}
		a := ev.GetWorkflowExecutionStartedEventAttributes()
		if a.GetContinuedExecutionRunId() == "" { // a continuation goes on with the same session
			r.add(ev, session.KindRunStarted, "", map[string]any{"input": first(a.GetInput())})
		}
	case enums.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
		r.scheduledActivity(ev)
	case enums.EVENT_TYPE_ACTIVITY_TASK_STARTED:
		a := ev.GetActivityTaskStartedEventAttributes()
		if n := a.GetAttempt(); n > 1 {
			r.add(ev, session.KindRetryScheduled, r.scheduled[a.GetScheduledEventId()].state, map[string]any{"attempt": n})
		}
	case enums.EVENT_TYPE_ACTIVITY_TASK_COMPLETED:
		a := ev.GetActivityTaskCompletedEventAttributes()
		state := r.scheduled[a.GetScheduledEventId()].state
		delete(r.failed, state)
		r.add(ev, session.KindStateSucceeded, state, map[string]any{"output": first(a.GetResult())})
	case enums.EVENT_TYPE_ACTIVITY_TASK_FAILED:
		a := ev.GetActivityTaskFailedEventAttributes()
		r.activityFailed(ev, r.scheduled[a.GetScheduledEventId()], a.GetFailure())
	case enums.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT:
		a := ev.GetActivityTaskTimedOutEventAttributes()
		state := r.scheduled[a.GetScheduledEventId()].state
		r.failed[state]++
		r.add(ev, session.KindStateFailed, state, map[string]string{"error": "States.Timeout", "cause": a.GetFailure().GetMessage()})
	case enums.EVENT_TYPE_TIMER_STARTED:
		for state := range r.failed {
			r.timed[state] = true
		}
	case enums.EVENT_TYPE_MARKER_RECORDED:
		r.marker(ev)
	case enums.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED:
		a := ev.GetWorkflowExecutionSignaledEventAttributes()
		r.message(ev, a.GetSignalName(), a.GetInput())
	case enums.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED:
		in := ev.GetWorkflowExecutionUpdateAcceptedEventAttributes().GetAcceptedRequest().GetInput()
		r.message(ev, in.GetName(), in.GetArgs())
	default:
		r.ended(ev)
	}
}

func (r *reader) scheduledActivity(ev *historypb.HistoryEvent) {
	a := ev.GetActivityTaskScheduledEventAttributes()
	state := a.GetActivityId()
	if i := strings.LastIndexByte(state, '#'); i > 0 {
		state = state[:i]
	}
	var act activityOf
	input := first(a.GetInput())
	if strings.HasSuffix(a.GetActivityType().GetName(), ".Approve") {
		var req approvalArgs
		if json.Unmarshal(input, &req) == nil && req.State != "" {
			act.approval, state = &req, cmp.Or(req.Key, state) // inside a fan-out, its stop's key
			input, _ = json.Marshal(req.Input)
		}
	}
	act.state = state
	r.scheduled[ev.GetEventId()] = act
	if n := r.failed[state]; n > 0 && r.timed[state] {
		r.add(ev, session.KindRetryScheduled, state, map[string]any{"attempt": n + 1})
	} else {
		delete(r.failed, state) // a new visit, not a retry
	}
	delete(r.timed, state)
	r.state = state
	r.add(ev, session.KindStateEntered, state, map[string]any{"input": input})
}

func (r *reader) activityFailed(ev *historypb.HistoryEvent, act activityOf, f *failurepb.Failure) {
	err := decode(temporal.GetDefaultFailureConverter().FailureToError(f))
	if req := act.approval; req != nil && errors.Is(err, flowcrt.ErrNoDecision) {
		key := cmp.Or(req.Key, req.State)
		r.stops = append(r.stops, session.StopInfo{Key: key, State: req.State, Kind: session.KindApproval, Prompt: req.Prompt, Options: req.Options})
		r.add(ev, session.KindStoppedForApproval, key, map[string]any{"key": key, "prompt": req.Prompt, "options": req.Options})
		return
	}
	r.failed[act.state]++
	r.add(ev, session.KindStateFailed, act.state, errorFields(err))
}

// marker reads the side effect that issued a task token, or that
// recorded the visit of a quiet state (quiet.go).
func (r *reader) marker(ev *historypb.HistoryEvent) {
	a := ev.GetMarkerRecordedEventAttributes()
	if a.GetMarkerName() != "SideEffect" {
		return
	}
	data := first(a.GetDetails()["data"])
	if v, ok := quietVisitOf(data); ok {
		r.quietVisit(ev, v)
		return
	}
	var token string
	if json.Unmarshal(data, &token) != nil {
		return
	}
	_, state, err := flowcimpl.TaskTokenOwner(token)
	if err != nil {
		return // another side effect: a random seed
	}
	hash := session.TokenHash(token)
	r.tokens = append(r.tokens, token)
	r.stops = append(r.stops, session.StopInfo{Key: state, State: state, Kind: session.KindTaskToken, TokenHash: hash})
	r.add(ev, session.KindTaskTokenIssued, state, map[string]string{"key": state, "token_hash": hash})
}

// quietVisit reads the visit of a state that ran no activity, recorded
// once it ended: entered when it says (a Wait's start), else at once.
func (r *reader) quietVisit(ev *historypb.HistoryEvent, v quietVisit) {
	r.state = v.Quiet
	entered := ev.GetEventTime().AsTime()
	if !v.Entered.IsZero() {
		entered = v.Entered
	}
	r.addAt(entered, session.KindStateEntered, v.Quiet, map[string]any{})
	if v.Error != "" {
		r.add(ev, session.KindStateFailed, v.Quiet, map[string]string{"error": v.Error, "cause": v.Cause})
		return
	}
	r.add(ev, session.KindStateSucceeded, v.Quiet, map[string]any{})
}

// message reads a signal or an accepted update: an answer, or new input.
func (r *reader) message(ev *historypb.HistoryEvent, name string, args *commonpb.Payloads) {
	switch name {
	case SignalDecision, UpdateDecide:
		var d Decision
		if json.Unmarshal(first(args), &d) == nil {
			r.decided(ev, d)
		}
	case SignalTaskToken, UpdateTaskToken:
		var a TaskTokenAnswer
		if json.Unmarshal(first(args), &a) == nil {
			r.tokenAnswered(ev, a)
		}
	case UpdateInput:
		r.stops = nil // the steps in flight stop; an approval asks again
		r.add(ev, session.KindInputMerged, "", map[string]any{"input": first(args)})
	}
}

// decided takes the stop d answers off the waiting ones, as resolve finds
// it in the workflow.
func (r *reader) decided(ev *historypb.HistoryEvent, d Decision) {
	i := slices.IndexFunc(r.stops, func(s session.StopInfo) bool {
		return s.Kind == session.KindApproval && (d.Key != "" && s.Key == d.Key || d.Key == "" && (d.State == "" || d.State == s.State))
	})
	key := cmp.Or(d.Key, d.State)
	if i >= 0 {
		key = r.stops[i].Key
		r.stops = slices.Delete(r.stops, i, i+1)
	}
	fields := map[string]string{"key": key, "decision": d.Decision}
	if d.Door != "" {
		fields["door"] = d.Door
	}
	r.add(ev, session.KindAnswerReceived, key, fields)
}

func (r *reader) tokenAnswered(ev *historypb.HistoryEvent, a TaskTokenAnswer) {
	hash := session.TokenHash(a.Token)
	_, state, _ := flowcimpl.TaskTokenOwner(a.Token)
	fields := map[string]any{"key": state, "token_hash": hash}
	switch {
	case a.Heartbeat:
		fields["outcome"] = "heartbeat"
	case a.Failed:
		fields["outcome"], fields["error"], fields["cause"] = "failure", a.Error, a.Cause
	default:
		fields["outcome"], fields["output"] = "success", a.Output
	}
	if a.Door != "" {
		fields["door"] = a.Door
	}
	if !a.Heartbeat {
		r.stops = slices.DeleteFunc(r.stops, func(s session.StopInfo) bool { return s.TokenHash == hash })
	}
	r.add(ev, session.KindAnswerReceived, state, fields)
}

// ended reads the event that ends an execution, if ev is one.
func (r *reader) ended(ev *historypb.HistoryEvent) {
	switch ev.GetEventType() {
	case enums.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED:
		r.result = r.redact(first(ev.GetWorkflowExecutionCompletedEventAttributes().GetResult()))
		r.add(ev, session.KindRunSucceeded, "", map[string]any{"output": r.result})
	case enums.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED:
		err := decode(temporal.GetDefaultFailureConverter().FailureToError(ev.GetWorkflowExecutionFailedEventAttributes().GetFailure()))
		r.runFailed(ev, errorFields(err))
	case enums.EVENT_TYPE_WORKFLOW_EXECUTION_TIMED_OUT:
		r.runFailed(ev, map[string]string{"error": "States.Timeout", "cause": "the workflow execution timed out"})
	case enums.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED:
		a := ev.GetWorkflowExecutionTerminatedEventAttributes()
		var d stopDetails
		if json.Unmarshal(first(a.GetDetails()), &d) != nil || d == (stopDetails{}) {
			d = stopDetails{Cause: a.GetReason()} // terminated by another client
		}
		r.add(ev, session.KindSessionStopped, r.state, map[string]string{"error": d.Error, "cause": d.Cause})
	case enums.EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED:
		r.add(ev, session.KindSessionStopped, r.state, map[string]string{"error": "", "cause": "the workflow execution was canceled"})
	default:
		return
	}
	r.stops = nil
}

func (r *reader) runFailed(ev *historypb.HistoryEvent, fields map[string]string) {
	r.failure = &session.Failure{Error: fields["error"], Cause: fields["cause"]}
	r.add(ev, session.KindRunFailed, "", fields)
}

// errorFields are an error's name and cause as the result line gives them:
// the cause of the named error in its chain, else its message.
func errorFields(err error) map[string]string {
	cause := err.Error()
	if e, ok := errors.AsType[*flowcrt.Error](err); ok {
		cause = e.Cause
	}
	return map[string]string{"error": flowcimpl.ErrorName(err), "cause": cause}
}

// first is the first payload's JSON; null when there is none or it is
// not JSON (flowc's payloads always are).
func first(p *commonpb.Payloads) json.RawMessage {
	if ps := p.GetPayloads(); len(ps) > 0 {
		var v json.RawMessage
		if converter.GetDefaultDataConverter().FromPayload(ps[0], &v) == nil && json.Valid(v) {
			return v
		}
	}
	return json.RawMessage("null")
}
