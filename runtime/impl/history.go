package impl

import (
	"context"
	"encoding/json"
	"strconv"
	"sync/atomic"

	"github.com/flowc-dev/flowc/session"
)

// A session's history: the Session buffers the events of its run and its
// next checkpoint saves them, in the same atomic step (session.Event).
// State outcomes and stops are recorded where the run saves them; state
// visits, retries and the states inside fan-outs by a history observer,
// which NewConfig adds when the workflow has a checkpointer: a workflow
// without one pays nothing.

// record adds an event to the history the next checkpoint saves.
func (s *Session) record(kind session.EventKind, state string, fields any) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.recordLocked(kind, state, fields)
}

// recordLocked is record for a caller that holds s.mu.
func (s *Session) recordLocked(kind session.EventKind, state string, fields any) {
	s.events = append(s.events, session.NewEvent(s.cfg.RunClock().Now(), kind, state, fields))
}

// recordStops records the approvals a run stops at, but those it waited
// at already.
func (s *Session) recordStops(stops []Pending) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range stops {
		if s.rewait[p.StopKey()] {
			continue
		}
		s.recordLocked(session.KindStoppedForApproval, p.StopKey(), map[string]any{"key": p.StopKey(), "prompt": p.Prompt, "options": p.Options})
	}
}

// recordIssued records the task tokens pos holds that the last checkpoint
// did not, by hash: history never holds a token.
func (s *Session) recordIssued(pos *Position, held map[string]*CallbackWait) {
	if len(held) == 0 {
		return
	}
	keys, waits := pos.FanOutTokens()
	if w := pos.Callback; w != nil {
		keys, waits = append(keys, w.State), append(waits, w)
	}
	for i, w := range waits {
		if s.held[tokenHash(w.Token)] == nil {
			s.recordLocked(session.KindTaskTokenIssued, keys[i], map[string]any{"key": keys[i], "token_hash": session.TokenHash(w.Token)})
		}
	}
}

// unanswered are the keys of the approvals cp waits at with no answer.
func unanswered(cp *Checkpoint) map[string]bool {
	if cp.Status != StatusInterrupted {
		return nil
	}
	out := map[string]bool{}
	for _, p := range cp.Waiting() {
		if p.Answer == nil {
			out[p.StopKey()] = true
		}
	}
	return out
}

// asksAgain reports whether a visit of the state key names goes back to
// an approval that waited with no answer (rewait), so that the history
// does not record it as a new visit.
func (s *Session) asksAgain(key string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.rewait[key]
}

// recordedDecisions are the decisions recorded in cp for its stops, by
// key.
func recordedDecisions(cp *Checkpoint) map[string]string {
	var out map[string]string
	for _, p := range cp.Waiting() {
		if p.Answer != nil {
			if out == nil {
				out = map[string]string{}
			}
			out[p.StopKey()] = p.Answer.Decision
		}
	}
	return out
}

func inputField(v any) any { return map[string]any{"input": v} }

func outputField(data json.RawMessage) any { return map[string]json.RawMessage{"output": data} }

type doorKey struct{}

// WithDoor returns a context under which the answers a workflow's
// Decide, DecideAt and SendTask* methods take are recorded as coming
// through door ("cli", "console"; without it, "go").
func WithDoor(ctx context.Context, door string) context.Context {
	return context.WithValue(ctx, doorKey{}, door)
}

// DoorOf is the door WithDoor gave ctx, else session.DoorGo.
func DoorOf(ctx context.Context) string {
	if d, _ := ctx.Value(doorKey{}).(string); d != "" {
		return d
	}
	return session.DoorGo
}

// historyObserver records the visits of states, their retries and the
// states inside fan-outs, with their input and output where the executor
// reports them (StateData), in the history of the session a run belongs
// to, and passes the calls of Observer, and of StateData, on to the
// workflow's own observer, if any.
type historyObserver struct{ next Observer }

// recordHistory wraps cfg's observer with a historyObserver when cfg has a
// checkpointer.
func recordHistory(cfg *Config) {
	if cfg.Checkpointer != nil {
		cfg.Observer = historyObserver{next: cfg.Observer}
	}
}

type itemPathKey struct{}

// itemPath is the key prefix of the fan-out item ctx runs in:
// "Map/2/" ("" outside fan-outs), as a stop's key names it.
func itemPath(ctx context.Context) string {
	p, _ := ctx.Value(itemPathKey{}).(string)
	return p
}

func (h historyObserver) Run(ctx context.Context, workflow string) (context.Context, func(error)) {
	if h.next == nil {
		return ctx, nil
	}
	return h.next.Run(ctx, workflow)
}

func (h historyObserver) State(ctx context.Context, state string) (context.Context, func(error)) {
	var next func(error)
	if h.next != nil {
		ctx, next = h.next.State(ctx, state)
	}
	sess := sessionOf(ctx)
	if sess == nil {
		return ctx, next
	}
	path := itemPath(ctx)
	again := sess.asksAgain(path + state)
	if path == "" {
		// The state's outcome is recorded with its checkpoint (Save).
		if !again {
			sess.recordEntered(state)
		}
		return ctx, next
	}
	v := &visit{sess: sess, key: path + state, run: ctx.Value(observedRunKey{})}
	switch {
	case again:
		v.entered.Store(true)
	case reportsData(ctx):
		ctx = context.WithValue(ctx, visitKey{}, v) // Entered records it, with its input
	default:
		v.enter(nil)
	}
	return ctx, func(err error) {
		v.enter(nil) // a state that reported no input is still recorded
		switch {
		case err == nil:
			sess.record(session.KindStateSucceeded, v.key, v.outputField())
		case !IsInterrupted(err) && !IsWaitingForTaskToken(err):
			sess.record(session.KindStateFailed, v.key, map[string]string{"error": ErrorName(err), "cause": err.Error()})
		}
		if next != nil {
			next(err)
		}
	}
}

// recordEntered records the visit of a state outside fan-outs with its
// input: the state the last checkpoint saved, or the run started on.
func (s *Session) recordEntered(state string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	input := any(s.atState)
	if s.atState == nil {
		input = s.atValue
	}
	s.recordLocked(session.KindStateEntered, state, inputField(input))
}

func (h historyObserver) Attempt(ctx context.Context, state string, attempt int) (context.Context, func(error)) {
	if sess := sessionOf(ctx); sess != nil && attempt > 1 {
		sess.record(session.KindRetryScheduled, itemPath(ctx)+state, map[string]int{"attempt": attempt})
	}
	if h.next == nil {
		return ctx, nil
	}
	return h.next.Attempt(ctx, state, attempt)
}

func (h historyObserver) Item(ctx context.Context, state string, index, total int) (context.Context, func(error)) {
	ctx = context.WithValue(ctx, itemPathKey{}, itemPath(ctx)+state+"/"+strconv.Itoa(index)+"/")
	if h.next == nil {
		return ctx, nil
	}
	return h.next.Item(ctx, state, index, total)
}

// visit is a state inside a fan-out whose executor reports its data
// (StateData): its entry is recorded once, by the first Entered or else at
// its end, and its output, encoded when reported, with its success.
type visit struct {
	sess    *Session
	key     string // as a stop's key names it: "Map/2/State"
	run     any    // the *Config of the run it belongs to
	entered atomic.Bool
	output  json.RawMessage // written and read by the state's own goroutine
}

type visitKey struct{}

// visitOf is the visit ctx runs in, if its run's executor reports data.
func visitOf(ctx context.Context) *visit {
	v, _ := ctx.Value(visitKey{}).(*visit)
	if v == nil || v.run != ctx.Value(observedRunKey{}) {
		return nil // none, or the visit of a parent whose child runs here
	}
	return v
}

// enter records the visit's entry, with fields, unless it is recorded.
func (v *visit) enter(fields any) {
	if v.entered.CompareAndSwap(false, true) {
		v.sess.record(session.KindStateEntered, v.key, fields)
	}
}

// outputField is the fields of the visit's success: its output, when its
// executor reported one.
func (v *visit) outputField() any {
	if v.output == nil {
		return nil
	}
	return outputField(v.output)
}

// Entered records the visit ctx runs in with its input (the visits of
// top-level states are recorded with their checkpoint's, by State), and
// passes input on to the workflow's own observer if it takes it.
func (h historyObserver) Entered(ctx context.Context, input any) {
	if v := visitOf(ctx); v != nil {
		v.enter(inputField(input))
	}
	if d, ok := h.next.(StateData); ok {
		d.Entered(ctx, input)
	}
}

// Succeeded keeps the output of the visit ctx runs in for its success (it
// is encoded now, as the next state may change the value), and passes it
// on as Entered does.
func (h historyObserver) Succeeded(ctx context.Context, output any) {
	if v := visitOf(ctx); v != nil {
		if data, err := json.Marshal(output); err == nil {
			v.output = data
		}
	}
	if d, ok := h.next.(StateData); ok {
		d.Succeeded(ctx, output)
	}
}
