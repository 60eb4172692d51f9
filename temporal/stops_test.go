package temporal_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"

	flowcrun "github.com/flowc-dev/flowc/flowrun"
	flowcrt "github.com/flowc-dev/flowc/runtime"
	"github.com/flowc-dev/flowc/temporal/flowtemporal"
	"github.com/flowc-dev/flowc/temporal/golden/aslmapapproval"
)

// releaseTeam does the work of golden/aslmapapproval's Release and counts
// every call by handler and item, as golden/aslmapapproval/release_test.go
// does natively.
type releaseTeam struct {
	mu    sync.Mutex
	calls map[string]int
}

func (t *releaseTeam) count(name string, in any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if m, ok := in.(map[string]any); ok && m["id"] != nil {
		name = fmt.Sprintf("%s %v", name, m["id"])
	}
	t.calls[name]++
}

func (t *releaseTeam) Prepare(_ context.Context, in any) (any, error) {
	t.count("prepare", in)
	return map[string]any{
		"items": []any{
			map[string]any{"id": 1.0, "risky": true},
			map[string]any{"id": 2.0, "risky": false},
			map[string]any{"id": 3.0, "risky": true},
		},
		"signers": []any{"ann", "bob"},
	}, nil
}

func (t *releaseTeam) Check(_ context.Context, in any) (any, error) {
	t.count("check", in)
	return in, nil
}

func (t *releaseTeam) Ship(_ context.Context, in any) (any, error) {
	t.count("ship", in)
	m := in.(map[string]any)
	return map[string]any{"id": m["id"], "shipped": m["decision"].(map[string]any)["approval"]}, nil
}

func (t *releaseTeam) Notify(_ context.Context, in any) (any, error) {
	t.count("notify", in)
	return "notified", nil
}

func (t *releaseTeam) Finish(_ context.Context, in any) (any, error) {
	t.count("finish", in)
	return in, nil
}

func (t *releaseTeam) snapshot() map[string]int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return maps.Clone(t.calls)
}

// firstOption answers every approval at once: the native run the
// Temporal one must end as.
type firstOption struct{ *releaseTeam }

func (firstOption) Approve(_ context.Context, req flowcrt.ApprovalRequest) (string, error) {
	return req.Options[0], nil
}

// TestStopsInsideFanOuts runs golden/aslmapapproval's Release on Temporal
// with no one to answer its approvals: items 1 and 3 of the Map wait at
// once (item 2 finishes), then both signers of the Map inside a Parallel
// branch. The query lists them by the keys a native session gives its
// stops; each is answered on its own by key (a keyless decision is
// refused while several wait), no activity runs twice, and the output is
// the native run's whose approver answered at once. Source: the Approval
// state of the Agent State Language spec; Step Functions' Map and Parallel
// states; docs/sessions.md "Stops inside fan-outs".
func TestStopsInsideFanOuts(t *testing.T) {
	want, err := aslmapapproval.NewRelease(firstOption{&releaseTeam{calls: map[string]int{}}}).Run(context.Background(), map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	var suite testsuite.WorkflowTestSuite
	env := suite.NewTestWorkflowEnvironment()
	team := &releaseTeam{calls: map[string]int{}}
	aslmapapproval.RegisterRelease(env, team)
	waiting := func() []string {
		v, err := env.QueryWorkflow(flowtemporal.QueryPending)
		var pending []flowcrt.Pending
		if err != nil || v.Get(&pending) != nil {
			t.Errorf("query: %v", err)
		}
		var keys []string
		for _, p := range pending {
			keys = append(keys, p.Key)
		}
		slices.Sort(keys)
		return keys
	}
	var refusals []string
	decide := func(d flowtemporal.Decision) {
		env.UpdateWorkflow(flowtemporal.UpdateDecide, d.Key+d.Decision, &testsuite.TestUpdateCallback{
			OnReject:   func(err error) { refusals = append(refusals, err.Error()) },
			OnComplete: func(_ any, err error) {},
		}, d)
	}
	var seen [][]string
	var calls []map[string]int
	step := func(at time.Duration, act func()) {
		env.RegisterDelayedCallback(func() {
			seen = append(seen, waiting())
			calls = append(calls, team.snapshot())
			act()
		}, at)
	}
	step(time.Minute, func() {
		decide(flowtemporal.Decision{Decision: "yes"})
		decide(flowtemporal.Decision{Key: "Review/1/Approve", Decision: "yes"})
		decide(flowtemporal.Decision{Key: "Review/2/Approve", Decision: "maybe"})
		decide(flowtemporal.Decision{Key: "Review/2/Approve", Decision: "yes"})
	})
	step(2*time.Minute, func() { decide(flowtemporal.Decision{Key: "Review/0/Approve", Decision: "yes"}) })
	step(3*time.Minute, func() {
		env.SignalWorkflow(flowtemporal.SignalDecision, flowtemporal.Decision{Key: "Release/0/Sign/1/Countersign", Decision: "signed"})
	})
	step(4*time.Minute, func() { decide(flowtemporal.Decision{Key: "Release/0/Sign/0/Countersign", Decision: "signed"}) })
	env.ExecuteWorkflow(aslmapapproval.ReleaseWorkflowName, []byte(`{}`))
	var out any
	if err := env.GetWorkflowResult(&out); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(out) != fmt.Sprint(want) {
		t.Errorf("output %v\nwant the native run's %v", out, want)
	}
	wantSeen := [][]string{
		{"Review/0/Approve", "Review/2/Approve"},
		{"Review/0/Approve"},
		{"Release/0/Sign/0/Countersign", "Release/0/Sign/1/Countersign"},
		{"Release/0/Sign/0/Countersign"},
	}
	if fmt.Sprint(seen) != fmt.Sprint(wantSeen) {
		t.Errorf("waiting %q, want %q", seen, wantSeen)
	}
	wantRefusals := []string{
		`2 stops wait for a decision, "Review/0/Approve", "Review/2/Approve": name one by its key`,
		`no stop "Review/1/Approve" waits for a decision; waiting: "Review/0/Approve", "Review/2/Approve"`,
		`approval decision "maybe" is not one of the options "yes", "no"`,
	}
	if len(refusals) != len(wantRefusals) {
		t.Fatalf("refusals %q, want %q", refusals, wantRefusals)
	}
	for i, r := range refusals {
		if !strings.Contains(r, wantRefusals[i]) {
			t.Errorf("refusal %q, want %q", r, wantRefusals[i])
		}
	}
	if first := calls[0]; fmt.Sprint(first) != fmt.Sprint(map[string]int{"prepare": 1, "check 1": 1, "check 2": 1, "check 3": 1}) {
		t.Errorf("calls while items 1 and 3 wait %v: want every item checked once, none shipped", first)
	}
	if c := calls[1]; c["ship 3"] != 1 || c["ship 1"] != 0 {
		t.Errorf("calls once item 3 is answered %v: want it shipped, item 1 waiting", c)
	}
	everyCallOnce := map[string]int{"prepare": 1, "check 1": 1, "check 2": 1, "check 3": 1, "ship 1": 1, "ship 3": 1, "notify": 1, "finish": 1}
	if got := team.snapshot(); fmt.Sprint(got) != fmt.Sprint(everyCallOnce) {
		t.Errorf("calls %v, want each once: %v", got, everyCallOnce)
	}
}

// TestRunWorkflowListsStops: RunWorkflow, what `flowc run --engine
// temporal` runs, over mocks whose fan-outs run in order, lets the next
// item start while one waits for a decision, and stops with every stop
// that waits, as a native session's run does (docs/sessions.md "Stops
// inside fan-outs"; golden/aslmapapproval's TestStopsInsideMapAndParallel).
func TestRunWorkflowListsStops(t *testing.T) {
	src, err := os.ReadFile("testdata/release_mocks.json")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := flowcrun.ParseMockConfig(src)
	if err != nil {
		t.Fatal(err)
	}
	mocks, err := cfg.Case("Release", "t")
	if err != nil {
		t.Fatal(err)
	}
	register := func(r worker.Registry) { aslmapapproval.RegisterReleaseMock(r, mocks) }
	var out any
	err = flowtemporal.RunWorkflow(context.Background(), "", register, aslmapapproval.ReleaseWorkflowName, []byte(`{}`), &out, io.Discard)
	var wait *flowcrt.Interrupted
	if !errors.As(err, &wait) {
		t.Fatalf("error %v: want *flowcrt.Interrupted", err)
	}
	if wait.Key != "Review/0/Approve" || wait.State != "Approve" || wait.Stops != nil {
		t.Errorf("stopped at key %q, state %q, stops %v: want the first stop, as a native run without a session reports it", wait.Key, wait.State, wait.Stops)
	}
}

// On a server, a client answers the stops one at a time with
// flowtemporal.DecideAt; Decide, which names no stop, is refused while two
// wait, with their keys.
func TestDecideAtOnServer(t *testing.T) {
	address := devServer(t)
	ctx := context.Background()
	c, err := client.Dial(client.Options{HostPort: address})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	team := &releaseTeam{calls: map[string]int{}}
	w := worker.New(c, "release", worker.Options{})
	aslmapapproval.RegisterRelease(w, team)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "release-1", TaskQueue: "release"}, aslmapapproval.ReleaseWorkflowName, []byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	awaitStops(t, c, "release-1", "Review/0/Approve", "Review/2/Approve")
	if err := flowtemporal.Decide(ctx, c, "release-1", "yes"); err == nil || !strings.Contains(err.Error(), `"Review/0/Approve", "Review/2/Approve"`) {
		t.Errorf("Decide with two stops waiting: %v, want a refusal naming both", err)
	}
	for _, d := range []struct{ key, decision string }{
		{"Review/2/Approve", "yes"}, {"Review/0/Approve", "yes"},
		{"Release/0/Sign/1/Countersign", "signed"}, {"Release/0/Sign/0/Countersign", "signed"},
	} {
		awaitStops(t, c, "release-1", d.key)
		if err := flowtemporal.DecideAt(ctx, c, "release-1", d.key, d.decision); err != nil {
			t.Fatal(err)
		}
	}
	var out any
	if err := run.Get(ctx, &out); err != nil {
		t.Fatal(err)
	}
	everyCallOnce := map[string]int{"prepare": 1, "check 1": 1, "check 2": 1, "check 3": 1, "ship 1": 1, "ship 3": 1, "notify": 1, "finish": 1}
	if got := team.snapshot(); fmt.Sprint(got) != fmt.Sprint(everyCallOnce) {
		t.Errorf("calls %v, want each once: %v", got, everyCallOnce)
	}
}

// awaitStops waits until the run lists every stop of keys as waiting.
func awaitStops(t *testing.T, c client.Client, id string, keys ...string) {
	t.Helper()
	var pending []flowcrt.Pending
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		v, err := c.QueryWorkflow(context.Background(), id, "", flowtemporal.QueryPending)
		if err != nil || v.Get(&pending) != nil {
			continue
		}
		if !slices.ContainsFunc(keys, func(k string) bool {
			return !slices.ContainsFunc(pending, func(p flowcrt.Pending) bool { return p.Key == k })
		}) {
			return
		}
	}
	t.Fatalf("waiting %+v, want %q", pending, keys)
}
