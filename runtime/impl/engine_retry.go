package impl

import (
	"context"
	"slices"
	"time"
)

// EngineRetrier returns the retry rule of p that an engine may run as its
// own retry policy (an activity's RetryPolicy on Temporal) with the same
// outcome as Call's loop: p's only rule, matching every error, with a
// delay that grows by a rate of at least 1 from a positive interval, a
// cap no lower than the interval, and no jitter (an engine's delays are
// not drawn from the run's source). Other rules stay with Call: several
// rules count their retries apart, and a rule that matches some errors
// only must see each one.
func (p *Policy) EngineRetrier() (Retrier, bool) {
	if len(p.Retry) != 1 {
		return Retrier{}, false
	}
	r := p.Retry[0]
	all := slices.ContainsFunc(r.Errors, func(n string) bool { return canonicalName(n) == ErrALL })
	ok := all && !r.Jitter && r.MaxAttempts > 1 && r.Interval > 0 &&
		(r.BackoffRate == 0 || r.BackoffRate >= 1) && (r.MaxDelay == 0 || r.MaxDelay >= r.Interval)
	return r, ok
}

// LongestDelay is the longest delay r waits between two attempts.
func (r *Retrier) LongestDelay() time.Duration {
	return max(r.Delay(max(r.MaxAttempts-1, 1)), r.Interval)
}

// ResumeRetries restores a run resumed from a checkpoint that was saved
// during the delay before a retry of state: the retries its rules had
// made go into retries, and what is left of the delay is slept. It
// returns how many retries were made, 0 when the run did not stop there.
func ResumeRetries(ctx context.Context, cfg *Config, sess *Session, state string, retries []int, here func(Position) bool) (int, error) {
	t := sess.TakeTimer(state, true)
	if t == nil || len(t.Retries) != len(retries) {
		return 0, nil
	}
	copy(retries, t.Retries)
	n := 0
	for _, r := range retries {
		n += r
	}
	return n, SleepUntil(ctx, cfg, sess, t, here)
}

// RetryDelay sleeps delay d before a retry of state, whose rules have
// made retries so far; when here says that the session's checkpoint names
// state, the deadline and the retries go into it first.
func RetryDelay(ctx context.Context, cfg *Config, sess *Session, state string, d time.Duration, retries []int, here func(Position) bool) error {
	if sess == nil {
		return cfg.RunClock().Sleep(ctx, d)
	}
	t := &DurableTimer{State: state, Until: cfg.RunClock().Now().Add(d).UTC(), Retries: slices.Clone(retries)}
	return SleepUntil(ctx, cfg, sess, t, here)
}
