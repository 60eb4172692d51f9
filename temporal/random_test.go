package temporal_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"reflect"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/interceptor"
	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/flowc-dev/flowc/temporal/golden/aslrandom"
)

const randomHistory = "testdata/random_history.json"

// TestReplayRandom replays the history of golden/aslrandom, a run that
// draws a UUID and random numbers and reads the time (States.UUID,
// States.MathRandom, $uuid, $random, $now, $millis, the context's times),
// recorded on a dev server by testRandomOnServer. Replayed, the workflow
// must compute the result the history holds: every such value comes again
// from the history (a seed taken once, the workflow's clock), none from
// the process.
func TestReplayRandom(t *testing.T) {
	var replayed any
	r, err := worker.NewWorkflowReplayerWithOptions(worker.WorkflowReplayerOptions{
		Interceptors: []interceptor.WorkerInterceptor{&resultCapture{out: &replayed}},
	})
	if err != nil {
		t.Fatal(err)
	}
	r.RegisterWorkflowWithOptions(aslrandom.RandomWorkflow, workflow.RegisterOptions{Name: aslrandom.RandomWorkflowName})
	logger := log.NewStructuredLogger(slog.New(slog.DiscardHandler))
	if err := r.ReplayWorkflowHistoryFromJSONFile(logger, randomHistory); err != nil {
		t.Fatal(err)
	}
	recorded := recordedResult(t, randomHistory)
	if got := jsonValue(t, replayed); !reflect.DeepEqual(got, recorded) {
		t.Errorf("replayed, the run computes\n%v\nwhere the history holds\n%v", got, recorded)
	}
	if fields, _ := recorded.(map[string]any); fields["uuid"] == nil || fields["juuid"] == nil || fields["now"] == nil {
		t.Errorf("the recorded result lacks the drawn values: %v", recorded)
	}
}

// resultCapture keeps what the workflow returns.
type resultCapture struct {
	interceptor.WorkerInterceptorBase
	out *any
}

func (c *resultCapture) InterceptWorkflow(_ workflow.Context, next interceptor.WorkflowInboundInterceptor) interceptor.WorkflowInboundInterceptor {
	return &resultInbound{WorkflowInboundInterceptorBase: interceptor.WorkflowInboundInterceptorBase{Next: next}, out: c.out}
}

type resultInbound struct {
	interceptor.WorkflowInboundInterceptorBase
	out *any
}

func (r *resultInbound) ExecuteWorkflow(ctx workflow.Context, in *interceptor.ExecuteWorkflowInput) (any, error) {
	v, err := r.Next.ExecuteWorkflow(ctx, in)
	*r.out = v
	return v, err
}

// recordedResult is the result of the completed workflow of a history.
func recordedResult(t *testing.T, path string) any {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h, err := client.HistoryFromJSON(f, client.HistoryJSONOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range h.GetEvents() {
		if done := e.GetWorkflowExecutionCompletedEventAttributes(); done != nil {
			var raw json.RawMessage
			if err := converter.GetDefaultDataConverter().FromPayloads(done.GetResult(), &raw); err != nil {
				t.Fatal(err)
			}
			return jsonValue(t, raw)
		}
	}
	t.Fatalf("%s: the workflow did not complete", path)
	return nil
}

// jsonValue is v as plain JSON values.
func jsonValue(t *testing.T, v any) any {
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// testRandomOnServer runs golden/aslrandom on the dev server at address:
// what the last activity was handed is what the run returns. With
// $FLOWC_RECORD_RANDOM_HISTORY set, it writes the history there, for
// TestReplayRandom.
func testRandomOnServer(t *testing.T, address string) {
	c, err := client.Dial(client.Options{HostPort: address})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	w := worker.New(c, "random", worker.Options{})
	h := &randomHandlers{}
	aslrandom.RegisterRandom(w, h)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "random-e2e", TaskQueue: "random"}, aslrandom.RandomWorkflowName, map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := run.Get(ctx, &out); err != nil {
		t.Fatal(err)
	}
	told := jsonValue(t, h.told)
	delete(out, "told")
	if !reflect.DeepEqual(told, jsonValue(t, out)) {
		t.Errorf("Tell was handed %v, the run returned %v", told, out)
	}
	if path := os.Getenv("FLOWC_RECORD_RANDOM_HISTORY"); path != "" {
		recordHistory(t, address, run.GetID(), path)
	}
}

// randomHandlers answer golden/aslrandom's Tasks; Tell keeps its input.
type randomHandlers struct{ told any }

func (h *randomHandlers) Ask(context.Context, any) (any, error) { return "asked", nil }

func (h *randomHandlers) Tell(_ context.Context, in any) (any, error) {
	h.told = in
	return "told", nil
}
