package loop

import (
	"context"
	"errors"
	"testing"
)

func TestLoopsAgree(t *testing.T) {
	ctx := context.Background()
	got, err := NewLoop(Counter{}).Run(ctx, LoopState{Limit: LoopLimit})
	want, err2 := HandLoop(ctx, loopCounter, LoopState{Limit: LoopLimit})
	if err := errors.Join(err, err2); err != nil {
		t.Fatal(err)
	}
	if got != want || got.N != LoopLimit {
		t.Fatalf("generated %+v, hand-written %+v", got, want)
	}
}

func TestGeneratedLoopDoesNotAllocate(t *testing.T) {
	w := NewLoop(Counter{})
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := w.Run(context.Background(), LoopState{Limit: LoopLimit}); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per run of %d LoopTransitions, want 0", allocs, LoopTransitions)
	}
}

func BenchmarkLoop(b *testing.B) {
	ctx := context.Background()
	b.Run("generated", func(b *testing.B) {
		w := NewLoop(Counter{})
		b.ReportAllocs()
		for b.Loop() {
			if _, err := w.Run(ctx, LoopState{Limit: LoopLimit}); err != nil {
				b.Fatal(err)
			}
		}
		reportPerTransition(b)
	})
	b.Run("handwritten", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := HandLoop(ctx, loopCounter, LoopState{Limit: LoopLimit}); err != nil {
				b.Fatal(err)
			}
		}
		reportPerTransition(b)
	})
}

func reportPerTransition(b *testing.B) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/LoopTransitions, "ns/transition")
}
