package temporal_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/testsuite"

	flowcrt "github.com/flowc-dev/flowc/runtime"
	flowcimpl "github.com/flowc-dev/flowc/runtime/impl"
	"github.com/flowc-dev/flowc/temporal/flowtemporal"
	"github.com/flowc-dev/flowc/temporal/golden/asldistapproval"
)

// The orders of golden/asldistapproval: more than two pages of items on
// Temporal (flowtemporal.ItemPageItems) and more than two windows of the
// runtime's distributed Map on an engine (1,000 items each), with a risky
// order in the first window and one in the third.
const (
	ordersRead = 2500
	riskyEarly = 3
	riskyLate  = 2100
)

// orderDesk reads the orders (an ItemReader) and does the work of
// golden/asldistapproval, counting every call by handler and order.
type orderDesk struct {
	mu    sync.Mutex
	calls map[string]int
}

func newOrderDesk() *orderDesk { return &orderDesk{calls: map[string]int{}} }

func (d *orderDesk) ReadItems(_ context.Context, _ flowcimpl.ItemReadRequest, yield func(any) error) error {
	for i := range ordersRead {
		if err := yield(map[string]any{"id": float64(i), "risky": i == riskyEarly || i == riskyLate}); err != nil {
			return err
		}
	}
	return nil
}

func (d *orderDesk) count(name string, in any) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.calls[fmt.Sprint(name, " ", in.(map[string]any)["order"].(map[string]any)["id"])]++
}

func (d *orderDesk) Check(_ context.Context, in any) (any, error) {
	d.count("check", in)
	return in, nil
}

func (d *orderDesk) Ship(_ context.Context, in any) (any, error) {
	d.count("ship", in)
	m := in.(map[string]any)
	return map[string]any{"n": m["n"], "shipped": m["decision"].(map[string]any)["approval"]}, nil
}

func (d *orderDesk) snapshot() map[string]int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return maps.Clone(d.calls)
}

// wantOrderCalls is every order checked once and each risky one shipped once.
func wantOrderCalls() map[string]int {
	calls := map[string]int{"ship 3": 1, "ship 2100": 1}
	for i := range ordersRead {
		calls[fmt.Sprint("check ", i)] = 1
	}
	return calls
}

// shipsAtOnce answers every approval with its first option: the run that
// never stops, whose output the stopped runs must end with.
type shipsAtOnce struct{ *orderDesk }

func (shipsAtOnce) Approve(_ context.Context, req flowcrt.ApprovalRequest) (string, error) {
	return req.Options[0], nil
}

func ordersNeverStopping(t *testing.T) any {
	d := newOrderDesk()
	out, err := asldistapproval.NewOrders(shipsAtOnce{d}).Run(context.Background(), map[string]any{"bucket": "orders"})
	require.NoError(t, err)
	require.Equal(t, wantOrderCalls(), d.calls)
	return out
}

// stopKeys lists, sorted, the keys of the stops an interrupted run waits at.
func stopKeys(t *testing.T, err error) []string {
	t.Helper()
	var wait *flowcrt.Interrupted
	require.ErrorAs(t, err, &wait)
	var keys []string
	for _, p := range wait.Stops {
		keys = append(keys, p.Key)
	}
	slices.Sort(keys)
	return keys
}

// A native session stops at both risky orders of a distributed Map at
// once, each keyed by the order's index in the whole item list; each is
// answered on its own, the later first, and the run ends as the run that
// never stopped, with every order checked once. Source: the Approval
// state of the Agent State Language spec; Step Functions' distributed Map
// (https://docs.aws.amazon.com/step-functions/latest/dg/state-map-distributed.html),
// whose $$.Map.Item.Index is the item's index in the whole list;
// docs/sessions.md "Stops inside fan-outs".
func TestDistributedMapStopsPastFirstWindowNatively(t *testing.T) {
	want := ordersNeverStopping(t)
	ctx := context.Background()
	store := flowcrt.NewMemoryCheckpointer()
	d := newOrderDesk()
	process := func() *asldistapproval.Orders { return asldistapproval.NewOrders(d, flowcrt.WithCheckpointer(store)) }

	_, err := process().Invoke(ctx, "o1", map[string]any{"bucket": "orders"})
	assert.Equal(t, []string{"Review/2100/Approve", "Review/3/Approve"}, stopKeys(t, err))
	_, err = process().DecideAt(ctx, "o1", "Review/2100/Approve", "yes")
	assert.Equal(t, []string{"Review/3/Approve"}, stopKeys(t, err), "the early order waits still")
	out, err := process().DecideAt(ctx, "o1", "Review/3/Approve", "yes")
	require.NoError(t, err)
	assert.Equal(t, jsonOf(t, want), jsonOf(t, out))
	assert.Equal(t, wantOrderCalls(), d.snapshot())
}

// On Temporal the same two orders wait at once, though the late one is in
// the third window of items: the query lists them by the keys the native
// session gives them, the update answers the later first, then the
// earlier, and the workflow ends with the native output (every order's
// result, in item order), every activity run once.
func TestDistributedMapStopsPastFirstWindowOnTemporal(t *testing.T) {
	want := ordersNeverStopping(t)
	var suite testsuite.WorkflowTestSuite
	env := suite.NewTestWorkflowEnvironment()
	env.SetTestTimeout(time.Minute)
	d := newOrderDesk()
	asldistapproval.RegisterOrders(env, d)
	var seen [][]string
	var refusals []string
	step := func(at time.Duration, key string) {
		env.RegisterDelayedCallback(func() {
			seen = append(seen, pendingKeys(t, env))
			env.UpdateWorkflow(flowtemporal.UpdateDecide, key, &testsuite.TestUpdateCallback{
				OnReject:   func(err error) { refusals = append(refusals, err.Error()) },
				OnComplete: func(any, error) {},
			}, flowtemporal.Decision{Key: key, Decision: "yes"})
		}, at)
	}
	step(time.Minute, "Review/2100/Approve")
	step(2*time.Minute, "Review/3/Approve")
	env.ExecuteWorkflow(asldistapproval.OrdersWorkflowName, []byte(`{"bucket":"orders"}`))
	require.True(t, env.IsWorkflowCompleted())
	assert.Empty(t, refusals)
	assert.Equal(t, [][]string{{"Review/2100/Approve", "Review/3/Approve"}, {"Review/3/Approve"}}, seen)
	var out any
	require.NoError(t, env.GetWorkflowResult(&out))
	assert.Equal(t, jsonOf(t, want), jsonOf(t, out))
	assert.Equal(t, wantOrderCalls(), d.snapshot())
}

// pendingKeys lists, sorted, the keys of the approvals the run waits for.
func pendingKeys(t *testing.T, env *testsuite.TestWorkflowEnvironment) []string {
	v, err := env.QueryWorkflow(flowtemporal.QueryPending)
	require.NoError(t, err)
	var pending []flowcrt.Pending
	require.NoError(t, v.Get(&pending))
	var keys []string
	for _, p := range pending {
		keys = append(keys, p.Key)
	}
	slices.Sort(keys)
	return keys
}
