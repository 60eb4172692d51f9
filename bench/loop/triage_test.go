package loop

import (
	"context"
	"testing"
)

func TestTriageLoopsAgree(t *testing.T) {
	ctx := context.Background()
	got, err := NewTriage(Desk{}).Run(ctx, Ticket())
	if err != nil {
		t.Fatal(err)
	}
	want, err := HandTriage(ctx, triageDesk, Ticket())
	if err != nil {
		t.Fatal(err)
	}
	// classify, fix, review, answer
	if got != want || got.Steps != 4 || got.Status != "answered" {
		t.Fatalf("generated %+v, hand-written %+v", got, want)
	}
}

func TestTriageDoesNotAllocate(t *testing.T) {
	w := NewTriage(Desk{})
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := w.Run(context.Background(), Ticket()); err != nil {
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
		w := NewTriage(Desk{})
		b.ReportAllocs()
		for b.Loop() {
			if _, err := w.Run(ctx, Ticket()); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("handwritten", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := HandTriage(ctx, triageDesk, Ticket()); err != nil {
				b.Fatal(err)
			}
		}
	})
}
