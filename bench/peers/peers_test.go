package peers

import (
	"context"
	"log/slog"
	"reflect"
	"testing"

	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/flowc-dev/flowc/bench/loop"
)

// impl is one way to run a workflow: flowc's generated code, its
// hand-written twin in bench/loop, or a peer.
type impl[S any] struct {
	name string
	run  func() (S, error)
}

// The handlers are held in variables, as the generated workflows hold them
// and as bench/loop does, so that the compiler cannot inline the calls away.
var (
	counter loop.LoopHandlers   = loop.Counter{}
	desk    loop.TriageHandlers = loop.Desk{}
	count   loop.AnchorHandlers = loop.AnchorCount{}
)

// loops gives the four ways to run loop.flow.yaml from n = 0 to
// loop.LoopLimit: LoopLimit ticks, each adding one to n, and LoopLimit-1
// tocks, loop.LoopTransitions in all.
func loops(t testing.TB) []impl[loop.LoopState] {
	ctx, in := context.Background(), loop.LoopState{Limit: loop.LoopLimit}
	generated := loop.NewLoop(counter)
	eino, err := EinoLoop(ctx, counter)
	if err != nil {
		t.Fatal(err)
	}
	return []impl[loop.LoopState]{
		{"flowc", func() (loop.LoopState, error) { return generated.Run(ctx, in) }},
		{"hand", func() (loop.LoopState, error) { return loop.HandLoop(ctx, counter, in) }},
		{"eino", func() (loop.LoopState, error) { return eino.Invoke(ctx, in) }},
		{"temporal", func() (loop.LoopState, error) { return temporal(TemporalLoop, in) }},
	}
}

// triages gives the four ways to run triage.flow.yaml on loop.Ticket, a
// bug of priority 2: four states, classify, fix, review and answer.
func triages(t testing.TB) []impl[loop.TriageState] {
	ctx, in := context.Background(), loop.Ticket()
	generated := loop.NewTriage(desk)
	eino, err := EinoTriage(ctx, desk)
	if err != nil {
		t.Fatal(err)
	}
	return []impl[loop.TriageState]{
		{"flowc", func() (loop.TriageState, error) { return generated.Run(ctx, in) }},
		{"hand", func() (loop.TriageState, error) { return loop.HandTriage(ctx, desk, in) }},
		{"eino", func() (loop.TriageState, error) { return eino.Invoke(ctx, in) }},
		{"temporal", func() (loop.TriageState, error) { return temporal(TemporalTriage, in) }},
	}
}

// anchors gives the four ways to run anchor.flow.yaml's ring of 102 states
// ten times round: loop.AnchorTransitions calls of the count handler, each
// adding one to n.
func anchors(t testing.TB) []impl[loop.AnchorState] {
	ctx, in := context.Background(), loop.AnchorStart()
	generated := loop.NewAnchor(count)
	eino, err := EinoAnchor(ctx, count)
	if err != nil {
		t.Fatal(err)
	}
	return []impl[loop.AnchorState]{
		{"flowc", func() (loop.AnchorState, error) { return generated.Run(ctx, in) }},
		{"hand", func() (loop.AnchorState, error) { return loop.HandAnchor(ctx, count, in) }},
		{"eino", func() (loop.AnchorState, error) { return eino.Invoke(ctx, in) }},
		{"temporal", func() (loop.AnchorState, error) { return temporal(TemporalAnchor, in) }},
	}
}

// temporal runs wf on in in Temporal's test environment, which runs
// workflows and local activities in process, with no server. An
// environment runs one workflow, so each run makes its own.
func temporal[S any](wf func(workflow.Context, S) (S, error), in S) (S, error) {
	var suite testsuite.WorkflowTestSuite
	suite.SetLogger(log.NewStructuredLogger(slog.New(slog.DiscardHandler)))
	env := suite.NewTestWorkflowEnvironment()
	env.RegisterWorkflow(wf)
	env.ExecuteWorkflow(wf, in)
	var out S
	if err := env.GetWorkflowError(); err != nil {
		return out, err
	}
	return out, env.GetWorkflowResult(&out)
}

// agree runs every implementation once and wants each to end in the state
// flowc's generated workflow ends in, which want checks: a peer that did
// less or other work than flowc fails here, not just in its timing.
func agree[S any](t *testing.T, impls []impl[S], want func(S) bool) {
	t.Helper()
	flowc, err := impls[0].run()
	if err != nil || !want(flowc) {
		t.Fatalf("%s: %+v, %v", impls[0].name, flowc, err)
	}
	for _, i := range impls[1:] {
		got, err := i.run()
		if err != nil || !reflect.DeepEqual(got, flowc) {
			t.Errorf("%s: %+v, %v; flowc: %+v", i.name, got, err, flowc)
		}
	}
}

func TestLoopAgrees(t *testing.T) {
	agree(t, loops(t), func(s loop.LoopState) bool { return s.N == loop.LoopLimit })
}

func TestTriageAgrees(t *testing.T) {
	agree(t, triages(t), func(s loop.TriageState) bool { return s.Steps == 4 && s.Status == "answered" })
}

func TestAnchorAgrees(t *testing.T) {
	agree(t, anchors(t), func(s loop.AnchorState) bool {
		return s.N == loop.AnchorTransitions && s.Note == "anchor" && len(s.Tags) == 2
	})
}

// bench measures a run of every implementation, one sub-benchmark each,
// named impl=<name> so that benchstat -col /impl sets them side by side.
func bench[S any](b *testing.B, impls []impl[S]) {
	for _, i := range impls {
		b.Run("impl="+i.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := i.run(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkLoop: a run of the two-state counting loop, loop.LoopTransitions
// transitions, the work of bench/loop's BenchmarkLoop.
func BenchmarkLoop(b *testing.B) { bench(b, loops(b)) }

// BenchmarkTriage: a run of the five-state triage, four transitions, the
// work of bench/loop's BenchmarkTriage.
func BenchmarkTriage(b *testing.B) { bench(b, triages(b)) }

// BenchmarkAnchor: a run of the 102-state anchor, loop.AnchorTransitions
// transitions, the work of bench/loop's BenchmarkAnchor (generated and
// byvalue: the handler returns its update).
func BenchmarkAnchor(b *testing.B) { bench(b, anchors(b)) }
