package impl

import (
	"context"
	"math/rand/v2"
	"sync"
	"time"
)

// Config holds the run-time options of a generated workflow.
type Config struct {
	// Clock provides the time and the sleeps between retries.
	Clock Clock
	// StateContext makes the generated code tag the context of each handler
	// call with the id of the state (see WithState); mocks rely on it.
	StateContext bool
	// Rand returns a number in [0, 1) used to jitter retry delays, and by
	// the States Language's random functions (States.UUID, $random, ...).
	Rand func() float64
	// Checkpointer stores the checkpoints of sessions (see WithCheckpointer).
	Checkpointer Checkpointer
	// Memory keeps what States Language Memory blocks write (WithMemory).
	Memory MemoryStore
	// Observer watches the runs (WithObserver); nil: nothing does.
	Observer Observer
}

// Option changes a Config.
type Option func(*Config)

// NewConfig returns the Config built from the defaults and opts, applied in
// order.
func NewConfig(opts ...Option) Config {
	cfg := Config{Clock: SystemClock, Rand: rand.Float64}
	for _, opt := range opts {
		opt(&cfg)
	}
	recordHistory(&cfg)
	return cfg
}

// WithClock makes the workflow read the time and sleep through c.
func WithClock(c Clock) Option {
	return func(cfg *Config) { cfg.Clock = c }
}

// WithStateContext makes the generated code tag the context of each handler
// call with the state id, for handlers that must know which state calls them.
func WithStateContext() Option {
	return func(cfg *Config) { cfg.StateContext = true }
}

// WithRand sets the source of randomness for retry jitter; f must return a
// number in [0, 1).
func WithRand(f func() float64) Option {
	return func(cfg *Config) { cfg.Rand = f }
}

// RunClock is the clock of the run. RunClock and Random fall back to the
// defaults so that a Config literal, not only one from NewConfig, is
// usable, and so is none.
func (c *Config) RunClock() Clock {
	if c == nil || c.Clock == nil {
		return SystemClock
	}
	return c.Clock
}

// Now is the time by c's clock, for machinery outside this package (task
// chains' {{now}} macro).
func (c *Config) Now() time.Time { return c.RunClock().Now() }

// Random is a number in [0, 1) from the run's Rand.
func (c *Config) Random() float64 {
	if c == nil || c.Rand == nil {
		return rand.Float64()
	}
	return c.Rand()
}

// Clock is the time source of a workflow.
type Clock interface {
	Now() time.Time
	// Sleep waits for d, or returns ctx.Err() if ctx is done first.
	Sleep(ctx context.Context, d time.Duration) error
}

// realClock is the Clock of the operating system.
type realClock struct{}

// SystemClock is the default Clock.
var SystemClock = realClock{}

// Now returns time.Now().
func (realClock) Now() time.Time { return time.Now() }

// Sleep waits for d or until ctx is done. It stops its timer before
// returning, so nothing outlives the call.
func (realClock) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// FakeClock is a Clock for tests: its Sleep returns at once after moving
// the clock forward, and it remembers every sleep. It is safe for concurrent
// use.
type FakeClock struct {
	mu     sync.Mutex
	now    time.Time
	sleeps []time.Duration
}

// NewFakeClock returns a FakeClock whose time starts at start.
func NewFakeClock(start time.Time) *FakeClock {
	return &FakeClock{now: start}
}

// Now returns the current fake time.
func (c *FakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Sleep advances the clock by d and records d, unless ctx is already done,
// in which case it returns ctx.Err() and changes nothing.
func (c *FakeClock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	c.sleeps = append(c.sleeps, d)
	return nil
}

// Sleeps returns the durations of the sleeps so far, in order.
func (c *FakeClock) Sleeps() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.sleeps...)
}

type stateKey struct{}

// WithState returns a copy of ctx that carries the id of the running state.
func WithState(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, stateKey{}, id)
}

// StateFromContext returns the state id set by WithState, or "".
func StateFromContext(ctx context.Context) string {
	id, _ := ctx.Value(stateKey{}).(string)
	return id
}
