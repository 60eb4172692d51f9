package impl

import (
	"context"
	"encoding/json"
	"fmt"
)

type sessionKey struct{}

// withSession returns ctx carrying sess, so that the retry loop of a
// handler call (Call) can keep its delays in the session's checkpoint.
func withSession(ctx context.Context, sess *Session) context.Context {
	return context.WithValue(ctx, sessionKey{}, sess)
}

func sessionOf(ctx context.Context) *Session {
	s, _ := ctx.Value(sessionKey{}).(*Session)
	return s
}

// clock is the clock of the run; a nil *Session's is the system's.
func (s *Session) clock() Clock {
	if s == nil {
		return SystemClock
	}
	return s.cfg.RunClock()
}

// TakeTimer returns, once, the timer of the checkpoint the run resumed
// from, when it is state's Wait or approval (retry false) or retry delay.
func (s *Session) TakeTimer(state string, retry bool) *DurableTimer {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.timer
	if t == nil || t.State != state || (t.Retries != nil) != retry {
		return nil
	}
	s.timer = nil
	return t
}

// due records when the decision of the approval the run is about to stop
// at is due, for the checkpoint Save writes.
func (s *Session) due(t *DurableTimer) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dueAt = t
}

// takeDue returns, once, when the decision at approval state is due; nil
// when it has no timeout. The caller holds s.mu.
func (s *Session) takeDue(state string) *DurableTimer {
	t := s.dueAt
	s.dueAt = nil
	if t == nil || t.State != state {
		return nil
	}
	return t
}

// holdTimer writes the run's checkpoint again with t, when here says that
// the checkpoint names the state that sleeps: resuming it then sleeps
// only what is left. A sleep that no checkpoint names (inside a fan-out,
// a Parallel branch or a Map iteration, whose progress is not saved)
// saves nothing.
func (s *Session) holdTimer(ctx context.Context, t *DurableTimer, here func(Position) bool) error {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !here(s.at) {
		return nil
	}
	state := s.atState
	if state == nil {
		var err error
		if state, err = json.Marshal(s.atValue); err != nil {
			return fmt.Errorf("saving the checkpoint of session %q: %w", s.id, err)
		}
	}
	pos := s.at
	pos.Timer = t
	return s.putLocked(ctx, pos, state, nil)
}

// SleepUntil sleeps through the clock of cfg until t's deadline, which a
// checkpoint of sess holds first. A resumed run writes it again: its state
// may hold new input since.
func SleepUntil(ctx context.Context, cfg *Config, sess *Session, t *DurableTimer, here func(Position) bool) error {
	if err := sess.holdTimer(ctx, t, here); err != nil {
		return err
	}
	clock := cfg.RunClock()
	return clock.Sleep(ctx, max(t.Until.Sub(clock.Now()), 0))
}

// TopLevel says whether a checkpoint at pos names state among the
// top-level states of a workflow, outside any fan-out.
func TopLevel(state string) func(Position) bool {
	return func(pos Position) bool {
		return pos.State == state && pos.FanOut == nil && len(pos.Inside) == 0
	}
}
