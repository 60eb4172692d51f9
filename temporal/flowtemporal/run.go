package flowtemporal

import (
	"context"
	"encoding/json"
	"math/rand/v2"

	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/workflow"

	flowcrt "github.com/flowc-dev/flowc/runtime"
	flowcimpl "github.com/flowc-dev/flowc/runtime/impl"
)

// Names a client uses to talk to a running workflow.
const (
	// SignalDecision answers an approval state: its payload is a Decision.
	SignalDecision = "decision"
	// QueryPending returns the approvals the run waits for, []flowcrt.Pending.
	QueryPending = "pending"
)

// Decision is the payload of SignalDecision and UpdateDecide. Key names
// the stop it answers (see Pending.Key); State may name it instead when
// one approval of that state waits, and both may be left empty when the
// run waits for one approval only.
type Decision struct {
	Key      string `json:"key,omitempty"`
	State    string `json:"state,omitempty"`
	Decision string `json:"decision"`
	// Door is where the decision came from, for the session's history
	// (flowcrt.WithDoor); the workflow ignores it.
	Door string `json:"door,omitempty"`
}

// memoSkipWaits is the memo of a run started with SkipWaits.
const memoSkipWaits = "flowc-skip-waits"

// skipWaitsMemo is the StartWorkflowOptions memo of a run whose waits and
// retry intervals take no time (`flowc run --skip-waits`): the run reads it
// from its start event, so a replay skips the same waits.
var skipWaitsMemo = map[string]any{memoSkipWaits: true}

func skipsWaits(wctx workflow.Context) bool {
	p, ok := workflow.GetInfo(wctx).Memo.GetFields()[memoSkipWaits]
	var skip bool
	return ok && converter.GetDefaultDataConverter().FromPayload(p, &skip) == nil && skip
}

// runState is what one workflow run keeps beside the state of its steps.
type runState struct {
	policies   bool                // retry rules may become RetryPolicies (WithRetryPolicies)
	inOrder    bool                // fan-outs run one item at a time (InOrder)
	activities int                 // activities started, for their ids
	busy       int                 // coroutines running steps, not parked in a wait (fanOutInOrder)
	sleeping   int                 // of them, those on a durable timer
	pending    []*flowcrt.Pending  // approvals waiting, in the order they began
	decisions  []Decision          // signalled, not yet taken
	tokens     []*PendingTaskToken // task tokens waited for (callback.go)
	answers    []TaskTokenAnswer   // signalled for them, not yet taken
}

type runKey struct{}

type policiesKey struct{}

type inOrderKey struct{}

// InOrder marks the runs started with wctx as runs over mocks, which
// answer each state's calls in the order they come: their fan-outs run one
// item (or branch) at a time, in order: the order in which a native run
// starts its calls, so that each call gets the answer it gets natively.
func InOrder(wctx workflow.Context) workflow.Context {
	return workflow.WithValue(wctx, inOrderKey{}, true)
}

// WithRetryPolicies marks the runs started with wctx as runs whose steps
// make one activity call per attempt and nothing else that can fail (typed
// mode's): a retry rule that flowcimpl.Policy.EngineRetrier maps exactly is
// then the activity's RetryPolicy, and Temporal makes the attempts.
func WithRetryPolicies(wctx workflow.Context) workflow.Context {
	return workflow.WithValue(wctx, policiesKey{}, true)
}

// idle runs wait, a wait of ctx's coroutine for others or for a person,
// with the coroutine not counted busy.
func (r *runState) idle(ctx context.Context, wait func()) {
	r.busy--
	defer func() { r.busy++ }()
	park(ctx, wait)
}

func runOf(ctx context.Context) *runState { return ctx.Value(runKey{}).(*runState) }

func (r *runState) nextActivity() int {
	r.activities++
	return r.activities
}

// runSteps is the body of a generated workflow function: it runs the native
// steps through run on wctx, with the options that make them deterministic
// (the workflow's clock, a random source seeded once through the history)
// and tag handler calls with their state. The error is encoded so that
// the caller gets back its name and cause.
func runSteps(wctx workflow.Context, run func(ctx context.Context, opts ...flowcrt.Option) error) error {
	return runStepsAgain(wctx, run, nil)
}

// runStepsAgain is runSteps for a session that takes new input while it
// runs (UpdateInput; nil again: none): each input stops the steps in
// flight, and again runs them anew on it.
func runStepsAgain(wctx workflow.Context, run func(ctx context.Context, opts ...flowcrt.Option) error, again func(ctx context.Context, input json.RawMessage, opts ...flowcrt.Option) error) error {
	r := &runState{policies: wctx.Value(policiesKey{}) != nil, inOrder: wctx.Value(inOrderKey{}) != nil, busy: 1}
	if err := r.handlers(wctx); err != nil {
		return err
	}
	quiet := recordsQuietStates(wctx)
	var seed uint64
	if err := workflow.SideEffect(wctx, func(workflow.Context) any { return rand.Uint64() }).Get(&seed); err != nil {
		return err
	}
	random := rand.New(rand.NewPCG(seed, seed))
	ctx := context.WithValue(flowcimpl.WithEngine(context.Background(), engine{}), runKey{}, r)
	c := &clock{wctx: wctx, skip: skipsWaits(wctx)}
	opts := []flowcrt.Option{flowcrt.WithClock(c), flowcrt.WithRand(random.Float64), flowcrt.WithStateContext()}
	if quiet {
		opts = append(opts, flowcrt.WithObserver(&quietStates{r: r}))
	}
	if again == nil {
		return encode(run(on(ctx, wctx), opts...))
	}
	inputs := &newInputs{}
	if err := inputs.handle(wctx); err != nil {
		return err
	}
	for {
		steps, stop := workflow.WithCancel(wctx)
		inputs.stop = stop
		err := run(on(ctx, steps), opts...)
		in, ok := inputs.next()
		if !ok {
			return encode(err)
		}
		r.decisions, r.answers = nil, nil // given for stops that no longer wait
		run = func(ctx context.Context, opts ...flowcrt.Option) error { return again(ctx, in, opts...) }
	}
}

// handlers serves the queries, signals and updates of a run.
func (r *runState) handlers(wctx workflow.Context) error {
	if err := workflow.SetQueryHandler(wctx, QueryPending, r.query); err != nil {
		return err
	}
	if err := workflow.SetQueryHandler(wctx, QueryTaskTokens, r.queryTokens); err != nil {
		return err
	}
	if err := workflow.SetQueryHandler(wctx, querySettled, r.settled); err != nil {
		return err
	}
	if err := r.decideHandlers(wctx); err != nil {
		return err
	}
	if err := r.tokenHandlers(wctx); err != nil {
		return err
	}
	workflow.Go(wctx, r.receive)
	workflow.Go(wctx, r.receiveTokens)
	return nil
}

func (r *runState) query() ([]flowcrt.Pending, error) {
	out := make([]flowcrt.Pending, len(r.pending))
	for i, p := range r.pending {
		out[i] = *p
	}
	return out, nil
}

// receive keeps the decisions signalled for the approvals that wait;
// others are logged and dropped, so that a mistyped signal does not fail
// a run that may have waited for days.
func (r *runState) receive(wctx workflow.Context) {
	ch := workflow.GetSignalChannel(wctx, SignalDecision)
	for {
		var d Decision
		ch.Receive(wctx, &d)
		if err := r.take(d); err != nil {
			workflow.GetLogger(wctx).Warn("flowc: decision dropped", "key", d.Key, "state", d.State, "decision", d.Decision, "error", err)
		}
	}
}

func validOption(p *flowcrt.Pending, d string) bool {
	if len(p.Options) == 0 {
		return true
	}
	for _, o := range p.Options {
		if o == d {
			return true
		}
	}
	return false
}
