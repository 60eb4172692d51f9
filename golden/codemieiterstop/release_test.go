package codemieiterstop

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/checkpoint/sqlite"
	"github.com/flowc-dev/flowc/golden/jsontest"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// recorder answers from the generated mock and keeps the calls, across the
// runs of a session as one log.
type recorder struct {
	ReleaseMock
	calls *jsontest.Calls
}

func (r recorder) Planner(ctx context.Context, c flowcrt.JSONCall) (string, error) {
	r.calls.Add(c)
	return r.ReleaseMock.Planner(ctx, c)
}

func (r recorder) Deployer(ctx context.Context, c flowcrt.JSONCall) (string, error) {
	r.calls.Add(c)
	return r.ReleaseMock.Deployer(ctx, c)
}

func (r recorder) Auditor(ctx context.Context, c flowcrt.JSONCall) (string, error) {
	r.calls.Add(c)
	return r.ReleaseMock.Auditor(ctx, c)
}

var input = map[string]any{"release": "R7"}

// everyTaskOnce is what the states of a whole run are asked: each task
// once, per item inside the iteration.
var everyTaskOnce = map[string][]string{
	"plan":     {"List the changes"},
	"assess":   {"Assess db", "Assess docs", "Assess api"},
	"deploy":   {"Deploy db", "Deploy api"},
	"note":     {"Note docs as safe"},
	"signoff":  {"Collect the sign-offs"},
	"security": {"Security sign-off"},
	"legal":    {"Legal sign-off"},
	"summary":  {"Summarize the release"},
}

// tasks are the tasks each state was asked, in item order: the stops of
// a session are answered in any order.
func tasks(calls *jsontest.Calls) map[string][]string {
	out := map[string][]string{}
	for state := range everyTaskOnce {
		for _, call := range calls.Of(state) {
			out[state] = append(out[state], stripCurrentTask(call.Task))
		}
		slices.SortStableFunc(out[state], func(a, b string) int { return order[a] - order[b] })
	}
	return out
}

// order ranks the item tasks as the items come.
var order = map[string]int{"Assess db": 0, "Deploy db": 0, "Assess docs": 1, "Assess api": 2, "Deploy api": 2}

// stripCurrentTask drops the "Current task: <item>" line CodeMie's map
// nodes add, which says nothing of how often a task ran.
func stripCurrentTask(task string) string {
	before, _, _ := strings.Cut(task, "\n")
	return before
}

func stopKeys(t *testing.T, err error) []string {
	t.Helper()
	var wait *flowcrt.Interrupted
	require.ErrorAs(t, err, &wait)
	var keys []string
	for _, p := range wait.Stops {
		keys = append(keys, p.Key)
	}
	return keys
}

// A session whose iteration reaches interrupt_before in two items at once
// (the third finishes), and whose state_ids fan-out then waits in one
// branch (the other finishes). Each stop is answered on its own by a new
// workflow value, with new mocks, over the same SQLite file, as a new
// `flowc run --decision continue --at KEY` process would; every task runs
// once, and the context store ends as the run whose mock confirms at once.
// Source: CodeMie's configuration reference, `interrupt_before`, and its
// State Transitions page, 5.2 and 5.5 (parallel and iterative transitions).
func TestStopsInsideIterationAndFanOut(t *testing.T) {
	ctx := context.Background()
	whole := &jsontest.Calls{}
	want, err := NewRelease(recorder{NewReleaseMockHandlers(jsontest.Mocks(t, "release", "confirmed")), whole}).Run(ctx, input)
	require.NoError(t, err)
	require.Equal(t, everyTaskOnce, tasks(whole))

	store, err := sqlite.Open(filepath.Join(t.TempDir(), "release.db"))
	require.NoError(t, err)
	defer store.Close()
	calls := &jsontest.Calls{}
	process := func() *Release {
		h := recorder{NewReleaseMockHandlers(jsontest.Mocks(t, "release", "waits")), calls}
		return NewRelease(h, flowcrt.WithCheckpointer(store))
	}

	_, err = process().Invoke(ctx, "r7", input)
	assert.Equal(t, []string{"plan/0/deploy", "plan/2/deploy"}, stopKeys(t, err))
	assert.Equal(t, []string{"Note docs as safe"}, calls.Tasks("note"), "the low-risk item finished")
	assert.Empty(t, calls.Tasks("deploy"))

	_, err = process().Decide(ctx, "r7", "continue")
	assert.ErrorContains(t, err, `2 stops wait for a decision, "plan/0/deploy", "plan/2/deploy"`)

	_, err = process().DecideAt(ctx, "r7", "plan/2/deploy", "continue")
	assert.Equal(t, []string{"plan/0/deploy"}, stopKeys(t, err), "item 0 waits still")
	_, err = process().Resume(ctx, "r7")
	assert.Equal(t, []string{"plan/0/deploy"}, stopKeys(t, err), "resuming asks again")

	_, err = process().DecideAt(ctx, "r7", "plan/0/deploy", "continue")
	assert.Equal(t, []string{"signoff/0/security"}, stopKeys(t, err))
	assert.Equal(t, []string{"Legal sign-off"}, calls.Tasks("legal"), "the other branch finished")

	out, err := process().Decide(ctx, "r7", "continue")
	require.NoError(t, err)
	assert.Equal(t, want, out)
	assert.Equal(t, everyTaskOnce, tasks(calls))

	cp, err := store.Load(ctx, "r7")
	require.NoError(t, err)
	assert.Equal(t, flowcrt.StatusFinished, cp.Status)
}

// A cancelled stop fails the run with Cancelled, as at the top level.
func TestCancelInsideIteration(t *testing.T) {
	ctx := context.Background()
	w := NewRelease(NewReleaseMockHandlers(jsontest.Mocks(t, "release", "waits")), flowcrt.WithCheckpointer(flowcrt.NewMemoryCheckpointer()))
	_, err := w.Invoke(ctx, "r", input)
	require.True(t, flowcrt.IsInterrupted(err))
	_, err = w.DecideAt(ctx, "r", "plan/0/deploy", "cancel")
	assert.Equal(t, flowcrt.ErrCancelled, flowcrt.ErrorName(err))
}

// Without a session nothing changed: the first interruption inside the
// iteration stops the whole run.
func TestWithoutSession(t *testing.T) {
	_, err := NewRelease(NewReleaseMockHandlers(jsontest.Mocks(t, "release", "waits"))).Run(context.Background(), input)
	var wait *flowcrt.Interrupted
	require.ErrorAs(t, err, &wait)
	assert.Equal(t, "deploy", wait.State)
	assert.Empty(t, wait.Stops)
}
