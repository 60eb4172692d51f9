package impl

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/flowc-dev/flowc/session"
)

// LiveWait is a task token a run waits for in this process: one answer,
// and heartbeats, which renew its HeartbeatSeconds.
type LiveWait struct {
	Answers chan *CallbackAnswer
	Beats   chan struct{}
}

// liveRegistry holds the tokens waited for in this process, and why the
// waits of the latest few ended, so that a token sent again is refused as
// used or timed out rather than unknown. Tokens are unguessable, so one
// registry serves every workflow of the process.
type liveRegistry struct {
	mu    sync.Mutex
	waits map[string]*LiveWait
	ended map[string]error
}

// maxEnded bounds what the registry remembers of ended waits.
const maxEnded = 1024

var liveWaits = &liveRegistry{waits: map[string]*LiveWait{}, ended: map[string]error{}}

func (r *liveRegistry) add(token string) *LiveWait {
	w := &LiveWait{Answers: make(chan *CallbackAnswer, 1), Beats: make(chan struct{}, 1)}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.waits[token] = w
	return w
}

func (r *liveRegistry) remove(token string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.waits, token)
}

// end records why the wait for token ended; the caller holds no lock.
func (r *liveRegistry) end(token string, why error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.endLocked(token, why)
}

func (r *liveRegistry) endLocked(token string, why error) {
	if len(r.ended) >= maxEnded {
		for t := range r.ended { // forget one, any
			delete(r.ended, t)
			break
		}
	}
	r.ended[token] = why
}

// send delivers a (nil: a heartbeat) to the wait for token in this
// process. found is false when no wait of the process knows the token.
func (r *liveRegistry) send(token string, a *CallbackAnswer) (found bool, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if why, ok := r.ended[token]; ok {
		return true, why
	}
	w, ok := r.waits[token]
	switch {
	case !ok:
		return false, nil
	case a == nil:
		select {
		case w.Beats <- struct{}{}:
		default: // a heartbeat is pending already
		}
	default:
		w.Answers <- a // buffered, and sent only once: the token ends here
		r.endLocked(token, ErrTaskTokenUsed)
	}
	return true, nil
}

// SendTaskSuccess completes the Task state that waits for token with
// output, a JSON value, as its result, and returns what the run then does:
// a session waiting at the state goes on (its output, or where it stops
// next); a run that waits in this process goes on in its own goroutine,
// and nil is returned. A token not outstanding is refused, and nothing
// runs.
func (c *Sessions[S, U]) SendTaskSuccess(ctx context.Context, cfg *Config, token string, output json.RawMessage) (S, error) {
	if !json.Valid(output) {
		var s S
		return s, fmt.Errorf("%w: the output sent for a task token is not JSON: %s", ErrInput, abbreviate(string(output)))
	}
	return c.answerTask(ctx, cfg, token, &CallbackAnswer{Output: output})
}

// SendTaskFailure fails the Task state that waits for token with the
// error name and cause, which its Retry and Catch rules see; otherwise as
// SendTaskSuccess.
func (c *Sessions[S, U]) SendTaskFailure(ctx context.Context, cfg *Config, token, name, cause string) (S, error) {
	return c.answerTask(ctx, cfg, token, &CallbackAnswer{Failed: true, Error: name, Cause: cause})
}

// SendTaskHeartbeat renews the HeartbeatSeconds of the Task state that
// waits for token; nothing runs.
func (c *Sessions[S, U]) SendTaskHeartbeat(ctx context.Context, cfg *Config, token string) error {
	claims, err := c.sendTo(token, nil)
	if err != nil || claims == nil {
		return err
	}
	sess, cp, w, err := c.outstanding(ctx, cfg, claims, token)
	if err != nil {
		return err
	}
	if w.Heartbeat > 0 {
		w.Beat = cfg.RunClock().Now().UTC().Add(w.Heartbeat)
	}
	sess.recordAnswer(ctx, &cp.Position, w, map[string]any{"outcome": "heartbeat"})
	return sess.Put(ctx, cp.Position, cp.State, nil)
}

func (c *Sessions[S, U]) answerTask(ctx context.Context, cfg *Config, token string, a *CallbackAnswer) (S, error) {
	var s S
	claims, err := c.sendTo(token, a)
	if err != nil || claims == nil {
		return s, err
	}
	sess, cp, w, err := c.outstanding(ctx, cfg, claims, token)
	if err != nil {
		return s, err
	}
	// The answer is saved before the run goes on, so that a crash loses
	// nothing: resuming completes the state with it.
	w.Answer = a
	sess.recordAnswer(ctx, &cp.Position, w, answerFields(a))
	if err := sess.Put(ctx, cp.Position, cp.State, nil); err != nil {
		return s, err
	}
	if s, err = c.decode(cp); err != nil {
		return s, err
	}
	return c.run(ctx, sess, s, cp.Position.State, cp)
}

// sendTo reads token and delivers a (nil: a heartbeat) to a wait of this
// process that knows it. It returns the token's claims when the token is
// a session's to answer through its checkpoint, nil when it was
// delivered.
func (c *Sessions[S, U]) sendTo(token string, a *CallbackAnswer) (*tokenClaims, error) {
	claims, err := parseTaskToken(token)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInput, err)
	}
	found, err := liveWaits.send(token, a)
	switch {
	case found && err != nil:
		return nil, tokenRefused(claims, err)
	case found:
		return nil, nil
	case claims.Session == "":
		return nil, tokenRefused(claims, fmt.Errorf("%w: no run of this process waits for it (a run without a session waits only in its own process)", ErrTaskTokenUnknown))
	}
	return &claims, nil
}

// outstanding opens the session of claims and returns the wait its
// checkpoint holds for token, refusing a token it does not hold, one
// answered already and one whose deadline has passed.
func (c *Sessions[S, U]) outstanding(ctx context.Context, cfg *Config, claims *tokenClaims, token string) (*Session, *Checkpoint, *CallbackWait, error) {
	sess, cp, err := c.open(ctx, cfg, claims.Session)
	if err != nil {
		return nil, nil, nil, err
	}
	w, err := checkOutstanding(cp, *claims, token, cfg.RunClock())
	if err != nil {
		return nil, nil, nil, err
	}
	return sess, cp, w, nil
}

// checkOutstanding returns the wait for token that cp, the last
// checkpoint of the token's session (nil: none), holds, refusing a token
// it does not hold, one answered already and one whose deadline has
// passed by clock.
func checkOutstanding(cp *Checkpoint, claims tokenClaims, token string, clock Clock) (*CallbackWait, error) {
	if cp == nil {
		return nil, tokenRefused(claims, fmt.Errorf("%w: the session has no checkpoint", ErrTaskTokenUnknown))
	}
	w := waitFor(&cp.Position, token)
	if w == nil {
		return nil, tokenRefused(claims, notHeld(cp, token))
	}
	switch {
	case w.Answer != nil:
		return nil, tokenRefused(claims, fmt.Errorf("%w: an answer was accepted for it; resuming the session completes the state", ErrTaskTokenUsed))
	}
	if err := Expired(w, clock.Now()); err != nil {
		return nil, tokenRefused(claims, fmt.Errorf("%w: %v; resuming the session fails the state with it", ErrTaskTokenTimedOut, err))
	}
	return w, nil
}

// notHeld says why the session does not wait for token: an answer was
// taken for it, its wait ended without one, or the session never issued
// it.
func notHeld(cp *Checkpoint, token string) error {
	answered, known := spentAs(cp.Position.Spent, token)
	switch {
	case known && answered:
		return fmt.Errorf("%w: an answer was taken for it, and its state has gone on", ErrTaskTokenUsed)
	case known:
		return fmt.Errorf("%w: its wait ended without an answer (its deadline passed, or its state was stopped)", ErrTaskTokenTimedOut)
	}
	return fmt.Errorf("%w: the session never issued it", ErrTaskTokenUnknown)
}

// tokenRefused is the error of a token that cannot be answered: a
// *SessionError naming the session and state it belongs to. Nothing ran.
func tokenRefused(claims tokenClaims, err error) error {
	return SessionErr(claims.Session, fmt.Errorf("task token of state %q: %w", claims.State, err))
}

// WaitLive registers token as waited for in this process, where
// SendTaskSuccess, SendTaskFailure and SendTaskHeartbeat reach its wait;
// ForgetLive unregisters it when the wait is over.
func WaitLive(token string) *LiveWait { return liveWaits.add(token) }

// ForgetLive unregisters a wait of WaitLive.
func ForgetLive(token string) { liveWaits.remove(token) }

// EndLive ends the wait for token in this process: a token sent after it
// is refused with why.
func EndLive(token string, why error) { liveWaits.end(token, why) }

// recordAnswer records an answer sent for the task token w waits for,
// which pos holds.
func (s *Session) recordAnswer(ctx context.Context, pos *Position, w *CallbackWait, fields map[string]any) {
	ev := answerEvent(ctx, s.cfg.RunClock().Now(), pos, w, fields)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.events = append(s.events, ev)
}

// answerEvent is the answer_received event of an answer for the task
// token w waits for, which pos holds: by the token's hash, and through
// the door of ctx.
func answerEvent(ctx context.Context, at time.Time, pos *Position, w *CallbackWait, fields map[string]any) session.Event {
	key := w.State
	keys, waits := pos.FanOutTokens()
	if i := slices.Index(waits, w); i >= 0 {
		key = keys[i]
	}
	fields["key"], fields["token_hash"], fields["door"] = key, session.TokenHash(w.Token), DoorOf(ctx)
	return session.NewEvent(at, session.KindAnswerReceived, key, fields)
}

func answerFields(a *CallbackAnswer) map[string]any {
	if a.Failed {
		return map[string]any{"outcome": "failure", "error": a.Error, "cause": a.Cause}
	}
	return map[string]any{"outcome": "success", "output": a.Output}
}
