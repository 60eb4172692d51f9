package impl

import (
	"context"
	"encoding/json"
	"time"
)

// TaskTokenEngine is implemented by an Engine that keeps the waits of
// callback Task states itself (Temporal): it issues their tokens, the same
// on every replay, and waits for what is sent for them on its own timers.
type TaskTokenEngine interface {
	// NewTaskToken issues the token of an attempt of state.
	NewTaskToken(ctx context.Context, state string) string
	// AwaitTaskToken waits for a success or failure sent for token, within
	// timeout of the whole wait and heartbeat between heartbeats (0:
	// none). It returns the success's output, or the failure or the
	// timeout as an *Error (States.Timeout, States.HeartbeatTimeout).
	AwaitTaskToken(ctx context.Context, state, token string, timeout, heartbeat time.Duration) (json.RawMessage, error)
}

// NewTaskToken issues a task token of state in the run called session
// (on Temporal, the workflow id), from crypto/rand: an engine calls it
// where its history records the result.
func NewTaskToken(session, state string) string { return newTaskToken(session, state) }

// TaskTokenOwner reads the session and the state a task token belongs to;
// a token flowc did not issue is ErrTaskTokenInvalid.
func TaskTokenOwner(token string) (session, state string, err error) {
	c, err := parseTaskToken(token)
	return c.Session, c.State, err
}
