package loop

import (
	"context"
	"math"
	"testing"
	"time"
)

// BenchmarkRatios measures each generated run against its hand-written twin
// on a busy machine: every iteration runs one batch of each loop in turn,
// and the fastest batch of each stands for its cost, since neighbours only
// ever add time. It reports those costs and the ratios, generated over
// hand-written (benchmarks.md, "Cost of a transition").
func BenchmarkRatios(b *testing.B) {
	ctx := context.Background()
	anchor, anchorInto, loop, triage := NewAnchor(AnchorCount{}), NewAnchor(countInto{}), NewLoop(Counter{}), NewTriage(Desk{})
	s := new(AnchorState)
	loops := []struct {
		name string
		per  float64 // transitions, or runs for the triage
		run  func()
	}{
		{"anchor-generated", AnchorTransitions, func() { anchor.Run(ctx, AnchorStart()) }},
		{"anchor-byvalue", AnchorTransitions, func() { HandAnchor(ctx, byValueCount, AnchorStart()) }},
		{"anchor-generated-into", AnchorTransitions, func() { anchorInto.Run(ctx, AnchorStart()) }},
		{"anchor-into", AnchorTransitions, func() { into(ctx, intoCount, AnchorStart()) }},
		{"anchor-inplace", AnchorTransitions, func() { *s = AnchorStart(); inPlace(ctx, inPlaceCount, s) }},
		{"loop-generated", LoopTransitions, func() { loop.Run(ctx, LoopState{Limit: LoopLimit}) }},
		{"loop-handwritten", LoopTransitions, func() { HandLoop(ctx, loopCounter, LoopState{Limit: LoopLimit}) }},
		{"triage-generated", 1, func() { triage.Run(ctx, Ticket()) }},
		{"triage-handwritten", 1, func() { HandTriage(ctx, triageDesk, Ticket()) }},
	}
	const batch = 1 << 16 // transitions or runs in a batch, about 0.1 to 2 ms
	best := make([]float64, len(loops))
	for i := range best {
		best[i] = math.Inf(1)
	}
	for b.Loop() {
		for i, l := range loops {
			n := int(batch / l.per)
			start := time.Now()
			for range n {
				l.run()
			}
			best[i] = min(best[i], float64(time.Since(start).Nanoseconds())/float64(n)/l.per)
		}
	}
	for i, l := range loops {
		b.ReportMetric(best[i], "ns/"+l.name)
	}
	ratio := func(unit string, g, h int) { b.ReportMetric(best[g]/best[h], unit) }
	ratio("x-anchor-generated/byvalue", 0, 1)
	ratio("x-anchor-generated-into/into", 2, 3)
	ratio("x-anchor-generated-into/inplace", 2, 4)
	ratio("x-loop-generated/handwritten", 5, 6)
	ratio("x-triage-generated/handwritten", 7, 8)
}
