package temporal_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"

	flowcrt "github.com/flowc-dev/flowc/runtime"
	flowcasl "github.com/flowc-dev/flowc/runtime/impl/asl"
	"github.com/flowc-dev/flowc/temporal/flowtemporal"
	"github.com/flowc-dev/flowc/temporal/golden/asldistapproval"
)

// The orders of golden/asldistapproval: more than two pages of items on
// Temporal (flowtemporal.ItemPageItems), and more than two reads ahead
// (1,000 items) of the runtime's distributed Map on an engine, which ran
// a window of 1,000 items at a time before; the two that stop are in the
// first window and in the third.
const (
	ordersRead = 2500
	stopsEarly = 3
	stopsLate  = 2100
)

// orderDesk reads the orders (an ItemReader) and does the work of
// golden/asldistapproval: the orders it is told are risky wait for an
// approval, those for a courier hand it a task token. It counts every
// call by handler and order, and keeps the tokens by order.
type orderDesk struct {
	n              int // orders read
	risky, courier []int
	failing        int // the order whose check fails; 0: none
	mu             sync.Mutex
	calls          map[string]int
	tokens         map[float64]string
}

func newOrderDesk(n int, risky, courier []int) *orderDesk {
	return &orderDesk{n: n, risky: risky, courier: courier, calls: map[string]int{}, tokens: map[float64]string{}}
}

func (d *orderDesk) ReadItems(_ context.Context, _ flowcasl.ItemReadRequest, yield func(any) error) error {
	for i := range d.n {
		order := map[string]any{"id": float64(i), "risky": slices.Contains(d.risky, i), "courier": slices.Contains(d.courier, i)}
		if err := yield(order); err != nil {
			return err
		}
	}
	return nil
}

func (d *orderDesk) count(name string, id any) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.calls[fmt.Sprint(name, " ", id)]++
}

func orderID(in any) any { return in.(map[string]any)["order"].(map[string]any)["id"] }

func (d *orderDesk) Check(_ context.Context, in any) (any, error) {
	d.count("check", orderID(in))
	if d.failing > 0 && orderID(in) == float64(d.failing) {
		return nil, &flowcrt.Error{Name: "Unknown", Cause: fmt.Sprint("order ", d.failing)}
	}
	return in, nil
}

func (d *orderDesk) Ship(_ context.Context, in any) (any, error) {
	d.count("ship", orderID(in))
	m := in.(map[string]any)
	return map[string]any{"n": m["n"], "shipped": m["decision"].(map[string]any)["approval"]}, nil
}

func (d *orderDesk) InvokeWaitForTaskToken(_ context.Context, in any) (any, error) {
	p := in.(map[string]any)["Payload"].(map[string]any)
	d.count("courier", p["n"])
	d.mu.Lock()
	defer d.mu.Unlock()
	d.tokens[p["n"].(float64)] = p["token"].(string)
	return nil, nil
}

func (d *orderDesk) snapshot() map[string]int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return maps.Clone(d.calls)
}

func (d *orderDesk) token(n int) string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.tokens[float64(n)]
}

// wantCalls is every order checked once, each risky one shipped once and
// each courier's asked once.
func (d *orderDesk) wantCalls() map[string]int {
	calls := map[string]int{}
	for i := range d.n {
		calls[fmt.Sprint("check ", i)] = 1
	}
	for _, i := range d.risky {
		calls[fmt.Sprint("ship ", i)] = 1
	}
	for _, i := range d.courier {
		calls[fmt.Sprint("courier ", i)] = 1
	}
	return calls
}

// shipsAtOnce answers every approval with its first option: the run that
// never stops, whose output the stopped runs must end with.
type shipsAtOnce struct{ *orderDesk }

func (shipsAtOnce) Approve(_ context.Context, req flowcrt.ApprovalRequest) (string, error) {
	return req.Options[0], nil
}

var ordersInput = map[string]any{"bucket": "orders"}

func ordersNeverStopping(t *testing.T) any {
	d := newOrderDesk(ordersRead, []int{stopsEarly, stopsLate}, nil)
	out, err := asldistapproval.NewOrders(shipsAtOnce{d}).Run(context.Background(), ordersInput)
	require.NoError(t, err)
	require.Equal(t, d.wantCalls(), d.calls)
	return out
}

// delivered is what the courier of order n sends for its token.
func delivered(n int) json.RawMessage { return json.RawMessage(fmt.Sprintf(`{"by":"courier %d"}`, n)) }

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
func TestDistributedMapApprovalsPastFirstWindowNatively(t *testing.T) {
	want := ordersNeverStopping(t)
	ctx := context.Background()
	store := flowcrt.NewMemoryCheckpointer()
	d := newOrderDesk(ordersRead, []int{stopsEarly, stopsLate}, nil)
	process := func() *asldistapproval.Orders { return asldistapproval.NewOrders(d, flowcrt.WithCheckpointer(store)) }

	_, err := process().Invoke(ctx, "o1", ordersInput)
	assert.Equal(t, []string{"Review/2100/Approve", "Review/3/Approve"}, stopKeys(t, err))
	_, err = process().DecideAt(ctx, "o1", "Review/2100/Approve", "yes")
	assert.Equal(t, []string{"Review/3/Approve"}, stopKeys(t, err), "the early order waits still")
	out, err := process().DecideAt(ctx, "o1", "Review/3/Approve", "yes")
	require.NoError(t, err)
	assert.Equal(t, jsonOf(t, want), jsonOf(t, out))
	assert.Equal(t, d.wantCalls(), d.snapshot())
}

// On Temporal the same two orders wait at once, though the late one is
// read well after the first 1,000: the query lists them by the keys the
// native session gives them, the update answers the later first, then
// the earlier, and the workflow ends with the native output (every
// order's result, in item order), every activity run once.
func TestDistributedMapApprovalsPastFirstWindowOnTemporal(t *testing.T) {
	want := ordersNeverStopping(t)
	env := (&testsuite.WorkflowTestSuite{}).NewTestWorkflowEnvironment()
	d := newOrderDesk(ordersRead, []int{stopsEarly, stopsLate}, nil)
	asldistapproval.RegisterOrders(env, d)
	var seen [][]string
	var refusals []string
	answer := func(at time.Duration, key string) {
		env.RegisterDelayedCallback(func() {
			seen = append(seen, pendingKeys(t, env))
			env.UpdateWorkflow(flowtemporal.UpdateDecide, key, &testsuite.TestUpdateCallback{
				OnReject:   func(err error) { refusals = append(refusals, err.Error()) },
				OnComplete: func(any, error) {},
			}, flowtemporal.Decision{Key: key, Decision: "yes"})
		}, at)
	}
	answer(time.Minute, "Review/2100/Approve")
	answer(2*time.Minute, "Review/3/Approve")
	env.ExecuteWorkflow(asldistapproval.OrdersWorkflowName, []byte(`{"bucket":"orders"}`))
	require.True(t, env.IsWorkflowCompleted())
	assert.Empty(t, refusals)
	assert.Equal(t, [][]string{{"Review/2100/Approve", "Review/3/Approve"}, {"Review/3/Approve"}}, seen)
	var out any
	require.NoError(t, env.GetWorkflowResult(&out))
	assert.Equal(t, jsonOf(t, want), jsonOf(t, out))
	assert.Equal(t, d.wantCalls(), d.snapshot())
}

// RunWorkflow, what `flowc run --engine temporal` runs, stops once both
// orders wait, with the first stop, as a native run without a session
// reports it: the reader and the dispatch of the Map's children count as
// settled while they wait. With every order read, more than 1,000
// activities end at one move of the test clock: RunWorkflow must not
// schedule a callback for each (the test environment's queue holds 1,000).
func TestRunWorkflowStopsInsideDistributedMap(t *testing.T) {
	d := newOrderDesk(ordersRead, []int{stopsEarly, stopsLate}, nil)
	register := func(r worker.Registry) { asldistapproval.RegisterOrders(r, d) }
	var out any
	err := flowtemporal.RunWorkflow(context.Background(), "", register, asldistapproval.OrdersWorkflowName, []byte(`{"bucket":"orders"}`), &out, io.Discard)
	var wait *flowcrt.Interrupted
	require.ErrorAs(t, err, &wait)
	assert.Equal(t, "Review/3/Approve", wait.Key)
	assert.Equal(t, 1, d.snapshot()[fmt.Sprintf("check %d", ordersRead-1)], "every order was reached")
}

// The callback pattern inside the same distributed Map: the couriers of
// orders 3 and 2100 each get a task token and the run waits for both at
// once (a native session: one stop listing both tokens, keyed by item);
// the later is answered first, each answer completes its own order only,
// and both engines end with the same output. Source: Step Functions'
// "Wait for a Callback with Task Token" and distributed Map; the native
// session's behaviour in golden/aslcallback's TestMapStopsPerItem.
func TestDistributedMapTaskTokensPastFirstWindow(t *testing.T) {
	couriers := []int{stopsEarly, stopsLate}
	ctx := context.Background()
	store := flowcrt.NewMemoryCheckpointer()
	d := newOrderDesk(ordersRead, nil, couriers)
	process := func() *asldistapproval.Orders { return asldistapproval.NewOrders(d, flowcrt.WithCheckpointer(store)) }
	_, err := process().Invoke(ctx, "c1", ordersInput)
	var wait *flowcrt.TaskTokenWait
	require.ErrorAs(t, err, &wait)
	assert.Equal(t, "Review/3/Courier", wait.State)
	assert.Equal(t, []string{d.token(stopsEarly), d.token(stopsLate)}, wait.Tokens)
	_, err = process().SendTaskSuccess(ctx, d.token(stopsLate), delivered(stopsLate))
	require.ErrorAs(t, err, &wait)
	assert.Equal(t, []string{d.token(stopsEarly)}, wait.Tokens, "the early order waits still")
	want, err := process().SendTaskSuccess(ctx, d.token(stopsEarly), delivered(stopsEarly))
	require.NoError(t, err)
	assert.Equal(t, d.wantCalls(), d.snapshot())

	env := (&testsuite.WorkflowTestSuite{}).NewTestWorkflowEnvironment()
	td := newOrderDesk(ordersRead, nil, couriers)
	asldistapproval.RegisterOrders(env, td)
	var seen [][]string
	answer := func(at time.Duration, n int) {
		env.RegisterDelayedCallback(func() {
			seen = append(seen, pendingTokens(t, env))
			env.SignalWorkflow(flowtemporal.SignalTaskToken, flowtemporal.TaskTokenAnswer{Token: td.token(n), Output: delivered(n)})
		}, at)
	}
	answer(time.Minute, stopsLate)
	answer(2*time.Minute, stopsEarly)
	env.ExecuteWorkflow(asldistapproval.OrdersWorkflowName, []byte(`{"bucket":"orders"}`))
	require.True(t, env.IsWorkflowCompleted())
	wantSeen := [][]string{{"Courier", "Courier"}, {"Courier"}}
	assert.Equal(t, wantSeen, seen)
	var out any
	require.NoError(t, env.GetWorkflowResult(&out))
	assert.Equal(t, jsonOf(t, want), jsonOf(t, out))
	assert.Equal(t, td.wantCalls(), td.snapshot())
}

// pendingTokens lists the states of the task tokens the run waits for.
func pendingTokens(t *testing.T, env *testsuite.TestWorkflowEnvironment) []string {
	v, err := env.QueryWorkflow(flowtemporal.QueryTaskTokens)
	require.NoError(t, err)
	var pending []flowtemporal.PendingTaskToken
	require.NoError(t, v.Get(&pending))
	var states []string
	for _, p := range pending {
		states = append(states, p.State)
	}
	return states
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

// An order that fails, with none tolerated, fails the Map while an
// earlier one waits for its approval: on Temporal the waiting child is
// cancelled, its approval no longer listed, and the workflow fails as the
// native run does, with States.ExceedToleratedFailureThreshold, rather
// than waiting for a decision. Source: Step Functions' distributed Map,
// "Setting failure thresholds" (no threshold: any failed child fails the
// Map run).
func TestDistributedMapFailsWhileAChildWaits(t *testing.T) {
	d := newOrderDesk(ordersRead, []int{stopsEarly}, nil)
	d.failing = stopsLate
	_, want := asldistapproval.NewOrders(shipsAtOnce{d}).Run(context.Background(), ordersInput)
	require.Error(t, want)

	env := (&testsuite.WorkflowTestSuite{}).NewTestWorkflowEnvironment()
	td := newOrderDesk(ordersRead, []int{stopsEarly}, nil)
	td.failing = stopsLate
	asldistapproval.RegisterOrders(env, td)
	env.ExecuteWorkflow(asldistapproval.OrdersWorkflowName, []byte(`{"bucket":"orders"}`))
	require.True(t, env.IsWorkflowCompleted())
	got := flowtemporal.StepsError(env.GetWorkflowError())
	require.Error(t, got)
	assert.Equal(t, flowcrt.StatesExceedToleratedFailureThreshold, flowcrt.ErrorName(got))
	assert.Equal(t, flowcrt.ErrorName(want), flowcrt.ErrorName(got))
	assert.Empty(t, pendingKeys(t, env), "the waiting order was cancelled")
	assert.Zero(t, td.snapshot()["ship 3"])
}
