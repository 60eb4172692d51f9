package temporal_test

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/client"

	flowcrt "github.com/flowc-dev/flowc/runtime"
	"github.com/flowc-dev/flowc/temporal/flowtemporal"
	"github.com/flowc-dev/flowc/temporal/golden/review"
)

var soakLong = flag.Bool("soak.long", false, "run the long form of TestSoakTemporal: 1,000 workflows")

// TestSoakTemporal runs many Review workflows (a fan-out, then an approval)
// on a dev server over three worker processes, kills a worker every few
// seconds and starts another, answers each approval, and checks that every
// workflow ends in the state the native engine gives, with every activity
// run and the ones run twice counted. -soak.long runs 1,000 workflows.
func TestSoakTemporal(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a dev server and worker processes")
	}
	n, limit := 200, 3*time.Minute
	if *soakLong {
		n, limit = 1000, 20*time.Minute
	}
	address := devServer(t)
	dir := t.TempDir()
	bin := filepath.Join(dir, "worker")
	build(t, bin, "./e2e/worker")
	logFile := filepath.Join(dir, "activities.log")
	c, err := client.Dial(client.Options{HostPort: address})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()

	pool := &workerPool{t: t, bin: bin, address: address, log: logFile}
	for range 3 {
		if err := pool.start(); err != nil {
			t.Fatal(err)
		}
	}
	start := time.Now()
	runs := startReviews(ctx, t, c, n)
	stopKilling := pool.killEvery(2 * time.Second)
	defer stopKilling()
	approveAll(ctx, t, c, runs)
	got := results(ctx, t, runs)
	kills := stopKilling()
	elapsed := time.Since(start)

	for id, pages := range runs {
		want := nativeReview(t, id, pages.pages)
		if !jsonEqual(got[id], want) {
			t.Errorf("workflow %s: on Temporal %s, natively %s", id, got[id], want)
		}
	}
	twice := countActivities(t, logFile, runs)
	t.Logf("%d workflows in %v (%.1f workflows/s) over %d worker processes, %d killed; %d activities ran twice",
		n, elapsed.Round(time.Millisecond), float64(n)/elapsed.Seconds(), pool.started, kills, twice)
	if kills < 3 {
		t.Errorf("%d workers killed, want at least 3", kills)
	}
}

type reviewRun struct {
	run   client.WorkflowRun
	pages []string
}

func startReviews(ctx context.Context, t *testing.T, c client.Client, n int) map[string]reviewRun {
	runs := make(map[string]reviewRun, n)
	for i := range n {
		id := fmt.Sprintf("soak-%04d", i)
		pages := []string{id + "-intro", id + "-usage", id + "-faq"}
		run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: "review"}, review.ReviewWorkflowName, review.ReviewState{Pages: pages})
		if err != nil {
			t.Fatal(err)
		}
		runs[id] = reviewRun{run: run, pages: pages}
	}
	return runs
}

// approveAll answers each workflow's approval once it waits for it.
func approveAll(ctx context.Context, t *testing.T, c client.Client, runs map[string]reviewRun) {
	waiting := make(map[string]reviewRun, len(runs))
	for id, r := range runs {
		waiting[id] = r
	}
	for len(waiting) > 0 {
		for id, r := range waiting {
			v, err := c.QueryWorkflow(ctx, id, r.run.GetRunID(), flowtemporal.QueryPending)
			var pending []flowcrt.Pending
			if err != nil || v.Get(&pending) != nil || len(pending) != 1 {
				continue
			}
			if err := c.SignalWorkflow(ctx, id, r.run.GetRunID(), flowtemporal.SignalDecision, flowtemporal.Decision{Decision: "publish"}); err != nil {
				t.Fatal(err)
			}
			delete(waiting, id)
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%d workflows never waited for their approval: %v", len(waiting), ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func results(ctx context.Context, t *testing.T, runs map[string]reviewRun) map[string]json.RawMessage {
	out := make(map[string]json.RawMessage, len(runs))
	var mu sync.Mutex
	var wg sync.WaitGroup
	for id, r := range runs {
		wg.Go(func() {
			var s review.ReviewState
			err := r.run.Get(ctx, &s)
			data, _ := json.Marshal(s)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				t.Errorf("workflow %s: %v", id, err)
			}
			out[id] = data
		})
	}
	wg.Wait()
	return out
}

// nativeReview is the result of the same workflow on the native engine,
// with the worker's handlers' results and the same decision.
func nativeReview(t *testing.T, id string, pages []string) json.RawMessage {
	ctx := context.Background()
	w := review.NewReview(nativeHandlers{}, flowcrt.WithCheckpointer(flowcrt.NewMemoryCheckpointer()))
	_, err := w.Invoke(ctx, id, &review.ReviewState{Pages: pages})
	var wait *flowcrt.Interrupted
	if !errors.As(err, &wait) {
		t.Fatalf("natively, %s did not wait for its approval: %v", id, err)
	}
	s, err := w.Decide(ctx, id, "publish")
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(s)
	return data
}

// nativeHandlers answer as e2e/worker's handlers do.
type nativeHandlers struct{}

func (nativeHandlers) Load(context.Context, review.ReviewState) (review.ReviewUpdate, error) {
	return review.ReviewUpdate{}.WithStatus("loaded"), nil
}
func (nativeHandlers) Check(_ context.Context, _ review.ReviewState, page string) (review.ReviewUpdate, error) {
	return review.ReviewUpdate{}.WithChecked([]string{page}).WithWords(len(page)), nil
}
func (nativeHandlers) Publish(context.Context, review.ReviewState) (review.ReviewUpdate, error) {
	return review.ReviewUpdate{}.WithStatus("published"), nil
}
func (nativeHandlers) Drop(context.Context, review.ReviewState) (review.ReviewUpdate, error) {
	return review.ReviewUpdate{}.WithStatus("dropped"), nil
}

func jsonEqual(a, b json.RawMessage) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && reflect.DeepEqual(x, y)
}

// countActivities checks that each workflow ran each of its activities and
// returns how many ran more than once.
func countActivities(t *testing.T, logFile string, runs map[string]reviewRun) int {
	data, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for line := range strings.Lines(string(data)) {
		_, what, _ := strings.Cut(strings.TrimSpace(line), " ") // drop the pid
		seen[what]++
	}
	twice := 0
	for id, r := range runs {
		want := []string{"load " + id, "publish " + id}
		for _, p := range r.pages {
			want = append(want, "check "+p+" "+id)
		}
		for _, what := range want {
			switch n := seen[what]; {
			case n == 0:
				t.Errorf("activity %q never ran", what)
			case n > 1:
				twice += n - 1
			}
		}
	}
	return twice
}

// workerPool runs the worker processes and kills them.
type workerPool struct {
	t                 *testing.T
	bin, address, log string
	mu                sync.Mutex
	live              []*exec.Cmd
	started           int
}

func (p *workerPool) start() error {
	w := exec.Command(p.bin, "-address", p.address, "-log", p.log, "-ids")
	w.Stderr = os.Stderr
	if err := w.Start(); err != nil {
		return err
	}
	p.t.Cleanup(func() { stop(w) })
	p.mu.Lock()
	defer p.mu.Unlock()
	p.live = append(p.live, w)
	p.started++
	return nil
}

// killEvery kills a random worker at random moments, on average every d,
// and starts another in its place, until the returned function is called;
// that function returns the number of kills (and may be called again).
func (p *workerPool) killEvery(d time.Duration) func() int {
	done := make(chan struct{})
	kills := make(chan int, 1)
	go func() {
		n := 0
		for {
			select {
			case <-done:
				kills <- n
				return
			case <-time.After(time.Duration(rand.Int64N(int64(2 * d)))):
			}
			p.mu.Lock()
			i := rand.IntN(len(p.live))
			victim := p.live[i]
			p.live = append(p.live[:i:i], p.live[i+1:]...)
			p.mu.Unlock()
			victim.Process.Kill()
			victim.Wait()
			n++
			if err := p.start(); err != nil {
				p.t.Error(err)
			}
		}
	}()
	var once sync.Once
	var n int
	return func() int {
		once.Do(func() {
			close(done)
			n = <-kills
		})
		return n
	}
}
