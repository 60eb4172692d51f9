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

// The hand-written loops below do the work of the generated run and
// nothing else: the same handlers, each update folded through the same
// reducers (apply), the same condition (anchorNext) and the same context
// check between states (canceled). The generated run also defers one
// recover per run, which costs nothing measurable per transition. inPlace
// is the exception: its handler changes the state itself, with no update
// and no reducer, the least a loop can do.

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

// The handlers are held in variables, as the generated workflow holds
// them, so that the compiler cannot inline the calls away.
var (
	byValueCount AnchorHandlers     = count{}
	intoCount    AnchorHandlersInto = countInto{}
	inPlaceCount inPlaceHandlers    = countInPlace{}
)

// byValue is the anchor's loop written by hand over the generated
// handlers: the state goes in by value and an update comes back.
func byValue(ctx context.Context, h AnchorHandlers, s AnchorState) (AnchorState, error) {
	done := ctx.Done()
	for step := 0; step >= 0; step = anchorNext(step, &s) {
		if canceled(done) {
			return s, ctx.Err()
		}
		u, err := h.Count(ctx, s)
		if err != nil {
			return s, err
		}
		s.apply(&u)
	}
	return s, nil
}

// into is the anchor's loop written by hand over the in-place form of the
// handlers: each writes its update into u, which the loop folds into the
// state and then empties, as the generated loop does.
func into(ctx context.Context, h AnchorHandlersInto, s AnchorState) (AnchorState, error) {
	done := ctx.Done()
	u := new(AnchorUpdate)
	for step := 0; step >= 0; step = anchorNext(step, &s) {
		if canceled(done) {
			return s, ctx.Err()
		}
		if err := h.CountInto(ctx, s, u); err != nil {
			return s, err
		}
		s.apply(u)
		*u = AnchorUpdate{}
	}
	return s, nil
}

// inPlaceHandlers is what a person writing the loop by hand with no
// update type would pass: a handler that changes the state in place.
type inPlaceHandlers interface {
	Count(ctx context.Context, s *AnchorState) error
}

type countInPlace struct{}

func (countInPlace) Count(_ context.Context, s *AnchorState) error {
	s.N++
	return nil
}

// inPlace is the anchor's loop with such a handler: the same states, the
// same context check and the same test at the end.
func inPlace(ctx context.Context, h inPlaceHandlers, s *AnchorState) error {
	done := ctx.Done()
	for step := 0; step >= 0; step = anchorNext(step, s) {
		if canceled(done) {
			return ctx.Err()
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

// canceled is the generated loop's context check between states: a
// receive from the context's channel that does not block, none when the
// context cannot be canceled (its channel is nil).
func canceled(done <-chan struct{}) bool {
	if done == nil {
		return false
	}
	select {
	case <-done:
		return true
	default:
		return false
	}
}

// anchorTags is shared so that making a state does not allocate.
var anchorTags = []string{"a", "b"}

func anchorState() AnchorState {
	return AnchorState{Score: 0.5, Note: "anchor", Tags: anchorTags}
}

func TestAnchorLoopsAgree(t *testing.T) {
	ctx := context.Background()
	for _, h := range []AnchorHandlers{count{}, countInto{}} {
		got, err := NewAnchor(h).Run(ctx, anchorState())
		if err != nil {
			t.Fatal(err)
		}
		if got.N != anchorTransitions || got.Note != "anchor" || len(got.Tags) != 2 {
			t.Fatalf("generated over %T: %+v", h, got)
		}
	}
	viaValue, err := byValue(ctx, byValueCount, anchorState())
	if err != nil {
		t.Fatal(err)
	}
	viaInto, err := into(ctx, intoCount, anchorState())
	if err != nil {
		t.Fatal(err)
	}
	changed := anchorState()
	if err := inPlace(ctx, inPlaceCount, &changed); err != nil {
		t.Fatal(err)
	}
	for _, s := range []AnchorState{viaValue, viaInto, changed} {
		if s.N != anchorTransitions || s.Note != "anchor" || len(s.Tags) != 2 {
			t.Fatalf("hand-written: %+v", s)
		}
	}
}

// A canceled context stops the generated loop between states whichever
// form its handlers take, as it stops the hand-written ones.
func TestAnchorCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, h := range []AnchorHandlers{count{}, countInto{}} {
		got, err := NewAnchor(h).Run(ctx, anchorState())
		if err != context.Canceled || got.N != 0 {
			t.Fatalf("%T: %+v, %v; want no transition and context.Canceled", h, got, err)
		}
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

// BenchmarkAnchor runs the generated loop beside the hand-written ones, in
// one run, so that benchstat compares them under the same load: generated
// against byvalue, generated-into against into, and both against inplace.
func BenchmarkAnchor(b *testing.B) {
	ctx := context.Background()
	generated, generatedInto := NewAnchor(count{}), NewAnchor(countInto{})
	s := new(AnchorState) // one state for every run: the handler's pointer makes it escape
	loops := []struct {
		name string
		run  func() error
	}{
		{"generated", func() error { _, err := generated.Run(ctx, anchorState()); return err }},
		{"generated-into", func() error { _, err := generatedInto.Run(ctx, anchorState()); return err }},
		{"byvalue", func() error { _, err := byValue(ctx, byValueCount, anchorState()); return err }},
		{"into", func() error { _, err := into(ctx, intoCount, anchorState()); return err }},
		{"inplace", func() error { *s = anchorState(); return inPlace(ctx, inPlaceCount, s) }},
	}
	for _, l := range loops {
		b.Run(l.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := l.run(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/anchorTransitions, "ns/transition")
		})
	}
}
