package loop

import (
	"context"
	"testing"
)

// desk is the triage's handlers: classify files the ticket, fix and review
// settle a bug, answer and escalate close it.
type desk struct{}

func (desk) Classify(_ context.Context, s TriageState) (TriageUpdate, error) {
	return TriageUpdate{}.WithCategory("bug").WithSteps(1), nil
}

func (desk) Fix(context.Context, TriageState) (TriageUpdate, error) {
	return TriageUpdate{}.WithStatus("fixed").WithSteps(1), nil
}

func (desk) Review(context.Context, TriageState) (TriageUpdate, error) {
	return TriageUpdate{}.WithSteps(1), nil
}

func (desk) Answer(context.Context, TriageState) (TriageUpdate, error) {
	return TriageUpdate{}.WithStatus("answered").WithSteps(1), nil
}

func (desk) Escalate(context.Context, TriageState) (TriageUpdate, error) {
	return TriageUpdate{}.WithStatus("escalated").WithSteps(1), nil
}

// triageDesk is held in a variable, as the generated workflow holds its
// handlers, so that the compiler cannot inline the calls away.
var triageDesk TriageHandlers = desk{}

// handTriage is the triage written by hand: the same handlers, each update
// folded through the same reducers (apply), the same conditions and the
// same context check between states as the generated run.
func handTriage(ctx context.Context, h TriageHandlers, s TriageState) (TriageState, error) {
	const (
		end = iota
		classify
		fix
		review
		answer
		escalate
	)
	done := ctx.Done()
	for step := classify; step != end; {
		if canceled(done) {
			return s, ctx.Err()
		}
		var u TriageUpdate
		var err error
		switch step {
		case classify:
			u, err = h.Classify(ctx, s)
		case fix:
			u, err = h.Fix(ctx, s)
		case review:
			u, err = h.Review(ctx, s)
		case answer:
			u, err = h.Answer(ctx, s)
		case escalate:
			u, err = h.Escalate(ctx, s)
		}
		if err != nil {
			return s, err
		}
		s.apply(&u)
		switch {
		case step == classify && s.Priority >= 4:
			step = escalate
		case step == classify && s.Category == "bug":
			step = fix
		case step == classify:
			step = answer
		case step == fix:
			step = review
		case step == review && s.Status == "fixed":
			step = answer
		case step == review:
			step = escalate
		default:
			step = end
		}
	}
	return s, nil
}

func ticket() TriageState { return TriageState{Title: "crash on start", Priority: 2} }

func TestTriageLoopsAgree(t *testing.T) {
	ctx := context.Background()
	got, err := NewTriage(desk{}).Run(ctx, ticket())
	if err != nil {
		t.Fatal(err)
	}
	want, err := handTriage(ctx, triageDesk, ticket())
	if err != nil {
		t.Fatal(err)
	}
	// classify, fix, review, answer
	if got != want || got.Steps != 4 || got.Status != "answered" {
		t.Fatalf("generated %+v, hand-written %+v", got, want)
	}
}

func TestTriageDoesNotAllocate(t *testing.T) {
	w := NewTriage(desk{})
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := w.Run(context.Background(), ticket()); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per run, want 0", allocs)
	}
}

// BenchmarkTriage runs the generated triage beside the hand-written one, in
// one run, so that benchstat compares them under the same load.
func BenchmarkTriage(b *testing.B) {
	ctx := context.Background()
	b.Run("generated", func(b *testing.B) {
		w := NewTriage(desk{})
		b.ReportAllocs()
		for b.Loop() {
			if _, err := w.Run(ctx, ticket()); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("handwritten", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := handTriage(ctx, triageDesk, ticket()); err != nil {
				b.Fatal(err)
			}
		}
	})
}
