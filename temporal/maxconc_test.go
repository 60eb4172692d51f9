package temporal_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/testsuite"

	flowcrun "github.com/flowc-dev/flowc/flowrun"
	"github.com/flowc-dev/flowc/temporal/flowtemporal"
	"github.com/flowc-dev/flowc/temporal/golden/aslmaxconc"
)

// A Map's MaxConcurrency on Temporal counts an item that waits, for a
// decision or a task token, as running, as Step Functions does and as a
// native session does (golden/aslmaxconc): the next item starts only once
// one finishes. Source: Step Functions' Map state, MaxConcurrency
// (https://docs.aws.amazon.com/step-functions/latest/dg/state-map-inline.html).

// eachCrew does the work of golden/aslmaxconc's Each, counting the calls
// by handler and item and keeping each item's task token.
type eachCrew struct {
	mu     sync.Mutex
	calls  map[string]int
	tokens map[string]string
}

func (c *eachCrew) count(name string, in any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls[fmt.Sprintf("%s %v", name, in.(map[string]any)["id"])]++
}

func (c *eachCrew) Start(_ context.Context, in any) (any, error) {
	c.count("start", in)
	return in, nil
}

func (c *eachCrew) Finish(_ context.Context, in any) (any, error) {
	c.count("finish", in)
	return in.(map[string]any)["id"], nil
}

func (c *eachCrew) SendMessageWaitForTaskToken(_ context.Context, in any) (any, error) {
	c.count("ask", in)
	m := in.(map[string]any)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.tokens[m["id"].(string)] = m["TaskToken"].(string)
	return nil, nil
}

func (c *eachCrew) snapshot() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return maps.Clone(c.calls)
}

func eachInput(wait string, limit int) []byte {
	return fmt.Appendf(nil, `{"items": ["a", "b", "c"], "wait": %q, "limit": %d}`, wait, limit)
}

// answerInTurn answers, a minute apart, the first approval that waits
// each time, and returns the keys that waited at each answer.
func answerInTurn(t *testing.T, env *testsuite.TestWorkflowEnvironment, n int) *[][]string {
	seen := &[][]string{}
	for i := range n {
		env.RegisterDelayedCallback(func() {
			keys := pendingKeys(t, env)
			*seen = append(*seen, keys)
			if len(keys) > 0 {
				env.SignalWorkflow(flowtemporal.SignalDecision, flowtemporal.Decision{Key: keys[0], Decision: "yes"})
			}
		}, time.Duration(i+1)*time.Minute)
	}
	return seen
}

// With MaxConcurrency 1 one item waits at a time: each decision finishes
// it and starts the next. With 0 (no bound) all three wait at once.
func TestMaxConcurrencyHoldsApprovalsOnTemporal(t *testing.T) {
	for _, tc := range []struct {
		limit int
		seen  [][]string
	}{
		{1, [][]string{{"Each/0/Review"}, {"Each/1/Review"}, {"Each/2/Review"}}},
		{0, [][]string{{"Each/0/Review", "Each/1/Review", "Each/2/Review"}, {"Each/1/Review", "Each/2/Review"}, {"Each/2/Review"}}},
	} {
		t.Run(fmt.Sprint("MaxConcurrency ", tc.limit), func(t *testing.T) {
			var suite testsuite.WorkflowTestSuite
			env := suite.NewTestWorkflowEnvironment()
			crew := &eachCrew{calls: map[string]int{}, tokens: map[string]string{}}
			aslmaxconc.RegisterEach(env, crew)
			seen := answerInTurn(t, env, 3)
			env.ExecuteWorkflow(aslmaxconc.EachWorkflowName, eachInput("approval", tc.limit))
			var out any
			if err := env.GetWorkflowResult(&out); err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(*seen) != fmt.Sprint(tc.seen) || fmt.Sprint(out) != "[a b c]" {
				t.Errorf("waiting %q, output %v; want %q, [a b c]", *seen, out, tc.seen)
			}
			want := map[string]int{"start a": 1, "start b": 1, "start c": 1, "finish a": 1, "finish b": 1, "finish c": 1}
			if got := crew.snapshot(); !maps.Equal(got, want) {
				t.Errorf("calls %v, want each once: %v", got, want)
			}
		})
	}
}

// With MaxConcurrency 2 over three items two task tokens are handed out;
// answering one finishes its item and hands the third its token.
func TestMaxConcurrencyHoldsTaskTokensOnTemporal(t *testing.T) {
	var suite testsuite.WorkflowTestSuite
	env := suite.NewTestWorkflowEnvironment()
	crew := &eachCrew{calls: map[string]int{}, tokens: map[string]string{}}
	aslmaxconc.RegisterEach(env, crew)
	var asked []string
	tokensOut := func() {
		v, err := env.QueryWorkflow(flowtemporal.QueryTaskTokens)
		var pending []flowtemporal.PendingTaskToken
		if err != nil || v.Get(&pending) != nil {
			t.Errorf("query: %v", err)
		}
		crew.mu.Lock()
		defer crew.mu.Unlock()
		var items []string
		for item, token := range crew.tokens {
			if slices.ContainsFunc(pending, func(p flowtemporal.PendingTaskToken) bool { return p.Token == token }) {
				items = append(items, item)
			}
		}
		slices.Sort(items)
		asked = append(asked, fmt.Sprint(items))
	}
	answer := func(item string) {
		crew.mu.Lock()
		token := crew.tokens[item]
		crew.mu.Unlock()
		signal(env, flowtemporal.TaskTokenAnswer{Token: token, Output: []byte(`"done"`)})
	}
	env.RegisterDelayedCallback(func() { tokensOut(); answer("a") }, time.Minute)
	env.RegisterDelayedCallback(func() { tokensOut(); answer("c") }, 2*time.Minute)
	env.RegisterDelayedCallback(func() { tokensOut(); answer("b") }, 3*time.Minute)
	env.ExecuteWorkflow(aslmaxconc.EachWorkflowName, eachInput("token", 2))
	var out any
	if err := env.GetWorkflowResult(&out); err != nil {
		t.Fatal(err)
	}
	if want := []string{"[a b]", "[b c]", "[b]"}; fmt.Sprint(asked) != fmt.Sprint(want) || fmt.Sprint(out) != "[a b c]" {
		t.Errorf("tokens out %q, output %v; want %q, [a b c]", asked, out, want)
	}
	if got := crew.snapshot(); got["ask a"] != 1 || got["ask b"] != 1 || got["ask c"] != 1 || got["finish c"] != 1 {
		t.Errorf("calls %v, want each item asked and finished once", got)
	}
}

// Over mocks (flowc run --engine temporal), whose fan-outs run their
// items in order and let the next start while one waits, MaxConcurrency
// still holds: with 1, only item 0 waits until it is answered.
func TestMaxConcurrencyHoldsOverMocks(t *testing.T) {
	cfg, err := flowcrun.ParseMockConfig([]byte(`{
	 "StateMachines": {"Each": {"TestCases": {"t": {"Start": "S", "Finish": "F"}}}},
	 "MockedResponses": {
	  "S": {"0": {"Return": {"id": "a", "wait": "approval"}}, "1": {"Return": {"id": "b", "wait": "approval"}}, "2": {"Return": {"id": "c", "wait": "approval"}}},
	  "F": {"0-2": {"Return": "done"}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	mocks, err := cfg.Case("Each", "t")
	if err != nil {
		t.Fatal(err)
	}
	var suite testsuite.WorkflowTestSuite
	env := suite.NewTestWorkflowEnvironment()
	aslmaxconc.RegisterEachMock(env, mocks)
	seen := answerInTurn(t, env, 3)
	env.ExecuteWorkflow(aslmaxconc.EachWorkflowName, eachInput("approval", 1))
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	if want := [][]string{{"Each/0/Review"}, {"Each/1/Review"}, {"Each/2/Review"}}; fmt.Sprint(*seen) != fmt.Sprint(want) {
		t.Errorf("waiting %q, want %q", *seen, want)
	}
}
