package impl

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/flowc-dev/flowc/session"
)

// Failed runs and redrive, as Step Functions' RedriveExecution: a session
// whose run fails saves a checkpoint with status failed where the run was
// when it failed (the state that failed, on that state's input; inside a
// fan-out, the fan-out's progress: what each branch or item that finished
// returned), and redriving it goes on from there, so that nothing that
// succeeded before runs again.

// ErrNotRedrivable is wrapped by the *SessionError of a redrive of a
// session whose last run did not fail: it is running, waits, succeeded,
// or has no checkpoint. Nothing ran.
var ErrNotRedrivable = session.ErrNotRedrivable

// WithRedrive returns a context under which a workflow's Resume, and its
// Invoke without input, redrive the session: they go on from the state its
// last run failed at, and refuse, with an error wrapping ErrNotRedrivable,
// a session whose last run did not fail. Without it they go on from a
// failed checkpoint all the same, as from any other.
func WithRedrive(ctx context.Context) context.Context { return session.WithRedrive(ctx) }

// checkRedrive refuses a redrive of a session whose last checkpoint, cp
// (nil: none), is not of a failed run.
func checkRedrive(ctx context.Context, id string, cp *Checkpoint) error {
	switch {
	case !session.Redriving(ctx) || cp != nil && cp.Status == StatusFailed:
		return nil
	case cp == nil:
		return SessionErr(id, fmt.Errorf("%w: it has no checkpoint", ErrNotRedrivable))
	}
	return SessionErr(id, fmt.Errorf("%w: its last run is %s", ErrNotRedrivable, cp.Status))
}

// redrive starts the run that goes on from cp, the checkpoint of a failed
// run: it saves the session running again at the same position with its
// redrive counted, so that the store never shows a failure that is being
// redriven, and the sleeps and task tokens of the failed attempt are over.
// The history's redriven event is saved with it, and the caller of
// session.WithRedriveSaved is told once the save returns.
func (s *Session) redrive(ctx context.Context, cp *Checkpoint) error {
	s.redrives = cp.Position.Redrives + 1
	pos := cp.Position
	pos.Failure = nil
	s.record(session.KindRedriven, pos.State, map[string]any{"redrive_count": s.redrives, "door": DoorOf(ctx)})
	if err := s.Put(ctx, pos, cp.State, nil); err != nil {
		return err
	}
	session.RedriveSaved(ctx)
	cp.Position = s.at
	return nil
}

// fail saves the checkpoint of a run that failed with err, at the position
// of its last checkpoint (or where it started, before its first save) with
// the state saved there, recording the state's and the run's failure in
// the history, and returns err. What is not a failure of the
// run saves nothing: a stop for a person or a task token (saved already),
// a session that cannot run as asked, a store that could not save, and a
// run its caller cancelled, which Resume continues as after a crash.
func (s *Session) fail(ctx context.Context, err error) error {
	if !runFailed(ctx, err) {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	state := s.atState
	if state == nil {
		data, merr := json.Marshal(s.atValue)
		if merr != nil {
			return errors.Join(err, fmt.Errorf("saving the checkpoint of session %q: %w", s.id, merr))
		}
		state = data
	}
	pos := s.at
	// The failed attempt's sleep and task token are over: a redrive runs
	// the state again, with its retries and deadlines from the start.
	pos.Timer, pos.Callback = nil, nil
	pos.Failure = failureOf(err)
	why := map[string]string{"error": pos.Failure.Error, "cause": pos.Failure.Cause}
	s.recordLocked(session.KindStateFailed, pos.State, why)
	s.recordLocked(session.KindRunFailed, "", why)
	if serr := s.putLocked(ctx, pos, state, nil); serr != nil {
		return errors.Join(err, serr)
	}
	return err
}

// runFailed reports whether err, which a run of ctx ended with, is a
// failure of the run.
func runFailed(ctx context.Context, err error) bool {
	var wait *Interrupted
	var token *TaskTokenWait
	var sessErr *SessionError
	var store *storeError
	switch {
	case err == nil, ctx.Err() != nil, errors.Is(err, ErrInput):
		return false
	case errors.As(err, &wait), errors.As(err, &token), errors.As(err, &sessErr), errors.As(err, &store):
		return false
	}
	return true
}

// failureOf names err as a failed checkpoint records it: the name and
// cause of the *Error in its chain, else its name and message.
func failureOf(err error) *Failure {
	if e, ok := errors.AsType[*Error](err); ok {
		return &Failure{Error: e.Name, Cause: e.Cause}
	}
	return &Failure{Error: ErrorName(err), Cause: err.Error()}
}

// storeError is the error of a checkpointer's Save, as it is: a run that
// could not save its checkpoint saves no failure either.
type storeError struct{ err error }

func (e *storeError) Error() string { return e.err.Error() }

func (e *storeError) Unwrap() error { return e.err }
