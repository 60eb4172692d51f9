package impl

import "context"

// Observer watches runs as they happen: progress displays, structured logs
// and tracing implement it (see docs/observability.md). Each method is
// called when something starts, with the context it runs in, and returns
// the context the work runs in (ctx or one derived from it) and the
// function to call when it ends, with its error (nil on success; the name
// retry and catch rules see is ErrorName(err)). The end function may be nil.
//
// Work nests: a run holds state visits, a state holds the attempts of its
// handler and the items of its fan-out, an item holds the states of its
// branch or chain. The context a method receives descends from the one its
// parent's method returned, so that an observer can find its parent there
// even when items run concurrently; methods are therefore called from many
// goroutines at once.
//
// A state calls its handler through attempts when it has timeout or retry
// rules (every JSON mode, chain and States Language task does); a typed
// state without rules calls its handler once, inside its state visit.
type Observer interface {
	// Run starts a run of the workflow (its Go name), or a session's run.
	Run(ctx context.Context, workflow string) (context.Context, func(err error))
	// State starts a visit of the state with this id.
	State(ctx context.Context, state string) (context.Context, func(err error))
	// Attempt starts a call of the handler of state; attempt counts from 1.
	Attempt(ctx context.Context, state string, attempt int) (context.Context, func(err error))
	// Item starts item index (from 0) of the fan-out of state: a branch of
	// a parallel state or an item of a map. total is the number of items,
	// or -1 while it is unknown (a Distributed Map reads its items as it
	// goes).
	Item(ctx context.Context, state string, index, total int) (context.Context, func(err error))
}

// WithObserver makes the workflow report its runs to o; nil observes
// nothing. Without an observer a state pays two nil checks and allocates
// nothing for it.
func WithObserver(o Observer) Option {
	return func(cfg *Config) { cfg.Observer = o }
}

// observedRunKey marks the context of an observed run with the Config of
// its workflow, for the functions that have no Config (FanOut) and to tell
// a run from the loops of its branches and items.
type observedRunKey struct{}

// ObserveRun starts the observation of a run by cfg.Observer, which must
// not be nil; generated step loops call it. The loops of a run's branches
// and items call it too, with the context of the run: they are part of it,
// so it returns ctx and no end function for them.
func ObserveRun(ctx context.Context, cfg *Config, workflow string) (context.Context, func(err error)) {
	if ctx.Value(observedRunKey{}) == cfg {
		return ctx, nil
	}
	return cfg.Observer.Run(context.WithValue(ctx, observedRunKey{}, cfg), workflow)
}

// observerOf returns the observer of the run ctx belongs to, or nil.
func observerOf(ctx context.Context) Observer {
	if cfg, _ := ctx.Value(observedRunKey{}).(*Config); cfg != nil {
		return cfg.Observer
	}
	return nil
}

// observeAttempt makes attempt n of the handler of state, fn, under o.
func observeAttempt(ctx context.Context, o Observer, state string, n int, fn func(ctx context.Context) error) error {
	ctx, end := o.Attempt(ctx, state, n)
	err := fn(ctx)
	if end != nil {
		end(err)
	}
	return err
}

// StateData is implemented by observers that also take the data of
// states: a session's history records those of the states inside fan-outs
// (history.go), and a user's observer may take them too (flowcrt.StateData).
// An executor that knows its states' input and output as values JSON
// encodes (the States Language's, JSON mode's, typed fan-outs') checks for
// it and calls Entered when a state starts, with its input, and Succeeded
// when it ends well, with its output, both with the context the state's visit runs in; a run whose
// observer lacks it pays nothing. The executor marks the fan-outs whose
// states report so with ReportsData (ReportsRunData).
type StateData interface {
	Entered(ctx context.Context, input any)
	Succeeded(ctx context.Context, output any)
}

type reportsDataKey struct{}

// ReportsData returns the context a fan-out of cfg's workflow runs its
// items in when its executor reports their states' data (StateData): an
// observer then waits for Entered to record a visit, rather than recording
// it with no input.
func ReportsData(ctx context.Context, cfg *Config) context.Context {
	return context.WithValue(ctx, reportsDataKey{}, cfg)
}

// ReportsRunData is ReportsData for the run ctx belongs to, for executors
// that have no Config at hand (JSON mode's fan-outs): ctx as it is when
// the run's observer does not take the data.
func ReportsRunData(ctx context.Context) context.Context {
	cfg, _ := ctx.Value(observedRunKey{}).(*Config)
	if cfg == nil {
		return ctx
	}
	if _, ok := cfg.Observer.(StateData); !ok {
		return ctx
	}
	return ReportsData(ctx, cfg)
}

// ReportInput reports v as the input of the state ctx visits to o, when o
// takes the states' data (StateData); generated typed code calls it for
// the states of its fan-outs, whose items it marks with ReportsRunData.
// Generic, so that v becomes an interface, and a heap copy, only for an
// observer that takes it: without one it costs a type test.
func ReportInput[T any](ctx context.Context, o Observer, v T) {
	if d, ok := o.(StateData); ok {
		d.Entered(ctx, v)
	}
}

// ReportOutput is ReportInput for the output of the state ctx visits.
func ReportOutput[T any](ctx context.Context, o Observer, v T) {
	if d, ok := o.(StateData); ok {
		d.Succeeded(ctx, v)
	}
}

// reportsData reports whether the states of the run ctx belongs to report
// their data there: a compiled-in child of another workflow, run inside
// the item, does not inherit the promise of its parent's executor.
func reportsData(ctx context.Context) bool {
	cfg, _ := ctx.Value(reportsDataKey{}).(*Config)
	return cfg != nil && ctx.Value(observedRunKey{}) == cfg
}
