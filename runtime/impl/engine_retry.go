package impl

import (
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
	all := slices.ContainsFunc(r.Errors, func(n string) bool { return canonicalName(n) == errALL })
	ok := all && !r.Jitter && r.MaxAttempts > 1 && r.Interval > 0 &&
		(r.BackoffRate == 0 || r.BackoffRate >= 1) && (r.MaxDelay == 0 || r.MaxDelay >= r.Interval)
	return r, ok
}

// LongestDelay is the longest delay r waits between two attempts.
func (r *Retrier) LongestDelay() time.Duration {
	return max(r.delay(max(r.MaxAttempts-1, 1)), r.Interval)
}
