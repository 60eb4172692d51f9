package asl

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

// jsonataMapInput is the items of jsonatamap.asl.json: 1 to 200.
func jsonataMapInput() any {
	xs := make([]any, 200)
	for i := range xs {
		xs[i] = float64(i + 1)
	}
	return map[string]any{"xs": xs}
}

// TestJSONataMap checks what BenchmarkJSONataMap measures: every item's sum
// of (v * item) mod 7 over v in 1..400, added up.
func TestJSONataMap(t *testing.T) {
	want := 0.0
	for item := 1; item <= 200; item++ {
		for v := 1; v <= 400; v++ {
			want += float64(v * item % 7)
		}
	}
	out, err := NewJsonatamap(nil).Run(context.Background(), jsonataMapInput())
	require.NoError(t, err)
	require.Equal(t, want, out)
}

// BenchmarkJSONataMap runs 200 JSONata evaluations through a Map of
// concurrency 40. Evaluations share no lock, so `-cpu 1,2` shows how they
// scale with cores (docs/benchmarks.md has the figures).
func BenchmarkJSONataMap(b *testing.B) {
	w := NewJsonatamap(nil)
	in := jsonataMapInput()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := w.Run(context.Background(), in); err != nil {
			b.Fatal(err)
		}
	}
}
