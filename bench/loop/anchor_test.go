package loop

import (
	"context"
	"testing"
)

// anchorStates is the length of the anchor's loop; a run goes round it ten
// times, one transition per state.
const (
	anchorStates      = 102
	anchorTransitions = 10 * anchorStates
)

// count is the generated workflow's only handler: it adds one to n.
type count struct{}

func (count) Count(context.Context, AnchorState) (AnchorUpdate, error) {
	return AnchorUpdate{}.WithN(1), nil
}

// countInto also has the in-place form of the handler, which the
// generated loop calls instead.
type countInto struct{ count }

func (countInto) CountInto(_ context.Context, _ AnchorState, u *AnchorUpdate) error {
	u.SetN(1)
	return nil
}

// inPlaceHandlers is what a person writing the loop by hand would pass: a
// handler that changes the state in place.
type inPlaceHandlers interface {
	Count(ctx context.Context, s *AnchorState) error
}

type countInPlace struct{}

// inPlaceCount is held in a variable, as the generated workflow holds its
// handlers, so that the compiler cannot inline the call away.
var inPlaceCount inPlaceHandlers = countInPlace{}

func (countInPlace) Count(_ context.Context, s *AnchorState) error {
	s.N++
	return nil
}

// inPlace is the anchor's loop written by hand: the same states, the same
// handler call and context check per state, the same test at the end.
func inPlace(ctx context.Context, h inPlaceHandlers, s *AnchorState) error {
	for step := 0; step >= 0; step = anchorNext(step, s) {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := h.Count(ctx, s); err != nil {
			return err
		}
	}
	return nil
}

// anchorNext is the anchor's transition written by hand: the next state,
// or -1 when the run ends.
func anchorNext(step int, s *AnchorState) int {
	switch {
	case step < anchorStates-1:
		return step + 1
	case s.N >= anchorTransitions:
		return -1
	}
	return 0
}

// anchorTags is shared so that making a state does not allocate.
var anchorTags = []string{"a", "b"}

// byValue is the anchor's loop written by hand over the generated
// handlers: the state goes in by value and an update comes back, as in the
// generated loop, which it measures the generated loop's own overhead
// against.
func byValue(ctx context.Context, h AnchorHandlers, s *AnchorState) error {
	for step := 0; step >= 0; step = anchorNext(step, s) {
		if err := ctx.Err(); err != nil {
			return err
		}
		u, err := h.Count(ctx, *s)
		if err != nil {
			return err
		}
		s.apply(&u)
	}
	return nil
}

// byValueCount is the generated handler, held in a variable for the same
// reason as inPlaceCount.
var byValueCount AnchorHandlers = count{}

func anchorState() AnchorState {
	return AnchorState{Score: 0.5, Note: "anchor", Tags: anchorTags}
}

func TestAnchorLoopsAgree(t *testing.T) {
	ctx := context.Background()
	got, err := NewAnchor(count{}).Run(ctx, anchorState())
	if err != nil {
		t.Fatal(err)
	}
	want := anchorState()
	if err := inPlace(ctx, inPlaceCount, &want); err != nil {
		t.Fatal(err)
	}
	if got.N != anchorTransitions || got.N != want.N || got.Note != want.Note || len(got.Tags) != 2 {
		t.Fatalf("generated %+v, hand-written %+v", got, want)
	}
}

func TestAnchorIntoAgrees(t *testing.T) {
	got, err := NewAnchor(countInto{}).Run(context.Background(), anchorState())
	if err != nil {
		t.Fatal(err)
	}
	if got.N != anchorTransitions || got.Note != "anchor" || len(got.Tags) != 2 {
		t.Fatalf("in place: %+v", got)
	}
}

func TestAnchorDoesNotAllocate(t *testing.T) {
	// The in-place handlers get one update buffer per run, whatever its length.
	for h, want := range map[AnchorHandlers]float64{count{}: 0, countInto{}: 1} {
		w := NewAnchor(h)
		allocs := testing.AllocsPerRun(100, func() {
			if _, err := w.Run(context.Background(), anchorState()); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != want {
			t.Fatalf("%T: %v allocations per run of %d transitions, want %v", h, allocs, anchorTransitions, want)
		}
	}
}

// BenchmarkAnchor runs the generated loop beside two hand-written ones, in
// one run, so that benchstat compares them under the same load: byvalue
// calls the same handlers the same way, inplace changes the state in place.
func BenchmarkAnchor(b *testing.B) {
	ctx := context.Background()
	b.Run("generated", func(b *testing.B) {
		w := NewAnchor(count{})
		b.ReportAllocs()
		for b.Loop() {
			if _, err := w.Run(ctx, anchorState()); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/anchorTransitions, "ns/transition")
	})
	b.Run("generated-into", func(b *testing.B) {
		w := NewAnchor(countInto{})
		b.ReportAllocs()
		for b.Loop() {
			if _, err := w.Run(ctx, anchorState()); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/anchorTransitions, "ns/transition")
	})
	b.Run("byvalue", func(b *testing.B) {
		s := new(AnchorState)
		b.ReportAllocs()
		for b.Loop() {
			*s = anchorState()
			if err := byValue(ctx, byValueCount, s); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/anchorTransitions, "ns/transition")
	})
	b.Run("inplace", func(b *testing.B) {
		s := new(AnchorState) // one state for every run: the handler's pointer makes it escape
		b.ReportAllocs()
		for b.Loop() {
			*s = anchorState()
			if err := inPlace(ctx, inPlaceCount, s); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/anchorTransitions, "ns/transition")
	})
}
