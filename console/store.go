package console

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"

	"github.com/flowc-dev/flowc/session"
)

// FromStore reads the sessions of a checkpoint store: it lists them and
// reads their history when the store is a session.Lister and a
// session.Historian (the SQLite and memory stores are); otherwise it
// lists them by loading each checkpoint, and shows no history.
func FromStore(store session.Checkpointer) Reader { return storeReader{store} }

type storeReader struct{ store session.Checkpointer }

func (s storeReader) Sessions(ctx context.Context, q Query) (Page, error) {
	sq := session.Query{Status: session.Status(q.Status), Workflow: q.Workflow, Limit: q.Limit, Before: q.Before}
	if l, ok := s.store.(session.Lister); ok {
		p, err := l.Sessions(ctx, sq)
		return page(p), err
	}
	p, err := listByLoading(ctx, s.store, sq)
	return page(p), err
}

// listByLoading lists the sessions of a store that cannot list them
// itself, newest first; its cursor is the index to go on from.
func listByLoading(ctx context.Context, store session.Checkpointer, q session.Query) (session.Page, error) {
	ids, err := store.List(ctx)
	if err != nil {
		return session.Page{}, err
	}
	p := session.Page{Counts: map[session.Status]int{}}
	var all []session.Summary
	for _, id := range ids {
		cp, err := store.Load(ctx, id)
		if err != nil {
			continue // deleted since List
		}
		sum := session.Summarize(cp)
		p.Counts[sum.Status]++
		if (q.Status == "" || sum.Status == q.Status) && (q.Workflow == "" || sum.Workflow == q.Workflow) {
			all = append(all, sum)
		}
	}
	slices.SortStableFunc(all, func(a, b session.Summary) int { return b.Updated.Compare(a.Updated) })
	from, _ := strconv.Atoi(q.Before)
	from = min(max(from, 0), len(all))
	to := len(all)
	if q.Limit > 0 {
		to = min(to, from+q.Limit)
	}
	p.Sessions = all[from:to]
	if to < len(all) {
		p.Next = strconv.Itoa(to)
	}
	return p, nil
}

func page(p session.Page) Page {
	out := Page{Counts: map[string]int{}, Next: p.Next, Sessions: make([]Summary, len(p.Sessions))}
	for st, n := range p.Counts {
		out.Counts[string(st)] += n
	}
	for i, s := range p.Sessions {
		out.Sessions[i] = Summary{ID: s.ID, Workflow: s.Workflow, Status: string(s.Status), State: s.State, Updated: s.Updated, Stops: s.Stops}
	}
	return out
}

func (s storeReader) Session(ctx context.Context, id string) (*Session, error) {
	cp, err := s.store.Load(ctx, id)
	if errors.Is(err, session.ErrNoCheckpoint) {
		return nil, fmt.Errorf("session %q: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	out := &Session{ID: cp.Session, Workflow: cp.Workflow, Status: string(cp.Status), State: cp.Position.State, Updated: cp.Time, Data: cp.State,
		Redrives: cp.Position.Redrives}
	if f := cp.Position.Failure; f != nil {
		out.Error, out.Cause = f.Error, f.Cause
	}
	for _, st := range session.Stops(cp) {
		if !st.Answered { // an answer is recorded: the run is taking it
			out.Stops = append(out.Stops, Stop{Key: st.Key, State: st.State, Kind: st.Kind, Prompt: st.Prompt, Options: st.Options, TokenHash: st.TokenHash})
		}
	}
	return out, nil
}

func (s storeReader) History(ctx context.Context, id string, after int64, limit int) ([]Event, int64, error) {
	h, ok := s.store.(session.Historian)
	if !ok {
		return nil, 0, nil
	}
	events, dropped, err := h.History(ctx, id, after, limit)
	out := make([]Event, len(events))
	for i, e := range events {
		out[i] = Event{Seq: e.Seq, Time: e.Time, Kind: string(e.Kind), State: e.State, Fields: e.Fields}
	}
	return out, dropped, err
}

// Runner changes the sessions of Store and runs them in this process:
// each answer is recorded in the store, durably, and then the session
// goes on in the background through Resume, which continues a session
// from its checkpoint, taking the answers recorded there (a generated
// workflow's Resume, or a built program's session function).
type Runner struct {
	Store  session.Checkpointer
	Resume func(ctx context.Context, id string) error
	// Ctx is the context of the runs in the background: cancelling it
	// stops them (default: context.Background()).
	Ctx context.Context
	// Done, if set, is told how each run in the background ended.
	Done func(id string, err error)

	mu      sync.Mutex
	running map[string]bool // a run of the session goes on; true: run it again after
	wg      sync.WaitGroup
}

// Wait waits until no run started by the console goes on.
func (r *Runner) Wait() { r.wg.Wait() }

// Decide records a decision for the approval key names and goes on.
func (r *Runner) Decide(ctx context.Context, id, key, option string) error {
	return r.answer(ctx, id, key, session.AnswerInput{Decision: option})
}

// TaskSucceed records a task token's success and goes on.
func (r *Runner) TaskSucceed(ctx context.Context, id, key string, output json.RawMessage) error {
	return r.answer(ctx, id, key, session.AnswerInput{TaskOutput: output})
}

// TaskFail records a task token's failure and goes on.
func (r *Runner) TaskFail(ctx context.Context, id, key, errName, cause string) error {
	return r.answer(ctx, id, key, session.AnswerInput{TaskError: errName, TaskCause: cause})
}

// answer records a through the console door and goes on. session.Answer
// says with session.ErrAlreadyAnswered that another answer won, even when
// the winner's run has gone on since: storeErr makes that ErrConflict.
func (r *Runner) answer(ctx context.Context, id, key string, a session.AnswerInput) error {
	a.Door = session.DoorConsole
	if err := storeErr(session.Answer(ctx, r.Store, id, key, a)); err != nil {
		return err
	}
	r.goOn(id)
	return nil
}

// Stop ends the session as stopped; nothing runs.
func (r *Runner) Stop(ctx context.Context, id, errName, cause string) error {
	return storeErr(session.Stop(ctx, r.Store, id, errName, cause))
}

// Redrive redrives a failed session, as Step Functions'
// RedriveExecution: its run goes on in the background from the state that
// failed, through Resume under session.WithRedriveSaved, which refuses a
// session that no longer failed. Redrive returns once the run has saved
// the session running again with its redrive counted, or has ended.
func (r *Runner) Redrive(ctx context.Context, id string) error {
	cp, err := r.Store.Load(ctx, id)
	if err != nil {
		return storeErr(err)
	}
	if cp.Status != session.StatusFailed {
		return fmt.Errorf("%w: session %q is %s, not failed", ErrConflict, id, cp.Status)
	}
	saved := make(chan struct{})
	ended := r.start(id, func() { close(saved) })
	if ended == nil {
		return fmt.Errorf("%w: session %q is being run already", ErrConflict, id)
	}
	select {
	case <-saved:
		return nil
	case err := <-ended:
		if errors.Is(err, session.ErrNotRedrivable) {
			return fmt.Errorf("%w: %w", ErrConflict, err)
		}
		return nil // it ran: the page shows how it ended
	case <-ctx.Done():
		return ctx.Err()
	}
}

// goOn runs session id in the background, or, when a run of it goes on
// already, once more after it, so that an answer recorded while it ran is
// taken. It reports whether no run went on.
func (r *Runner) goOn(id string) bool { return r.start(id, nil) != nil }

// start is goOn, redriving the session on the first run when saved is not
// nil, which is called once the redrive is saved; it returns a channel
// that gets the first run's error, nil when a run went on already (a
// redrive then is not run after it: that run may be the redrive).
func (r *Runner) start(id string, saved func()) <-chan error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.running == nil {
		r.running = map[string]bool{}
	}
	if _, ok := r.running[id]; ok {
		r.running[id] = r.running[id] || saved == nil
		return nil
	}
	r.running[id] = false
	first := make(chan error, 1)
	r.wg.Add(1)
	go r.run(id, saved, first)
	return first
}

func (r *Runner) run(id string, saved func(), first chan<- error) {
	defer r.wg.Done()
	ctx := r.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	for {
		runCtx := ctx
		if saved != nil {
			runCtx, saved = session.WithRedriveSaved(ctx, saved), nil
		}
		err := r.Resume(runCtx, id)
		if first != nil {
			first <- err
			first = nil
		}
		if r.Done != nil {
			r.Done(id, err)
		}
		r.mu.Lock()
		again := r.running[id]
		if !again || ctx.Err() != nil {
			delete(r.running, id)
			r.mu.Unlock()
			return
		}
		r.running[id] = false
		r.mu.Unlock()
	}
}

// storeErr says that an answer lost (the stop was answered already, the
// session was stopped, or no longer failed) with ErrConflict, and that a session is
// unknown with ErrNotFound.
func storeErr(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, session.ErrAlreadyAnswered), errors.Is(err, session.ErrStopped), errors.Is(err, session.ErrNotRedrivable):
		return fmt.Errorf("%w: %w", ErrConflict, err)
	case errors.Is(err, session.ErrNoCheckpoint):
		return fmt.Errorf("%w: %w", ErrNotFound, err)
	}
	return err
}
