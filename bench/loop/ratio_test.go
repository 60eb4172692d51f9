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
	anchor, anchorInto, loop, triage := NewAnchor(count{}), NewAnchor(countInto{}), NewLoop(counter{}), NewTriage(desk{})
	s := new(AnchorState)
	loops := []struct {
		name string
		per  float64 // transitions, or runs for the triage
		run  func()
	}{
		{"anchor-generated", anchorTransitions, func() { anchor.Run(ctx, anchorState()) }},
		{"anchor-byvalue", anchorTransitions, func() { byValue(ctx, byValueCount, anchorState()) }},
		{"anchor-generated-into", anchorTransitions, func() { anchorInto.Run(ctx, anchorState()) }},
		{"anchor-into", anchorTransitions, func() { into(ctx, intoCount, anchorState()) }},
		{"anchor-inplace", anchorTransitions, func() { *s = anchorState(); inPlace(ctx, inPlaceCount, s) }},
		{"loop-generated", transitions, func() { loop.Run(ctx, LoopState{Limit: limit}) }},
		{"loop-handwritten", transitions, func() { handWritten(ctx, loopCounter, LoopState{Limit: limit}) }},
		{"triage-generated", 1, func() { triage.Run(ctx, ticket()) }},
		{"triage-handwritten", 1, func() { handTriage(ctx, triageDesk, ticket()) }},
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
