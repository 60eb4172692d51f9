package temporal_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"

	flowcrt "github.com/flowc-dev/flowc/runtime"
	"github.com/flowc-dev/flowc/temporal/flowtemporal"
	"github.com/flowc-dev/flowc/temporal/golden/aslcallback"
)

// The callback pattern on Temporal (Step Functions developer guide, "Wait
// for a Callback with Task Token"): golden/aslcallback hands its token to
// its handler through an activity, then waits in the workflow for the
// signal that answers it, on timers of HeartbeatSeconds (600) and
// TimeoutSeconds (3600).

// orderQueue is the handler of golden/aslcallback; it keeps the tokens
// its approval requests carried.
type orderQueue struct{ tokens chan string }

// Reserve returns nothing: its result is null, as a Lambda's with no
// return value.
func (orderQueue) Reserve(context.Context, any) (any, error) { return nil, nil }

func (q orderQueue) SendMessageWaitForTaskToken(_ context.Context, in any) (any, error) {
	if q.tokens != nil {
		q.tokens <- in.(map[string]any)["MessageBody"].(map[string]any)["TaskToken"].(string)
	}
	return map[string]any{"MessageId": "m-1"}, nil // dropped, as AWS drops the integration's response
}

func (orderQueue) Ship(context.Context, any) (any, error) { return true, nil }

var orderInput = json.RawMessage(`{"order": {"id": "o-1"}}`)

// runOrder runs the workflow in the test environment; at each of the
// given times after its start, answer sends what it returns for the
// pending token, if anything.
func runOrder(t *testing.T, answer func(env *testsuite.TestWorkflowEnvironment, token string, at time.Duration), at ...time.Duration) (map[string]any, error) {
	t.Helper()
	var suite testsuite.WorkflowTestSuite
	env := suite.NewTestWorkflowEnvironment()
	aslcallback.RegisterOrder(env, orderQueue{})
	for _, d := range at {
		env.RegisterDelayedCallback(func() {
			v, err := env.QueryWorkflow(flowtemporal.QueryTaskTokens)
			var pending []flowtemporal.PendingTaskToken
			if err != nil || v.Get(&pending) != nil || len(pending) != 1 || pending[0].State != "AskApproval" {
				t.Errorf("at %s: pending tokens %+v (%v), want the token of AskApproval", d, pending, err)
				return
			}
			answer(env, pending[0].Token, d)
		}, d)
	}
	env.ExecuteWorkflow(aslcallback.OrderWorkflowName, orderInput)
	if err := env.GetWorkflowError(); err != nil {
		return nil, err
	}
	var out map[string]any
	return out, env.GetWorkflowResult(&out)
}

func signal(env *testsuite.TestWorkflowEnvironment, a flowtemporal.TaskTokenAnswer) {
	env.SignalWorkflow(flowtemporal.SignalTaskToken, a)
}

// A success signalled for the token is the task's result; an answer for
// another token is dropped.
func TestTaskTokenSuccessOnTemporal(t *testing.T) {
	out, err := runOrder(t, func(env *testsuite.TestWorkflowEnvironment, token string, _ time.Duration) {
		signal(env, flowtemporal.TaskTokenAnswer{Token: token + "x", Failed: true, Error: "Wrong"})
		signal(env, flowtemporal.TaskTokenAnswer{Token: token, Output: json.RawMessage(`{"approver": "ana"}`)})
	}, 5*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	approval, _ := json.Marshal(out["approval"])
	if string(approval) != `{"approvedBy":"ana"}` || out["shipped"] != true {
		t.Errorf("output %v: want the approval of ana, shipped", out)
	}
}

// Heartbeats every 9 minutes keep the wait past its HeartbeatSeconds; a
// failure then goes through Catch.
func TestTaskTokenHeartbeatsAndFailureOnTemporal(t *testing.T) {
	out, err := runOrder(t, func(env *testsuite.TestWorkflowEnvironment, token string, at time.Duration) {
		if at < 30*time.Minute {
			signal(env, flowtemporal.TaskTokenAnswer{Token: token, Heartbeat: true})
			return
		}
		signal(env, flowtemporal.TaskTokenAnswer{Token: token, Failed: true, Error: "Rejected", Cause: "no stock"})
	}, 9*time.Minute, 18*time.Minute, 27*time.Minute, 30*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if out["status"] != "cancelled" || out["error"].(map[string]any)["Error"] != "Rejected" {
		t.Errorf("output %v: want the Rejected failure caught", out)
	}
}

// Without a heartbeat the wait ends after HeartbeatSeconds with
// States.HeartbeatTimeout, which the States.Timeout catcher takes; with
// heartbeats but no answer, TimeoutSeconds ends it with States.Timeout.
func TestTaskTokenTimeoutsOnTemporal(t *testing.T) {
	out, err := runOrder(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := out["error"].(map[string]any)["Error"]; got != flowcrt.StatesHeartbeatTimeout {
		t.Errorf("error %v, want States.HeartbeatTimeout", got)
	}
	var beats []time.Duration
	for d := 9 * time.Minute; d < 70*time.Minute; d += 9 * time.Minute {
		beats = append(beats, d)
	}
	out, err = runOrder(t, func(env *testsuite.TestWorkflowEnvironment, token string, at time.Duration) {
		signal(env, flowtemporal.TaskTokenAnswer{Token: token, Heartbeat: true})
	}, beats[:6]...) // the 63rd minute is past the timeout
	if err != nil {
		t.Fatal(err)
	}
	if got := out["error"].(map[string]any)["Error"]; got != "States.Timeout" {
		t.Errorf("error %v, want States.Timeout", got)
	}
}

// `flowc run --engine temporal` in the test environment stops a run that
// waits for its token with a *flowcrt.TaskTokenWait, as a native run
// without a session would wait: its result line is WAITING.
func TestRunWorkflowWaitsForTaskToken(t *testing.T) {
	register := func(r worker.Registry) { aslcallback.RegisterOrder(r, orderQueue{}) }
	var out any
	err := flowtemporal.RunWorkflow(context.Background(), "", register, aslcallback.OrderWorkflowName, orderInput, &out, io.Discard)
	var wait *flowcrt.TaskTokenWait
	if !errors.As(err, &wait) || wait.State != "AskApproval" || wait.Token == "" {
		t.Fatalf("err %v: want a wait at AskApproval with its token", err)
	}
}

// On a server, a client answers the token with flowtemporal.SendTaskSuccess,
// which refuses a token no run waits for.
func TestSendTaskSuccessOnServer(t *testing.T) {
	address := devServer(t)
	ctx := context.Background()
	c, err := client.Dial(client.Options{HostPort: address})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	q := orderQueue{tokens: make(chan string, 1)}
	w := worker.New(c, "callback", worker.Options{})
	aslcallback.RegisterOrder(w, q)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "order-1", TaskQueue: "callback"}, aslcallback.OrderWorkflowName, orderInput)
	if err != nil {
		t.Fatal(err)
	}
	token := <-q.tokens
	// The handler sent the token before the workflow waits for it: until
	// then a heartbeat is refused.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		err := flowtemporal.SendTaskHeartbeat(ctx, c, token)
		if err == nil {
			break
		}
		if !errors.Is(err, flowcrt.ErrTaskTokenUsed) || time.Now().After(deadline) {
			t.Fatal(err)
		}
	}
	if err := flowtemporal.SendTaskSuccess(ctx, c, token, json.RawMessage(`{"approver": "bo"}`)); err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := run.Get(ctx, &out); err != nil {
		t.Fatal(err)
	}
	if out["shipped"] != true {
		t.Errorf("output %v: want shipped", out)
	}
	if err := flowtemporal.SendTaskSuccess(ctx, c, token, json.RawMessage(`{}`)); !errors.Is(err, flowcrt.ErrTaskTokenUsed) {
		t.Errorf("a used token: %v, want ErrTaskTokenUsed", err)
	}
	if err := flowtemporal.SendTaskFailure(ctx, c, "nonsense", "E", ""); !errors.Is(err, flowcrt.ErrTaskTokenInvalid) {
		t.Errorf("no token: %v, want ErrTaskTokenInvalid", err)
	}
}
