package impl

import (
	"context"
	"time"
)

// Engine runs, on a workflow engine other than this process (Temporal), the
// parts of a run that this runtime would otherwise run with goroutines and
// timers of its own: fan-outs and the timeouts of handler calls. Generated
// code does not change; the engine is found in the context of the run.
type Engine interface {
	// FanOut is FanOut on the engine: the same bound, first failure
	// cancels the others, and no work outlives it.
	FanOut(ctx context.Context, state string, n, limit int, work func(ctx context.Context, i int) error) error
	// Attempt makes one handler call under timeout d, reporting an
	// overrun as an error wrapping ErrStateTimeout.
	Attempt(ctx context.Context, d time.Duration, call func(ctx context.Context) error) error
	// Retry runs attempt under the retry rules of p, when the engine can
	// retry it itself exactly as Call would (see EngineRetrier); handled
	// false leaves the rules to Call's loop.
	Retry(ctx context.Context, p *Policy, attempt func(ctx context.Context) error) (handled bool, err error)
}

type engineKey struct{}

// WithEngine returns a copy of ctx whose runs use e.
func WithEngine(ctx context.Context, e Engine) context.Context {
	return context.WithValue(ctx, engineKey{}, e)
}

// EngineOf returns the engine of ctx, or nil for this process.
func EngineOf(ctx context.Context) Engine {
	e, _ := ctx.Value(engineKey{}).(Engine)
	return e
}
