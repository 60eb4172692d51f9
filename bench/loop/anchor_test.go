package loop

import (
	"context"
	"testing"
)

func TestAnchorLoopsAgree(t *testing.T) {
	ctx := context.Background()
	for _, h := range []AnchorHandlers{AnchorCount{}, countInto{}} {
		got, err := NewAnchor(h).Run(ctx, AnchorStart())
		if err != nil {
			t.Fatal(err)
		}
		if got.N != AnchorTransitions || got.Note != "anchor" || len(got.Tags) != 2 {
			t.Fatalf("generated over %T: %+v", h, got)
		}
	}
	viaValue, err := HandAnchor(ctx, byValueCount, AnchorStart())
	if err != nil {
		t.Fatal(err)
	}
	viaInto, err := into(ctx, intoCount, AnchorStart())
	if err != nil {
		t.Fatal(err)
	}
	changed := AnchorStart()
	if err := inPlace(ctx, inPlaceCount, &changed); err != nil {
		t.Fatal(err)
	}
	for _, s := range []AnchorState{viaValue, viaInto, changed} {
		if s.N != AnchorTransitions || s.Note != "anchor" || len(s.Tags) != 2 {
			t.Fatalf("hand-written: %+v", s)
		}
	}
}

// A canceled context stops the generated loop between states whichever
// form its handlers take, as it stops the hand-written ones.
func TestAnchorCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, h := range []AnchorHandlers{AnchorCount{}, countInto{}} {
		got, err := NewAnchor(h).Run(ctx, AnchorStart())
		if err != context.Canceled || got.N != 0 {
			t.Fatalf("%T: %+v, %v; want no transition and context.Canceled", h, got, err)
		}
	}
}

func TestAnchorDoesNotAllocate(t *testing.T) {
	// The in-place handlers get one update buffer per run, whatever its length.
	for h, want := range map[AnchorHandlers]float64{AnchorCount{}: 0, countInto{}: 1} {
		w := NewAnchor(h)
		allocs := testing.AllocsPerRun(100, func() {
			if _, err := w.Run(context.Background(), AnchorStart()); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != want {
			t.Fatalf("%T: %v allocations per run of %d transitions, want %v", h, allocs, AnchorTransitions, want)
		}
	}
}

// BenchmarkAnchor runs the generated loop beside the hand-written ones, in
// one run, so that benchstat compares them under the same load: generated
// against byvalue, generated-into against into, and both against inplace.
func BenchmarkAnchor(b *testing.B) {
	ctx := context.Background()
	generated, generatedInto := NewAnchor(AnchorCount{}), NewAnchor(countInto{})
	s := new(AnchorState) // one state for every run: the handler's pointer makes it escape
	loops := []struct {
		name string
		run  func() error
	}{
		{"generated", func() error { _, err := generated.Run(ctx, AnchorStart()); return err }},
		{"generated-into", func() error { _, err := generatedInto.Run(ctx, AnchorStart()); return err }},
		{"byvalue", func() error { _, err := HandAnchor(ctx, byValueCount, AnchorStart()); return err }},
		{"into", func() error { _, err := into(ctx, intoCount, AnchorStart()); return err }},
		{"inplace", func() error { *s = AnchorStart(); return inPlace(ctx, inPlaceCount, s) }},
	}
	for _, l := range loops {
		b.Run(l.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := l.run(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/AnchorTransitions, "ns/transition")
		})
	}
}
