package runtime_test

import (
	"context"
	"errors"
	"testing"
	"time"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// recordingEngine runs fan-outs in order and attempts without a timer,
// and records what it was asked.
type recordingEngine struct {
	fanOuts  []string
	timeouts []time.Duration
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

// An engine in the context takes the fan-outs and the timed attempts: the
// runtime starts no goroutine and no timer of its own for them.
func TestEngineTakesFanOutsAndTimeouts(t *testing.T) {
	e := &recordingEngine{}
	ctx := flowcrt.WithEngine(context.Background(), e)
	var order []int
	err := flowcrt.FanOut(ctx, "split", 3, 0, func(_ context.Context, i int) error {
		order = append(order, i) // no lock: the engine runs the items one by one
		return nil
	})
	if err != nil || len(order) != 3 || len(e.fanOuts) != 1 || e.fanOuts[0] != "split" {
		t.Errorf("fan-out: err %v, items %v, engine saw %v", err, order, e.fanOuts)
	}
	cfg := flowcrt.NewConfig()
	p := &flowcrt.Policy{State: "slow", Timeout: time.Minute}
	boom := errors.New("boom")
	err = flowcrt.Call(ctx, &cfg, p, func(ctx context.Context) error {
		if _, ok := ctx.Deadline(); ok {
			t.Error("the runtime set a deadline of its own")
		}
		return boom
	})
	if !errors.Is(err, boom) || len(e.timeouts) != 1 || e.timeouts[0] != time.Minute {
		t.Errorf("attempt: err %v, engine saw timeouts %v", err, e.timeouts)
	}
}
