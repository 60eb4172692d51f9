package distributed

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// scorer scores each line and counts the results written.
type scorer struct{ written, failed atomic.Int64 }

func (s *scorer) Score(_ context.Context, in any) (any, error) {
	n := in.(map[string]any)["n"].(float64)
	return map[string]any{"n": n, "score": float64(int(n) % 7)}, nil
}

func (s *scorer) WriteResult(_ context.Context, _ flowcrt.ResultWriteRequest, r flowcrt.ChildResult) error {
	s.written.Add(1)
	if r.Error != "" {
		s.failed.Add(1)
	}
	return nil
}

// items writes a JSONL file of n items to a new directory.
func items(t testing.TB, n int) string {
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "items.jsonl"))
	require.NoError(t, err)
	w := bufio.NewWriter(f)
	for i := range n {
		fmt.Fprintf(w, `{"n":%d,"name":"item-%d"}`+"\n", i, i)
	}
	require.NoError(t, w.Flush())
	require.NoError(t, f.Close())
	return dir
}

// peakHeap runs f while sampling the heap in use, and returns the largest
// sample.
func peakHeap(f func()) uint64 {
	runtime.GC()
	var peak atomic.Uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapInuse > peak.Load() {
				peak.Store(m.HeapInuse)
			}
			select {
			case <-done:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	})
	f()
	close(done)
	wg.Wait()
	return peak.Load()
}

func run(t testing.TB, dir string) *scorer {
	s := &scorer{}
	out, err := NewDistributed(s).Run(context.Background(), map[string]any{"dir": dir})
	require.NoError(t, err)
	require.NotNil(t, out)
	return s
}

// A million items need no more memory than a hundred thousand: the reader
// streams them and the writer takes each result as it comes.
func TestMemoryFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("a million items")
	}
	small, large := items(t, 100_000), items(t, 1_000_000)
	var s *scorer
	smallPeak := peakHeap(func() { s = run(t, small) })
	assert.Equal(t, int64(100_000), s.written.Load())
	largePeak := peakHeap(func() { s = run(t, large) })
	assert.Equal(t, int64(1_000_000), s.written.Load())
	assert.Zero(t, s.failed.Load())
	t.Logf("peak heap in use: %.1f MB for 100,000 items, %.1f MB for 1,000,000", mb(smallPeak), mb(largePeak))
	assert.Less(t, largePeak, 2*smallPeak+8<<20, "memory grows with the number of items")
}

func mb(b uint64) float64 { return float64(b) / (1 << 20) }

func BenchmarkDistributedMap(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("items=%d", n), func(b *testing.B) {
			dir := items(b, n)
			b.ResetTimer()
			var peak uint64
			for b.Loop() {
				peak = max(peak, peakHeap(func() { run(b, dir) }))
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "items/s")
			b.ReportMetric(mb(peak), "peak-heap-MB")
		})
	}
}
