package impl_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// events records what an observer is told, in order, as "start what" and
// "end what: error name".
type events struct {
	mu   sync.Mutex
	list []string
}

func (e *events) add(s string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.list = append(e.list, s)
}

func (e *events) start(ctx context.Context, what string) (context.Context, func(error)) {
	e.add("start " + what)
	return ctx, func(err error) { e.add("end " + what + ": " + impl.ErrorName(err)) }
}

func (e *events) Run(ctx context.Context, w string) (context.Context, func(error)) {
	return e.start(ctx, "run "+w)
}

func (e *events) State(ctx context.Context, s string) (context.Context, func(error)) {
	return e.start(ctx, "state "+s)
}

func (e *events) Attempt(ctx context.Context, s string, n int) (context.Context, func(error)) {
	return e.start(ctx, fmt.Sprintf("attempt %s %d", s, n))
}

func (e *events) Item(ctx context.Context, s string, i, n int) (context.Context, func(error)) {
	return e.start(ctx, fmt.Sprintf("item %s %d/%d", s, i, n))
}

// Call numbers the attempts of a retried handler from 1, each ending with
// its error's name.
func TestCallObservesAttempts(t *testing.T) {
	ev := &events{}
	cfg := impl.NewConfig(impl.WithObserver(ev), impl.WithClock(impl.NewFakeClock(time.Unix(0, 0))))
	p := &impl.Policy{State: "s", Retry: []impl.Retrier{{Errors: []string{"Busy"}, MaxAttempts: 3}}}
	calls := 0
	err := impl.Call(context.Background(), &cfg, p, func(context.Context) error {
		if calls++; calls < 3 {
			return impl.NewError("Busy", "")
		}
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, []string{"start attempt s 1", "end attempt s 1: Busy", "start attempt s 2", "end attempt s 2: Busy",
		"start attempt s 3", "end attempt s 3: "}, ev.list)
}

// FanOut finds the observer in the context of the run; a panicking item
// ends as TaskFailed. In order (limit 1) the items follow each other.
func TestFanOutObservesItems(t *testing.T) {
	ev := &events{}
	cfg := impl.NewConfig(impl.WithObserver(ev))
	ctx, end := impl.ObserveRun(context.Background(), &cfg, "W")
	err := impl.FanOut(ctx, "fan", 2, 1, func(_ context.Context, i int) error {
		if i == 1 {
			panic("boom")
		}
		return nil
	})
	end(err)
	assert.Equal(t, "TaskFailed", impl.ErrorName(err))
	assert.Equal(t, []string{"start run W", "start item fan 0/2", "end item fan 0/2: ", "start item fan 1/2",
		"end item fan 1/2: TaskFailed", "end run W: TaskFailed"}, ev.list)
}

// The loops of a run's branches call ObserveRun again with the run's
// context: that is no new run. Another workflow's run inside it is one.
func TestObserveRunNests(t *testing.T) {
	ev := &events{}
	cfg, other := impl.NewConfig(impl.WithObserver(ev)), impl.NewConfig(impl.WithObserver(ev))
	ctx, end := impl.ObserveRun(context.Background(), &cfg, "W")
	inner, none := impl.ObserveRun(ctx, &cfg, "W")
	assert.Nil(t, none)
	assert.Equal(t, ctx, inner)
	_, sub := impl.ObserveRun(ctx, &other, "Sub")
	sub(nil)
	end(nil)
	assert.Equal(t, []string{"start run W", "start run Sub", "end run Sub: ", "end run W: "}, ev.list)
}

// Without an observer FanOut and Call observe nothing and still work.
func TestNoObserver(t *testing.T) {
	cfg := impl.NewConfig()
	require.NoError(t, impl.Call(context.Background(), &cfg, &impl.Policy{State: "s"}, func(context.Context) error { return nil }))
	require.NoError(t, impl.FanOut(context.Background(), "fan", 3, 2, func(context.Context, int) error { return nil }))
}
