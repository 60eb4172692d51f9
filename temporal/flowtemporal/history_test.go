package flowtemporal

import (
	"slices"
	"strings"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enums "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	updatepb "go.temporal.io/api/update/v1"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"
	"google.golang.org/protobuf/types/known/timestamppb"

	flowcrt "github.com/flowc-dev/flowc/runtime"
	"github.com/flowc-dev/flowc/session"
)

// historyOf builds a history as a server writes one: event ids from 1.
type historyOf struct {
	t      *testing.T
	events []*historypb.HistoryEvent
}

func (h *historyOf) add(typ enums.EventType, set func(*historypb.HistoryEvent)) int64 {
	id := int64(len(h.events) + 1)
	ev := &historypb.HistoryEvent{EventId: id, EventType: typ, EventTime: timestamppb.New(time.Unix(id, 0))}
	set(ev)
	h.events = append(h.events, ev)
	return id
}

func (h *historyOf) payloads(v ...any) *commonpb.Payloads {
	p, err := converter.GetDefaultDataConverter().ToPayloads(v...)
	if err != nil {
		h.t.Fatal(err)
	}
	return p
}

func (h *historyOf) schedule(activityID, typ string, in any) int64 {
	return h.add(enums.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED, func(ev *historypb.HistoryEvent) {
		ev.Attributes = &historypb.HistoryEvent_ActivityTaskScheduledEventAttributes{ActivityTaskScheduledEventAttributes: &historypb.ActivityTaskScheduledEventAttributes{
			ActivityId: activityID, ActivityType: &commonpb.ActivityType{Name: typ}, Input: h.payloads(in)}}
	})
}

func (h *historyOf) fail(scheduled int64, err error) {
	h.add(enums.EVENT_TYPE_ACTIVITY_TASK_FAILED, func(ev *historypb.HistoryEvent) {
		ev.Attributes = &historypb.HistoryEvent_ActivityTaskFailedEventAttributes{ActivityTaskFailedEventAttributes: &historypb.ActivityTaskFailedEventAttributes{
			ScheduledEventId: scheduled, Failure: temporal.GetDefaultFailureConverter().ErrorToFailure(encode(err))}}
	})
}

func kinds(events []session.Event) []string {
	var out []string
	for _, e := range events {
		out = append(out, string(e.Kind)+" "+e.State)
	}
	return out
}

// What the dev-server test does not reach: a retry rule's second attempt
// after its interval's timer, a RetryPolicy's attempt, the failure's name
// and cause, new input ending the stops that waited, and a termination by
// another client (`temporal workflow terminate`), whose reason is the cause.
func TestReadHistory(t *testing.T) {
	h := &historyOf{t: t}
	h.add(enums.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED, func(ev *historypb.HistoryEvent) {
		ev.Attributes = &historypb.HistoryEvent_WorkflowExecutionStartedEventAttributes{WorkflowExecutionStartedEventAttributes: &historypb.WorkflowExecutionStartedEventAttributes{Input: h.payloads(map[string]int{"n": 1})}}
	})
	first := h.schedule("Fetch#1", "Flow.Fetch", map[string]int{"n": 1})
	h.fail(first, flowcrt.NewError("Flaky", "busy"))
	h.add(enums.EVENT_TYPE_TIMER_STARTED, func(*historypb.HistoryEvent) {})
	second := h.schedule("Fetch#2", "Flow.Fetch", map[string]int{"n": 1})
	h.add(enums.EVENT_TYPE_ACTIVITY_TASK_STARTED, func(ev *historypb.HistoryEvent) {
		ev.Attributes = &historypb.HistoryEvent_ActivityTaskStartedEventAttributes{ActivityTaskStartedEventAttributes: &historypb.ActivityTaskStartedEventAttributes{ScheduledEventId: second, Attempt: 3}}
	})
	h.add(enums.EVENT_TYPE_ACTIVITY_TASK_COMPLETED, func(ev *historypb.HistoryEvent) {
		ev.Attributes = &historypb.HistoryEvent_ActivityTaskCompletedEventAttributes{ActivityTaskCompletedEventAttributes: &historypb.ActivityTaskCompletedEventAttributes{ScheduledEventId: second, Result: h.payloads("ok")}}
	})
	ask := h.schedule("Review#3", "Flow.Approve", approvalArgs{flowcrt.ApprovalRequest{State: "Review", Prompt: "Ship?", Options: []string{"yes", "no"}}, ""})
	h.fail(ask, flowcrt.ErrNoDecision)
	h.add(enums.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED, func(ev *historypb.HistoryEvent) {
		ev.Attributes = &historypb.HistoryEvent_WorkflowExecutionUpdateAcceptedEventAttributes{WorkflowExecutionUpdateAcceptedEventAttributes: &historypb.WorkflowExecutionUpdateAcceptedEventAttributes{
			AcceptedRequest: &updatepb.Request{Input: &updatepb.Input{Name: UpdateInput, Args: h.payloads(map[string]int{"n": 2})}}}}
	})
	h.add(enums.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED, func(ev *historypb.HistoryEvent) {
		ev.Attributes = &historypb.HistoryEvent_WorkflowExecutionTerminatedEventAttributes{WorkflowExecutionTerminatedEventAttributes: &historypb.WorkflowExecutionTerminatedEventAttributes{Reason: "ops said so"}}
	})

	got := readHistory(h.events)
	want := []string{"run_started ", "state_entered Fetch", "state_failed Fetch", "retry_scheduled Fetch", "state_entered Fetch",
		"retry_scheduled Fetch", "state_succeeded Fetch", "state_entered Review", "stopped_for_approval Review", "input_merged ", "session_stopped Review"}
	if k := kinds(got.events); !slices.Equal(k, want) {
		t.Fatalf("events:\n%s\nwant:\n%s", strings.Join(k, "\n"), strings.Join(want, "\n"))
	}
	for i, fields := range map[int]string{
		2:  `{"cause":"busy","error":"Flaky"}`,
		3:  `{"attempt":2}`,
		5:  `{"attempt":3}`,
		8:  `{"key":"Review","options":["yes","no"],"prompt":"Ship?"}`,
		10: `{"cause":"ops said so","error":""}`,
	} {
		if string(got.events[i].Fields) != fields {
			t.Errorf("event %d (%s): fields %s, want %s", i+1, got.events[i].Kind, got.events[i].Fields, fields)
		}
	}
	if len(got.stops) != 0 || got.events[10].Seq != 11 {
		t.Errorf("stops %+v, last seq %d: want none waiting after new input and the end, seq 1-based", got.stops, got.events[10].Seq)
	}
}

// A Choice and a Fail run no activity: their side effects (quiet.go) are
// their visits, the Fail's with its error; the run's failure is what a
// failed session shows (session.Failure), as a native checkpoint's.
func TestReadQuietStates(t *testing.T) {
	h := &historyOf{t: t}
	h.add(enums.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED, func(ev *historypb.HistoryEvent) {
		ev.Attributes = &historypb.HistoryEvent_WorkflowExecutionStartedEventAttributes{WorkflowExecutionStartedEventAttributes: &historypb.WorkflowExecutionStartedEventAttributes{Input: h.payloads(map[string]int{"n": 1})}}
	})
	for _, v := range []quietVisit{{Quiet: "Pick"}, {Quiet: "Give up", Error: "Boom", Cause: "no way"}} {
		h.add(enums.EVENT_TYPE_MARKER_RECORDED, func(ev *historypb.HistoryEvent) {
			ev.Attributes = &historypb.HistoryEvent_MarkerRecordedEventAttributes{MarkerRecordedEventAttributes: &historypb.MarkerRecordedEventAttributes{
				MarkerName: "SideEffect", Details: map[string]*commonpb.Payloads{"data": h.payloads(v)}}}
		})
	}
	h.add(enums.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED, func(ev *historypb.HistoryEvent) {
		ev.Attributes = &historypb.HistoryEvent_WorkflowExecutionFailedEventAttributes{WorkflowExecutionFailedEventAttributes: &historypb.WorkflowExecutionFailedEventAttributes{
			Failure: temporal.GetDefaultFailureConverter().ErrorToFailure(encode(flowcrt.NewError("Boom", "no way")))}}
	})

	got := readHistory(h.events)
	want := []string{"run_started ", "state_entered Pick", "state_succeeded Pick", "state_entered Give up", "state_failed Give up", "run_failed "}
	if k := kinds(got.events); !slices.Equal(k, want) {
		t.Fatalf("events:\n%s\nwant:\n%s", strings.Join(k, "\n"), strings.Join(want, "\n"))
	}
	if f := string(got.events[4].Fields); f != `{"cause":"no way","error":"Boom"}` {
		t.Errorf("the Fail's event has fields %s", f)
	}
	if got.state != "Give up" || got.failure == nil || *got.failure != (session.Failure{Error: "Boom", Cause: "no way"}) {
		t.Errorf("the session is at %q, failed with %+v; want at Give up, failed with Boom: no way", got.state, got.failure)
	}
}

// A Wait's visit is recorded once the Wait ends, with the time it began:
// its state_entered is dated then, not when the marker was written; a
// marker without it (recorded before the field) is dated by its event.
func TestReadQuietWaitEntered(t *testing.T) {
	h := &historyOf{t: t}
	began := time.Unix(1, 0).Add(-time.Hour).UTC() // before the marker, at no event of h
	for _, v := range []quietVisit{{Quiet: "Hold", Entered: began}, {Quiet: "Pick"}} {
		h.add(enums.EVENT_TYPE_MARKER_RECORDED, func(ev *historypb.HistoryEvent) {
			ev.Attributes = &historypb.HistoryEvent_MarkerRecordedEventAttributes{MarkerRecordedEventAttributes: &historypb.MarkerRecordedEventAttributes{
				MarkerName: "SideEffect", Details: map[string]*commonpb.Payloads{"data": h.payloads(v)}}}
		})
	}
	got := readHistory(h.events)
	want := []string{"state_entered Hold", "state_succeeded Hold", "state_entered Pick", "state_succeeded Pick"}
	if k := kinds(got.events); !slices.Equal(k, want) {
		t.Fatalf("events:\n%s\nwant:\n%s", strings.Join(k, "\n"), strings.Join(want, "\n"))
	}
	at := func(i int) time.Time { return got.events[i].Time.UTC() }
	if !at(0).Equal(began) || !at(1).Equal(time.Unix(1, 0).UTC()) || !at(2).Equal(time.Unix(2, 0).UTC()) {
		t.Errorf("Hold entered at %v, left at %v; Pick entered at %v: want %v, the marker's time, the marker's time", at(0), at(1), at(2), began)
	}
}
