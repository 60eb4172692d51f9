package observe_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrun "github.com/flowc-dev/flowc/flowrun"
	"github.com/flowc-dev/flowc/golden/asldistributed"
	"github.com/flowc-dev/flowc/golden/aslfanout"
	"github.com/flowc-dev/flowc/golden/chainagent"
	"github.com/flowc-dev/flowc/golden/jsonparallel"
	"github.com/flowc-dev/flowc/golden/observed"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// tree records what an observer sees as paths from the run down, each
// element found through the context its parent returned: a path that
// comes out right shows that contexts nest, items running concurrently
// included. Ended lines carry their outcome; open ones say "open".
type tree struct {
	mu    sync.Mutex
	nodes []*node
}

type node struct {
	path string
	end  string
}

func (t *tree) start(ctx context.Context, what string) (context.Context, func(error)) {
	path := what
	if parent, ok := ctx.Value(t).(*node); ok { // each tree is its own key
		path = parent.path + " > " + what
	}
	n := &node{path: path, end: "open"}
	t.mu.Lock()
	t.nodes = append(t.nodes, n)
	t.mu.Unlock()
	return context.WithValue(ctx, t, n), func(err error) {
		t.mu.Lock()
		defer t.mu.Unlock()
		n.end = "ok"
		if err != nil {
			n.end = flowcrt.ErrorName(err)
		}
	}
}

func (t *tree) Run(ctx context.Context, workflow string) (context.Context, func(error)) {
	return t.start(ctx, "run "+workflow)
}

func (t *tree) State(ctx context.Context, state string) (context.Context, func(error)) {
	return t.start(ctx, "state "+state)
}

func (t *tree) Attempt(ctx context.Context, state string, attempt int) (context.Context, func(error)) {
	return t.start(ctx, fmt.Sprintf("attempt %s #%d", state, attempt))
}

func (t *tree) Item(ctx context.Context, state string, index, total int) (context.Context, func(error)) {
	return t.start(ctx, fmt.Sprintf("item %s %d/%d", state, index, total))
}

// lines lists "path: outcome", parents first, sorted: concurrent items
// start in any order.
func (t *tree) lines() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	nodes := slices.Clone(t.nodes)
	key := func(n *node) string { return strings.ReplaceAll(n.path, " > ", "\x01") + "\x00" + n.end }
	slices.SortFunc(nodes, func(a, b *node) int { return strings.Compare(key(a), key(b)) })
	var out []string
	for _, n := range nodes {
		out = append(out, n.path+": "+n.end)
	}
	return out
}

// A retried state shows one attempt per call, each with its error's name,
// under the state's visit.
func TestTreeRetriedTypedState(t *testing.T) {
	tr := &tree{}
	require.NoError(t, observed.Retry(2, flowcrt.WithObserver(tr)))
	assert.Equal(t, []string{
		"run Retry: ok",
		"run Retry > state call: ok",
		"run Retry > state call > attempt call #1: RateLimited",
		"run Retry > state call > attempt call #2: RateLimited",
		"run Retry > state call > attempt call #3: ok",
	}, tr.lines())
}

// Items of a typed map run two at a time, each under the state that fans
// out, with the states of its chain inside it; the run is one run, however
// many loops its items take.
func TestTreeTypedFanOut(t *testing.T) {
	tr := &tree{}
	require.NoError(t, observed.Map(flowcrt.WithObserver(tr), "a", "b", "c"))
	assert.Equal(t, []string{
		"run MapReduce: ok",
		"run MapReduce > state load: ok",
		"run MapReduce > state load > item load 0/3: ok",
		"run MapReduce > state load > item load 0/3 > state score: ok",
		"run MapReduce > state load > item load 1/3: ok",
		"run MapReduce > state load > item load 1/3 > state score: ok",
		"run MapReduce > state load > item load 2/3: ok",
		"run MapReduce > state load > item load 2/3 > state score: ok",
		"run MapReduce > state report: ok",
	}, tr.lines())
}

// A failing item ends with its error's name, and so do its state and run.
func TestTreeFailingItem(t *testing.T) {
	tr := &tree{}
	require.Error(t, observed.Map(flowcrt.WithObserver(tr), "bad"))
	assert.Equal(t, []string{
		"run MapReduce: Unscorable",
		"run MapReduce > state load: Unscorable",
		"run MapReduce > state load > item load 0/1: Unscorable",
		"run MapReduce > state load > item load 0/1 > state score: Unscorable",
	}, tr.lines())
}

type squarer struct{}

func (squarer) Invoke(_ context.Context, in any) (any, error) {
	v := in.(map[string]any)["value"].(float64)
	return map[string]any{"square": v * v}, nil
}

// States Language: a Parallel's branches and a Map's items are items, the
// states of inner machines nest in them, and a Task's calls are attempts.
func TestTreeStatesLanguage(t *testing.T) {
	tr := &tree{}
	w := aslfanout.NewFanout(squarer{}, flowcrt.WithObserver(tr), flowcrt.WithClock(flowcrt.NewFakeClock(time.Unix(0, 0))))
	_, err := w.Run(context.Background(), map[string]any{"names": []any{"ann"}})
	require.NoError(t, err)
	lines := tr.lines()
	for _, want := range []string{
		"run Fanout: ok",
		"run Fanout > state Prepare: ok",
		"run Fanout > state Both: ok",
		"run Fanout > state Both > item Both 0/2: ok",
		"run Fanout > state Both > item Both 0/2 > state Square: ok",
		"run Fanout > state Both > item Both 0/2 > state Square > item Square 3/4: ok",
		"run Fanout > state Both > item Both 0/2 > state Square > item Square 3/4 > state Compute: ok",
		"run Fanout > state Both > item Both 0/2 > state Square > item Square 3/4 > state Compute > attempt Compute #1: ok",
		"run Fanout > state Both > item Both 1/2 > state Greet > item Greet 0/1 > state Hello: ok",
		"run Fanout > state Wait: ok",
	} {
		assert.Contains(t, lines, want)
	}
	assert.Len(t, lines, 4+2+2+4*3+1*2, "run, 3 top states, 2 branches, 2 maps, 4 items of Compute (item, state, attempt), 1 of Hello")
}

// JSON mode: the branches of a parallel state run the shared loop, inside
// the one run, and every task call is an attempt.
func TestTreeJSONParallel(t *testing.T) {
	tr := &tree{}
	_, err := jsonparallel.NewParallelMock(&flowcrun.Mocks{}, flowcrt.WithObserver(tr)).Run(context.Background(), map[string]any{"repo": "r"})
	require.NoError(t, err)
	lines := tr.lines()
	for _, want := range []string{
		"run Parallel: ok",
		"run Parallel > state state-1 > attempt state-1 #1: ok",
		"run Parallel > state state-1 > item state-1 1/3 > state state-3 > attempt state-3 #1: ok",
		"run Parallel > state state-5 > attempt state-5 #1: ok",
	} {
		assert.Contains(t, lines, want)
	}
	runs := slices.DeleteFunc(slices.Clone(lines), func(l string) bool { return strings.Contains(l, " > ") })
	assert.Equal(t, []string{"run Parallel: ok"}, runs, "branches are not runs of their own")
}

// A task chain's tasks are states, each calling its handler in attempts.
func TestTreeChain(t *testing.T) {
	tr := &tree{}
	_, err := chainagent.NewSupportAgentMock(&flowcrun.Mocks{}, flowcrt.WithObserver(tr)).Run(context.Background(), "hello")
	lines := tr.lines()
	require.NotEmpty(t, lines)
	assert.Equal(t, "run SupportAgent: "+outcome(err), lines[0])
	for _, l := range lines[1:] {
		assert.True(t, strings.HasPrefix(l, "run SupportAgent > state "), l)
		assert.NotContains(t, l, "open")
	}
	assert.Positive(t, countPrefix(lines, "run SupportAgent > state triage > attempt triage #1"))
}

func outcome(err error) string {
	if err == nil {
		return "ok"
	}
	return flowcrt.ErrorName(err)
}

func countPrefix(lines []string, prefix string) int {
	n := 0
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) {
			n++
		}
	}
	return n
}

// A panicking handler (one without retry rules, which the step loop
// recovers) ends its state, its item and the run with TaskFailed.
func TestTreePanic(t *testing.T) {
	tr := &tree{}
	require.Error(t, observed.Map(flowcrt.WithObserver(tr), "panic"))
	assert.Equal(t, []string{
		"run MapReduce: TaskFailed",
		"run MapReduce > state load: TaskFailed",
		"run MapReduce > state load > item load 0/1: TaskFailed",
		"run MapReduce > state load > item load 0/1 > state score: TaskFailed",
	}, tr.lines())
}

type shop struct{}

func (shop) Price(_ context.Context, in any) (any, error) {
	for _, it := range in.(map[string]any)["Items"].([]any) {
		if it.(map[string]any)["order"].(map[string]any)["qty"] == "bad" {
			return nil, flowcrt.NewError("BadQuantity", "not a number")
		}
	}
	return "priced", nil
}

func (shop) Check(_ context.Context, in any) (any, error) {
	if !in.(map[string]any)["ok"].(bool) {
		return nil, errors.New("line not ok")
	}
	return "checked", nil
}

// A Distributed Map's child runs are items of unknown total (-1: the
// items are read as they go), a tolerated failure ends its item with its
// name while the state succeeds.
func TestTreeDistributedMap(t *testing.T) {
	t.Chdir("../golden/asldistributed") // the Map reads its items from data/
	tr := &tree{}
	in := map[string]any{"orders": "orders.csv", "limit": 5, "currency": "EUR", "out": t.TempDir()}
	_, err := asldistributed.NewOrders(shop{}, flowcrt.WithObserver(tr)).Run(context.Background(), in)
	require.NoError(t, err)
	lines := tr.lines()
	for _, want := range []string{
		"run Orders: ok",
		"run Orders > state PriceOrders: ok",
		"run Orders > state PriceOrders > item PriceOrders 0/-1 > state Price > attempt Price #1: ok",
		"run Orders > state PriceOrders > item PriceOrders 1/-1: BadQuantity",
		"run Orders > state CheckLines > item CheckLines 2/-1: States.TaskFailed",
	} {
		assert.Contains(t, lines, want)
	}
	assert.Equal(t, 3, countPrefix(lines, "run Orders > state PriceOrders > item PriceOrders "+"2/-1"), "item, state, attempt")
}

// A session's run is a run too, checkpoints and all.
func TestTreeSession(t *testing.T) {
	tr := &tree{}
	opts := []flowcrt.Option{flowcrt.WithObserver(tr), flowcrt.WithCheckpointer(flowcrt.NewMemoryCheckpointer())}
	require.NoError(t, observed.MapSession("s1", opts, "a"))
	assert.Equal(t, []string{
		"run MapReduce: ok",
		"run MapReduce > state load: ok",
		"run MapReduce > state load > item load 0/1: ok",
		"run MapReduce > state load > item load 0/1 > state score: ok",
		"run MapReduce > state report: ok",
	}, tr.lines())
}
