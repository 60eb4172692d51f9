package session

import (
	"context"
	"errors"
)

// ErrNotRedrivable is wrapped by the error of a redrive (WithRedrive) of a
// session whose last run did not fail: it is running, waits, succeeded,
// or has no checkpoint. Nothing ran.
var ErrNotRedrivable = errors.New("only a failed session can be redriven")

type redriveKey struct{}

// WithRedrive returns a context under which a workflow's Resume, and its
// Invoke without input, redrive the session, as Step Functions'
// RedriveExecution: they go on from the state its last run failed at
// (Position.Failure), and refuse a session whose last run did not fail
// with an error wrapping ErrNotRedrivable. It lives here, beside the
// checkpoints it reads, so that the console can ask for a redrive
// through any workflow's Resume.
func WithRedrive(ctx context.Context) context.Context {
	return context.WithValue(ctx, redriveKey{}, true)
}

// Redriving reports whether ctx asks for a redrive (WithRedrive).
func Redriving(ctx context.Context) bool {
	on, _ := ctx.Value(redriveKey{}).(bool)
	return on
}
