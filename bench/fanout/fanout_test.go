package fanout

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"golang.org/x/sync/errgroup"
)

// adder is the trivial handlers all the fan-outs call.
type adder struct{}

func (adder) Split(context.Context, FanoutState) (FanoutUpdate, error) { return FanoutUpdate{}, nil }

func (adder) Work(_ context.Context, _ FanoutState, item int) (FanoutUpdate, error) {
	return FanoutUpdate{}.WithTotal(item), nil
}

const (
	items = 10_000
	limit = 8
)

// The hand-written versions do what the generated region does, minus the
// copy of the state per item: call the handler for every item, at most
// limit at a time, keep each update, and fold them into the state in item
// order once all are done, failing on the first error.

// withErrgroup starts one goroutine per item, limit at a time.
func withErrgroup(ctx context.Context, h FanoutHandlers, s FanoutState) (FanoutState, error) {
	updates := make([]FanoutUpdate, len(s.Items))
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(limit)
	for i, item := range s.Items {
		g.Go(func() error {
			u, err := h.Work(ctx, s, item)
			updates[i] = u
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return s, err
	}
	for _, u := range updates {
		s.Total += u.v.Total
	}
	return s, nil
}

// withPool feeds item indexes to limit workers over a channel.
func withPool(ctx context.Context, h FanoutHandlers, s FanoutState) (FanoutState, error) {
	updates := make([]FanoutUpdate, len(s.Items))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan int)
	var (
		wg       sync.WaitGroup
		once     sync.Once
		firstErr error
	)
	for range limit {
		wg.Go(func() {
			for i := range jobs {
				u, err := h.Work(ctx, s, s.Items[i])
				if err != nil {
					once.Do(func() { firstErr = err; cancel() })
					continue
				}
				updates[i] = u
			}
		})
	}
feed:
	for i := range s.Items {
		select {
		case jobs <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	if firstErr != nil {
		return s, firstErr
	}
	for _, u := range updates {
		s.Total += u.v.Total
	}
	return s, ctx.Err()
}

// withAtomicPool has limit workers take the next item index from an
// atomic counter, as the generated region hands out items, so that the
// pool over a channel is not the only hand-written one compared.
func withAtomicPool(ctx context.Context, h FanoutHandlers, s FanoutState) (FanoutState, error) {
	updates := make([]FanoutUpdate, len(s.Items))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		next     atomic.Int64
		wg       sync.WaitGroup
		once     sync.Once
		firstErr error
	)
	for range limit {
		wg.Go(func() {
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= len(s.Items) {
					return
				}
				u, err := h.Work(ctx, s, s.Items[i])
				if err != nil {
					once.Do(func() { firstErr = err; cancel() })
					return
				}
				updates[i] = u
			}
		})
	}
	wg.Wait()
	if firstErr != nil {
		return s, firstErr
	}
	for _, u := range updates {
		s.Total += u.v.Total
	}
	return s, ctx.Err()
}

func input() FanoutState {
	s := FanoutState{Items: make([]int, items)}
	for i := range s.Items {
		s.Items[i] = i
	}
	return s
}

func TestFanOutsAgree(t *testing.T) {
	ctx := context.Background()
	want := items * (items - 1) / 2
	for name, run := range map[string]func(context.Context, FanoutHandlers, FanoutState) (FanoutState, error){
		"generated": func(ctx context.Context, h FanoutHandlers, s FanoutState) (FanoutState, error) {
			return NewFanout(h).Run(ctx, s)
		},
		"errgroup":    withErrgroup,
		"pool":        withPool,
		"atomic pool": withAtomicPool,
	} {
		out, err := run(ctx, adder{}, input())
		if err != nil || out.Total != want {
			t.Errorf("%s: total %d, error %v; want %d", name, out.Total, err, want)
		}
	}
}

// failing fails on one item, so every fan-out must stop and say so.
type failing struct{ adder }

var errItem = errors.New("item 5000 failed")

func (failing) Work(_ context.Context, _ FanoutState, item int) (FanoutUpdate, error) {
	if item == 5000 {
		return FanoutUpdate{}, errItem
	}
	return FanoutUpdate{}.WithTotal(item), nil
}

func TestHandWrittenFanOutsFail(t *testing.T) {
	for name, run := range map[string]func(context.Context, FanoutHandlers, FanoutState) (FanoutState, error){
		"errgroup": withErrgroup, "pool": withPool, "atomic pool": withAtomicPool,
	} {
		if _, err := run(context.Background(), failing{}, input()); !errors.Is(err, errItem) {
			t.Errorf("%s: error %v, want %v", name, err, errItem)
		}
	}
}

func BenchmarkFanOut(b *testing.B) {
	ctx := context.Background()
	in := input()
	b.Run("generated", func(b *testing.B) {
		w := NewFanout(adder{})
		measure(b, func() error { _, err := w.Run(ctx, in); return err })
	})
	b.Run("errgroup", func(b *testing.B) {
		measure(b, func() error { _, err := withErrgroup(ctx, adder{}, in); return err })
	})
	b.Run("pool", func(b *testing.B) {
		measure(b, func() error { _, err := withPool(ctx, adder{}, in); return err })
	})
	b.Run("atomic-pool", func(b *testing.B) {
		measure(b, func() error { _, err := withAtomicPool(ctx, adder{}, in); return err })
	})
}

// measure runs f in a benchmark loop and reports the time and allocations
// per item, the figures the fan-outs are compared by.
func measure(b *testing.B, f func() error) {
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for b.Loop() {
		if err := f(); err != nil {
			b.Fatal(err)
		}
	}
	runtime.ReadMemStats(&after)
	perItem := float64(b.N) * items
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/perItem, "ns/item")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/perItem, "allocs/item")
}
