package loop

import (
	"context"
	"errors"
	"testing"
)

// counter is the trivial handlers both loops call.
type counter struct{}

func (counter) Tick(context.Context, LoopState) (LoopUpdate, error) {
	return LoopUpdate{}.WithN(1), nil
}
func (counter) Tock(context.Context, LoopState) (LoopUpdate, error) { return LoopUpdate{}, nil }

// loopCounter is held in a variable, as the generated workflow holds its
// handlers, so that the compiler cannot inline the calls away.
var loopCounter LoopHandlers = counter{}

// handWritten is the loop a person would write for the same workflow: a
// switch over the state, the same handlers, every update folded through the
// same reducers (apply), the same condition, and the generated loop's
// context check between states (canceled); nothing more.
func handWritten(ctx context.Context, h LoopHandlers, s LoopState) (LoopState, error) {
	const (
		end = iota
		tick
		tock
	)
	done := ctx.Done()
	for step := tick; step != end; {
		if canceled(done) {
			return s, ctx.Err()
		}
		switch step {
		case tick:
			u, err := h.Tick(ctx, s)
			if err != nil {
				return s, err
			}
			s.apply(&u)
			step = tock
			if s.N >= s.Limit {
				step = end
			}
		case tock:
			u, err := h.Tock(ctx, s)
			if err != nil {
				return s, err
			}
			s.apply(&u)
			step = tick
		}
	}
	return s, nil
}

const limit = 1000

// transitions per run: limit ticks, limit-1 tocks.
const transitions = 2*limit - 1

func TestLoopsAgree(t *testing.T) {
	ctx := context.Background()
	got, err := NewLoop(counter{}).Run(ctx, LoopState{Limit: limit})
	want, err2 := handWritten(ctx, loopCounter, LoopState{Limit: limit})
	if err := errors.Join(err, err2); err != nil {
		t.Fatal(err)
	}
	if got != want || got.N != limit {
		t.Fatalf("generated %+v, hand-written %+v", got, want)
	}
}

func TestGeneratedLoopDoesNotAllocate(t *testing.T) {
	w := NewLoop(counter{})
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := w.Run(context.Background(), LoopState{Limit: limit}); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per run of %d transitions, want 0", allocs, transitions)
	}
}

func BenchmarkLoop(b *testing.B) {
	ctx := context.Background()
	b.Run("generated", func(b *testing.B) {
		w := NewLoop(counter{})
		b.ReportAllocs()
		for b.Loop() {
			if _, err := w.Run(ctx, LoopState{Limit: limit}); err != nil {
				b.Fatal(err)
			}
		}
		reportPerTransition(b)
	})
	b.Run("handwritten", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := handWritten(ctx, loopCounter, LoopState{Limit: limit}); err != nil {
				b.Fatal(err)
			}
		}
		reportPerTransition(b)
	})
}

func reportPerTransition(b *testing.B) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/transitions, "ns/transition")
}
