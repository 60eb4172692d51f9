package temporal_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/interceptor"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	flowcrt "github.com/flowc-dev/flowc/runtime"
	"github.com/flowc-dev/flowc/session"
	"github.com/flowc-dev/flowc/temporal/flowtemporal"
	"github.com/flowc-dev/flowc/temporal/golden/aslmapwait"
	"github.com/flowc-dev/flowc/temporal/golden/aslwait"
)

// shipper is the handler of golden/aslwait: it keeps what Ship is given.
type shipper struct {
	mu  sync.Mutex
	got []any
}

func (s *shipper) Ship(_ context.Context, in any) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.got = append(s.got, in)
	return in, nil
}

func (s *shipper) entered(t *testing.T) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.got) != 1 {
		t.Fatalf("Ship ran %d times, want once: %v", len(s.got), s.got)
	}
	entered, _ := s.got[0].(map[string]any)["entered"].(string)
	return entered
}

const until2099 = "2099-01-01T00:00:00Z"

// In Temporal's test environment a Wait until 2099 is one workflow timer,
// which the environment's clock jumps to: the run gets past it, and the
// state after it is entered at the timestamp (issue 22: the environment's
// ten-year run timeout used to fail the run, "deadline exceeded").
func TestWaitIsAWorkflowTimer(t *testing.T) {
	var suite testsuite.WorkflowTestSuite
	env := suite.NewTestWorkflowEnvironment()
	env.SetWorkflowRunTimeout(0) // as RunWorkflow's test environment
	h := &shipper{}
	aslwait.RegisterHold(env, h)
	var timers []time.Duration
	env.SetOnTimerScheduledListener(func(_ string, d time.Duration) { timers = append(timers, d) })
	start := env.Now()
	env.ExecuteWorkflow(aslwait.HoldWorkflowName, json.RawMessage(`{"order": 7, "until": "`+until2099+`"}`))
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	deadline, _ := time.Parse(time.RFC3339, until2099)
	if len(timers) != 1 || timers[0] != deadline.Sub(start) {
		t.Errorf("timers %v, want one of %s", timers, deadline.Sub(start))
	}
	if got := h.entered(t); got != "2099-01-01T00:00:00.000Z" {
		t.Errorf("Ship entered at %s, want at the Wait's timestamp", got)
	}
}

// TestWaitOnServer runs golden/aslwait on a Temporal dev server: a short
// Wait is a timer in the workflow's history, not an activity; with
// $FLOWC_SKIP_WAITS (`flowc run --engine temporal --skip-waits`) a Wait
// until 2099 starts no timer and passes at once, the time read after it
// being 2099 as on the native engine's fake clock.
func TestWaitOnServer(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Temporal dev server")
	}
	address := devServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	t.Run("a timer in the history", func(t *testing.T) {
		c, err := client.Dial(client.Options{HostPort: address})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		w := worker.New(c, "hold", worker.Options{})
		aslwait.RegisterHold(w, &shipper{})
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
		defer w.Stop()
		until := time.Now().Add(2 * time.Second).UTC().Format(time.RFC3339Nano)
		run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "hold-timer", TaskQueue: "hold"}, aslwait.HoldWorkflowName, map[string]any{"order": 1, "until": until})
		if err != nil {
			t.Fatal(err)
		}
		if err := run.Get(ctx, nil); err != nil {
			t.Fatal(err)
		}
		counts := map[enums.EventType]int{}
		it := c.GetWorkflowHistory(ctx, run.GetID(), run.GetRunID(), false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
		for it.HasNext() {
			e, err := it.Next()
			if err != nil {
				t.Fatal(err)
			}
			counts[e.GetEventType()]++
		}
		if counts[enums.EVENT_TYPE_TIMER_STARTED] != 1 || counts[enums.EVENT_TYPE_TIMER_FIRED] != 1 || counts[enums.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED] != 1 {
			t.Errorf("history %v: want the Wait as one timer and Ship as the only activity", counts)
		}
	})

	t.Run("skip-waits", func(t *testing.T) {
		t.Setenv("FLOWC_SKIP_WAITS", "1")
		h := &shipper{}
		register := func(r worker.Registry) { aslwait.RegisterHold(r, h) }
		var out any
		began := time.Now()
		err := flowtemporal.RunWorkflow(ctx, address, register, aslwait.HoldWorkflowName, map[string]any{"order": 2, "until": until2099}, &out, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		if took := time.Since(began); took > 30*time.Second {
			t.Errorf("the run took %s", took)
		}
		if got := h.entered(t); got != "2099-01-01T00:00:00.000Z" {
			t.Errorf("Ship entered at %s, want at the Wait's timestamp", got)
		}
	})
}

// `flowc run --skip-waits` gets past a Wait until 2099 on both engines,
// with the same result line (issue 22).
func TestRunSkipsWaitUntil2099(t *testing.T) {
	if testing.Short() {
		t.Skip("builds flowc and two programs")
	}
	flowc := buildFlowc(t)
	args := []string{"run", "testdata/wait2099.asl.json", "--skip-waits"}
	native, nativeCode := runFlowc(t, flowc, args...)
	onTemporal, temporalCode := runFlowc(t, flowc, append(args, "--engine", "temporal")...)
	want := `{"status":"SUCCEEDED","output":{"entered":"2099-01-01T00:00:00.000Z"}}` + "\n"
	if string(native) != want || nativeCode != 0 {
		t.Errorf("native (exit %d): %s", nativeCode, native)
	}
	if string(onTemporal) != want || temporalCode != 0 {
		t.Errorf("temporal (exit %d): %s", temporalCode, onTemporal)
	}
}

// A run that must continue as new at every checkpoint does not stop at the
// one that keeps its Wait's deadline, which is saved inside the Wait: it
// sleeps on one timer and continues as new after the Wait, and Ship runs
// once (flowtemporal.RunSession).
func TestContinueAsNewAfterWait(t *testing.T) {
	defer func(n int) { flowtemporal.StepsPerRun = n }(flowtemporal.StepsPerRun)
	flowtemporal.StepsPerRun = 1
	var suite testsuite.WorkflowTestSuite
	env := suite.NewTestWorkflowEnvironment()
	env.SetWorkflowRunTimeout(0)
	h := &shipper{}
	aslwait.RegisterHold(env, h)
	var timers int
	env.SetOnTimerScheduledListener(func(string, time.Duration) { timers++ })
	env.ExecuteWorkflow(aslwait.HoldWorkflowName, json.RawMessage(`{"order": 7, "until": "`+until2099+`"}`))
	var cont *workflow.ContinueAsNewError
	if err := env.GetWorkflowError(); !errors.As(err, &cont) {
		t.Fatalf("the run must continue as new after the Wait: %v", err)
	}
	var at flowcrt.Checkpoint
	if err := converter.GetDefaultDataConverter().FromPayloads(cont.Input, &at); err != nil {
		t.Fatal(err)
	}
	if at.Position.State != "Ship" || at.Position.Timer != nil || timers != 1 {
		t.Errorf("continued at %+v after %d timers: want at Ship, after one timer", at.Position, timers)
	}

	next := suite.NewTestWorkflowEnvironment()
	deadline, _ := time.Parse(time.RFC3339, until2099)
	next.SetStartTime(deadline) // the new run starts when the timer fired
	aslwait.RegisterHold(next, h)
	next.ExecuteWorkflow(aslwait.HoldWorkflowName+flowtemporal.ResumeSuffix, at)
	if err := next.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	if got := h.entered(t); got != "2099-01-01T00:00:00.000Z" {
		t.Errorf("Ship entered at %s", got)
	}
}

// panicsOf counts the panics that unwind the workflow functions of one
// workflow, as its worker runs them: also those of their teardown (the
// main coroutine's; a fan-out's items run on coroutines of their own).
type panicsOf struct {
	interceptor.WorkerInterceptorBase
	id string
	n  atomic.Int32
}

func (p *panicsOf) InterceptWorkflow(ctx workflow.Context, next interceptor.WorkflowInboundInterceptor) interceptor.WorkflowInboundInterceptor {
	return &panicsIn{WorkflowInboundInterceptorBase: interceptor.WorkflowInboundInterceptorBase{Next: next}, p: p}
}

type panicsIn struct {
	interceptor.WorkflowInboundInterceptorBase
	p *panicsOf
}

func (i *panicsIn) ExecuteWorkflow(ctx workflow.Context, in *interceptor.ExecuteWorkflowInput) (any, error) {
	defer func() {
		if r := recover(); r != nil {
			if workflow.GetInfo(ctx).WorkflowExecution.ID == i.p.id {
				i.p.n.Add(1)
			}
			panic(r)
		}
	}()
	return i.Next.ExecuteWorkflow(ctx, in)
}

// A worker whose sticky cache drops a run blocked in a Wait, or in a Map
// whose items wait, tears its coroutines down (runtime.Goexit), running
// the deferred ends of the states' visits: those must use no workflow API
// (the SDK's dispatcherImpl.Close runs the teardown on a goroutine of its
// own, beside the worker; a side effect asked for then panics, "getState:
// illegal access from outside of workflow context"). The run resumes on a
// new worker by replaying its history, with no nondeterminism.
func TestWaitEvictedFromCache(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Temporal dev server")
	}
	address := devServer(t)

	// The session's history shows the Wait once, entered when it began.
	t.Run("a Wait", func(t *testing.T) {
		until := time.Now().Add(4 * time.Second).UTC().Format(time.RFC3339Nano)
		events := evictWhileWaiting(t, address, "hold-evicted", func(r worker.Registry) { aslwait.RegisterHold(r, &shipper{}) },
			aslwait.HoldWorkflowName, map[string]any{"order": 1, "until": until})
		want := []string{"run_started ", "state_entered Hold", "state_succeeded Hold", "state_entered Ship", "state_succeeded Ship", "run_succeeded "}
		if k := eventKinds(events); !slices.Equal(k, want) {
			t.Fatalf("history:\n%s\nwant:\n%s", strings.Join(k, "\n"), strings.Join(want, "\n"))
		}
		if waited := events[2].Time.Sub(events[1].Time); waited < 2*time.Second {
			t.Errorf("the Wait entered at %v, left at %v: want entered when it began", events[1].Time, events[2].Time)
		}
	})

	// Concurrent items' Waits show as far as docs/temporal.md says: the
	// first to end (quiet.go); Ship runs once, after them.
	t.Run("a Map of Waits", func(t *testing.T) {
		h := &shipper{}
		events := evictWhileWaiting(t, address, "pause-evicted", func(r worker.Registry) { aslmapwait.RegisterPause(r, h) },
			aslmapwait.PauseWorkflowName, map[string]any{"items": []any{map[string]int{"seconds": 3}, map[string]int{"seconds": 4}}})
		want := []string{"run_started ", "state_entered Pause", "state_succeeded Pause", "state_entered Ship", "state_succeeded Ship", "run_succeeded "}
		if k := eventKinds(events); !slices.Equal(k, want) {
			t.Fatalf("history:\n%s\nwant:\n%s", strings.Join(k, "\n"), strings.Join(want, "\n"))
		}
		h.entered(t) // once
	})
}

// evictWhileWaiting starts workflow name on input as id on a worker, drops
// it from the sticky cache once it started a timer, stops the worker and
// lets a new one end the run; it returns the session's history.
func evictWhileWaiting(t *testing.T, address, id string, register func(worker.Registry), name string, input any) []session.Event {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c, err := client.Dial(client.Options{HostPort: address})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	count := &panicsOf{id: id}
	start := func() worker.Worker {
		w := worker.New(c, id, worker.Options{Interceptors: []interceptor.WorkerInterceptor{count}})
		register(w)
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
		return w
	}
	first := start()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: id}, name, input)
	if err != nil {
		t.Fatal(err)
	}
	for timers(ctx, t, c, id) == 0 {
		time.Sleep(50 * time.Millisecond)
	}
	before := count.n.Load()
	worker.PurgeStickyWorkflowCache()
	time.Sleep(time.Second) // the teardown runs on a goroutine of its own
	if after := count.n.Load(); after != before {
		t.Errorf("the teardown of the evicted run panicked %d times", after-before)
	}
	first.Stop()
	defer start().Stop()
	if err := run.Get(ctx, nil); err != nil {
		t.Fatal(err)
	}
	it := c.GetWorkflowHistory(ctx, run.GetID(), run.GetRunID(), false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		e, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		if e.GetEventType() == enums.EVENT_TYPE_WORKFLOW_TASK_FAILED {
			t.Errorf("a workflow task failed: %v", e.GetWorkflowTaskFailedEventAttributes().GetFailure())
		}
	}
	events, _, err := flowtemporal.NewExecutions(c).History(ctx, id, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	return events
}

func eventKinds(events []session.Event) []string {
	var kinds []string
	for _, e := range events {
		kinds = append(kinds, string(e.Kind)+" "+e.State)
	}
	return kinds
}
