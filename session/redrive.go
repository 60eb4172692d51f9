package session

import (
	"context"
	"errors"
	"sync"
)

// ErrNotRedrivable is wrapped by the error of a redrive (WithRedrive) of a
// session whose last run did not fail: it is running, waits, succeeded,
// or has no checkpoint. Nothing ran.
var ErrNotRedrivable = errors.New("only a failed session can be redriven")

type redriveKey struct{}

// redrive is what WithRedrive puts in a context: the function to call,
// once, when the redrive is saved.
type redrive struct {
	once  sync.Once
	saved func()
}

// WithRedrive returns a context under which a workflow's Resume, and its
// Invoke without input, redrive the session, as Step Functions'
// RedriveExecution: they go on from the state its last run failed at
// (Position.Failure), and refuse a session whose last run did not fail
// with an error wrapping ErrNotRedrivable. It lives here, beside the
// checkpoints it reads, so that the console can ask for a redrive
// through any workflow's Resume.
func WithRedrive(ctx context.Context) context.Context {
	return WithRedriveSaved(ctx, nil)
}

// WithRedriveSaved is WithRedrive, with saved (if not nil) called once
// the redrive is durably recorded: the session saved running again with
// its redrive counted, before any state runs again. The console answers
// its page then, while the run goes on.
func WithRedriveSaved(ctx context.Context, saved func()) context.Context {
	return context.WithValue(ctx, redriveKey{}, &redrive{saved: saved})
}

// Redriving reports whether ctx asks for a redrive (WithRedrive).
func Redriving(ctx context.Context) bool {
	return ctx.Value(redriveKey{}) != nil
}

// RedriveSaved tells the caller of WithRedriveSaved that the redrive ctx
// asks for is saved; a workflow's runtime calls it after that save. Only
// the first call counts.
func RedriveSaved(ctx context.Context) {
	if r, _ := ctx.Value(redriveKey{}).(*redrive); r != nil && r.saved != nil {
		r.once.Do(r.saved)
	}
}
