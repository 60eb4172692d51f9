package temporal_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"go.temporal.io/sdk/testsuite"

	flowcrt "github.com/flowc-dev/flowc/runtime"
	flowcjson "github.com/flowc-dev/flowc/runtime/impl/jsonmode"
	"github.com/flowc-dev/flowc/temporal/flowtemporal"
	"github.com/flowc-dev/flowc/temporal/golden/jsonloop"
)

// TestInterruptBefore runs golden/jsonloop, a CodeMie workflow whose
// state "publish" has interrupt_before, over handlers that leave the
// decision to a person: the run waits before publish, the query lists the
// confirmation, and the signalled decision goes on or cancels.
func TestInterruptBefore(t *testing.T) {
	for _, c := range []struct {
		decision string
		want     string // result line
	}{
		{"continue", `{"status":"SUCCEEDED","output":{"approved":true,"draft":"published","topic":"tides"}}`},
		{"cancel", `{"status":"FAILED","error":"Cancelled","cause":"cancelled before state publish"}`},
	} {
		t.Run(c.decision, func(t *testing.T) {
			var suite testsuite.WorkflowTestSuite
			env := suite.NewTestWorkflowEnvironment()
			h := &writer{}
			jsonloop.RegisterLoop(env, h)
			var pending []flowcrt.Pending
			env.RegisterDelayedCallback(func() {
				v, err := env.QueryWorkflow(flowtemporal.QueryPending)
				if err != nil || v.Get(&pending) != nil {
					t.Errorf("query: %v", err)
				}
				env.SignalWorkflow(flowtemporal.SignalDecision, flowtemporal.Decision{State: "publish", Decision: c.decision})
			}, time.Hour)
			env.ExecuteWorkflow(jsonloop.LoopWorkflowName, json.RawMessage(`{"topic":"tides"}`))
			var out any
			err := env.GetWorkflowError()
			if err == nil {
				err = env.GetWorkflowResult(&out)
			}
			if got := string(flowcrt.ResultLine(out, flowtemporal.StepsError(err))); got != c.want {
				t.Errorf("result %s, want %s", got, c.want)
			}
			want := []flowcrt.Pending{{State: "publish", Prompt: "continue with state publish?", Options: []string{flowcjson.OptionContinue, flowcjson.OptionCancel}}}
			if len(pending) != 1 || pending[0].State != want[0].State || pending[0].Prompt != want[0].Prompt || !slices.Equal(pending[0].Options, want[0].Options) {
				t.Errorf("pending %+v, want %+v", pending, want)
			}
			if wantCalls := []string{"draft", "draft", "publish"}; c.decision == "continue" && !slices.Equal(h.calls, wantCalls) {
				t.Errorf("handler calls %q, want %q: publish once, after the decision", h.calls, wantCalls)
			}
		})
	}
}

// writer approves the second draft and publishes.
type writer struct{ calls []string }

func (w *writer) Writer(_ context.Context, call flowcrt.JSONCall) (string, error) {
	w.calls = append(w.calls, call.State)
	switch {
	case call.State == "publish":
		return `{"draft": "published"}`, nil
	case len(w.calls) == 2:
		return `{"approved": true}`, nil
	}
	return `{"approved": false}`, nil
}

// Summarize fails the run: three drafts keep the history far under
// CodeMie's 25 messages, so nothing should summarize it.
func (w *writer) Summarize(_ context.Context, history flowcrt.Messages) (flowcrt.Messages, error) {
	return nil, fmt.Errorf("the history of %d messages crossed the summarization limits", len(history))
}
