package impl_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// recordingEngine runs fan-outs in order and attempts without a timer,
// and records what it was asked.
type recordingEngine struct {
	fanOuts  []string
	timeouts []time.Duration
	retries  []string // the states whose rules it took
}

func (e *recordingEngine) FanOut(ctx context.Context, state string, n, limit int, work func(context.Context, int) error) error {
	e.fanOuts = append(e.fanOuts, state)
	for i := range n {
		if err := work(ctx, i); err != nil {
			return err
		}
	}
	return nil
}

func (e *recordingEngine) Attempt(ctx context.Context, d time.Duration, call func(context.Context) error) error {
	e.timeouts = append(e.timeouts, d)
	return call(ctx)
}

// Retry takes the rules an engine may run as its own, making one attempt.
func (e *recordingEngine) Retry(ctx context.Context, p *impl.Policy, attempt func(context.Context) error) (bool, error) {
	if _, ok := p.EngineRetrier(); !ok {
		return false, nil
	}
	e.retries = append(e.retries, p.State)
	return true, attempt(ctx)
}

// An engine in the context takes the fan-outs and the timed attempts: the
// runtime starts no goroutine and no timer of its own for them.
func TestEngineTakesFanOutsAndTimeouts(t *testing.T) {
	e := &recordingEngine{}
	ctx := impl.WithEngine(context.Background(), e)
	var order []int
	err := impl.FanOut(ctx, "split", 3, 0, func(_ context.Context, i int) error {
		order = append(order, i) // no lock: the engine runs the items one by one
		return nil
	})
	if err != nil || len(order) != 3 || len(e.fanOuts) != 1 || e.fanOuts[0] != "split" {
		t.Errorf("fan-out: err %v, items %v, engine saw %v", err, order, e.fanOuts)
	}
	cfg := impl.NewConfig()
	p := &impl.Policy{State: "slow", Timeout: time.Minute}
	boom := errors.New("boom")
	err = impl.Call(ctx, &cfg, p, func(ctx context.Context) error {
		if _, ok := ctx.Deadline(); ok {
			t.Error("the runtime set a deadline of its own")
		}
		return boom
	})
	if !errors.Is(err, boom) || len(e.timeouts) != 1 || e.timeouts[0] != time.Minute {
		t.Errorf("attempt: err %v, engine saw timeouts %v", err, e.timeouts)
	}
}

// A rule that matches every error with a plain backoff is the engine's to
// retry; the others stay with Call's loop.
func TestEngineTakesRetriesThatMapExactly(t *testing.T) {
	all := impl.Retrier{Errors: []string{"ALL"}, MaxAttempts: 3, Interval: time.Second, BackoffRate: 2}
	for _, c := range []struct {
		name   string
		rules  []impl.Retrier
		engine bool
	}{
		{"all errors", []impl.Retrier{all}, true},
		{"some errors", []impl.Retrier{{Errors: []string{"Flaky"}, MaxAttempts: 3, Interval: time.Second}}, false},
		{"two rules", []impl.Retrier{all, all}, false},
		{"jitter", []impl.Retrier{{Errors: []string{"ALL"}, MaxAttempts: 3, Interval: time.Second, Jitter: true}}, false},
		{"no interval", []impl.Retrier{{Errors: []string{"ALL"}, MaxAttempts: 3}}, false},
		{"shrinking", []impl.Retrier{{Errors: []string{"ALL"}, MaxAttempts: 3, Interval: time.Second, BackoffRate: 0.5}}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := &recordingEngine{}
			ctx := impl.WithEngine(context.Background(), e)
			cfg := impl.NewConfig(impl.WithClock(impl.NewFakeClock(time.Unix(0, 0))))
			calls := 0
			err := impl.Call(ctx, &cfg, &impl.Policy{State: "s", Retry: c.rules}, func(context.Context) error {
				calls++
				return &impl.Error{Name: "Flaky"}
			})
			if impl.ErrorName(err) != "Flaky" {
				t.Errorf("err %v", err)
			}
			if want := map[bool]int{true: 1, false: 3}[c.engine]; calls != want || (len(e.retries) == 1) != c.engine {
				t.Errorf("%d calls, engine took %v; want %d calls, taken by the engine: %v", calls, e.retries, want, c.engine)
			}
		})
	}
}
