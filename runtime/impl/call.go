package impl

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"
)

// Retrier is one retry rule of a state.
type Retrier struct {
	// Errors are the names this rule matches (see MatchError).
	Errors []string
	// MaxAttempts counts every attempt under this rule, the first call
	// included: 3 means one call and up to two retries; 0 or 1 never retry.
	MaxAttempts int
	// Interval is the delay before the first retry.
	Interval time.Duration
	// BackoffRate multiplies the delay at each retry; 0 means 1.
	BackoffRate float64
	// MaxDelay caps the delay when positive.
	MaxDelay time.Duration
	// Jitter replaces each delay d by a random delay in [0, d).
	Jitter bool
}

// Policy is how a state calls its handler.
type Policy struct {
	// State is the id of the state, used in error messages.
	State string
	// Timeout bounds each attempt when positive.
	Timeout time.Duration
	// Retry rules, tried in order: the first one that matches an error
	// decides whether it is retried.
	Retry []Retrier
}

// Call runs fn under the timeout and retry rules of p and returns the error
// of the last attempt unchanged, or ctx.Err() once ctx is done. A panic in fn
// becomes a TaskFailed *Error. Call starts no goroutine: fn runs on the
// caller's, so a handler that ignores its context delays Call but leaks
// nothing.
func Call(ctx context.Context, cfg *Config, p *Policy, fn func(ctx context.Context) error) error {
	if e := EngineOf(ctx); e != nil && len(p.Retry) > 0 { // engine_retry.go
		if handled, err := e.Retry(ctx, p, func(ctx context.Context) error { return p.attempt(ctx, fn) }); handled {
			return err
		}
	}
	// Retries made under each rule. Without rules this does not allocate,
	// so a state with no policy costs no more than a deferred recover.
	// Only a retried state looks for its session: the lookup walks the
	// context on every call.
	retries := make([]int, len(p.Retry))
	var sess *Session
	resumed := 0
	if len(p.Retry) > 0 {
		sess = sessionOf(ctx)
	}
	if sess != nil {
		var err error
		if resumed, err = ResumeRetries(ctx, cfg, sess, p.State, retries, TopLevel(p.State)); err != nil {
			return err
		}
	}
	for n := 1 + resumed; ; n++ {
		err := p.observed(ctx, cfg, n, fn)
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			// The run is over, whatever fn made of that: no retry.
			return ctx.Err()
		}
		i := p.retrier(err)
		if i < 0 || retries[i]+1 >= p.Retry[i].MaxAttempts {
			return err
		}
		retries[i]++
		delay := p.Retry[i].Delay(retries[i])
		if p.Retry[i].Jitter {
			delay = time.Duration(cfg.Random() * float64(delay))
		}
		if err := RetryDelay(ctx, cfg, sess, p.State, delay, retries, TopLevel(p.State)); err != nil {
			return err
		}
	}
}

// observed makes attempt n, under the observer of cfg if any.
func (p *Policy) observed(ctx context.Context, cfg *Config, n int, fn func(ctx context.Context) error) error {
	if cfg.Observer == nil {
		return p.attempt(ctx, fn)
	}
	return observeAttempt(ctx, cfg.Observer, p.State, n, func(ctx context.Context) error { return p.attempt(ctx, fn) })
}

// invoke calls fn, turning a panic into an error.
func invoke(ctx context.Context, state string, fn func(ctx context.Context) error) (err error) {
	defer Recover(state, &err)
	return fn(ctx)
}

// attempt makes one call of fn under p.Timeout. A failure after the
// attempt's own deadline passed is reported as a timeout, whatever fn
// returned, so that Timeout rules match it.
func (p *Policy) attempt(ctx context.Context, fn func(ctx context.Context) error) error {
	if p.Timeout <= 0 {
		return invoke(ctx, p.State, fn)
	}
	if e := EngineOf(ctx); e != nil {
		return e.Attempt(ctx, p.Timeout, func(ctx context.Context) error { return invoke(ctx, p.State, fn) })
	}
	actx, cancel := context.WithTimeout(ctx, p.Timeout)
	defer cancel()
	err := invoke(actx, p.State, fn)
	// The parent's deadline also ends actx; checkDone reports that one, so
	// only a deadline of actx's own counts here. A handler that ignored its
	// context and finished late has still overrun it, as in Step Functions.
	if errors.Is(actx.Err(), context.DeadlineExceeded) && ctx.Err() == nil {
		return fmt.Errorf("%w after %s", ErrStateTimeout, p.Timeout)
	}
	return err
}

// retrier returns the index of the first rule that matches err, or -1.
func (p *Policy) retrier(err error) int {
	for i := range p.Retry {
		if MatchError(err, p.Retry[i].Errors) {
			return i
		}
	}
	return -1
}

// Delay returns the wait before the n-th retry (1-based) under r:
// Interval * BackoffRate^(n-1), capped at MaxDelay.
func (r *Retrier) Delay(n int) time.Duration {
	rate := r.BackoffRate
	if rate == 0 {
		rate = 1
	}
	d := float64(r.Interval) * math.Pow(rate, float64(n-1))
	if r.MaxDelay > 0 && d > float64(r.MaxDelay) {
		return r.MaxDelay
	}
	// Converting a float64 beyond the int64 range is implementation-defined:
	// saturate instead.
	if d >= math.MaxInt64 {
		return math.MaxInt64
	}
	return time.Duration(d)
}
