package impl

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/flowc-dev/flowc/session"
)

// SessionErr returns a *SessionError of session id.
func SessionErr(id string, err error) error { return &SessionError{Session: id, Err: err} }

// Sessions runs the sessions of one generated workflow whose state has type
// S and whose input to a running session has type U (an update in typed
// mode): its Invoke, Resume and Decide do what the workflow's methods of
// those names promise. Generated code fills it in.
type Sessions[S, U any] struct {
	Workflow string // the workflow's name, saved with every checkpoint
	// Schema is the hash of the state's top-level fields ("json" for a
	// JSON state); a typed checkpoint saves it with the state's shape.
	Schema string
	Start  string // the start state
	// Fresh returns the state of a new session given no input; nil means
	// the zero state.
	Fresh func() S
	// Decode reads a saved state; nil decodes it as JSON, refusing
	// unknown fields so that a state of another shape is not half read.
	Decode func(data []byte) (S, error)
	// Merge folds an input into a state, as Invoke does.
	Merge func(s *S, in U)
	// Run runs the workflow from a state named by its id, saving through
	// sess; an unknown id is an error.
	Run func(ctx context.Context, sess *Session, s S, state string) (S, error)
}

// Invoke runs session id. A new session starts at the start state with in
// merged into a fresh state. An existing session goes on from its last
// checkpoint, with in merged into its state (nil: unchanged); one whose
// last run finished starts again at the start state with the merged state,
// one waiting at an approval state asks for the decision again, and one
// whose last run failed is redriven from the state that failed. Under
// WithRedrive, in is not merged: the session is redriven, as by Resume.
func (c *Sessions[S, U]) Invoke(ctx context.Context, cfg *Config, id string, in *U) (S, error) {
	if session.Redriving(ctx) {
		return c.Resume(ctx, cfg, id)
	}
	var s S
	sess, cp, err := c.open(ctx, cfg, id)
	switch {
	case err != nil:
		return s, err
	case cp == nil && c.Fresh != nil:
		s = c.Fresh()
	case cp != nil:
		if s, err = c.decode(cp); err != nil {
			return s, err
		}
	}
	if in != nil {
		c.Merge(&s, *in)
	}
	if cp == nil || cp.Status == StatusSucceeded {
		sess.record(session.KindRunStarted, "", inputField(s))
		return c.run(ctx, sess, s, c.Start, nil)
	}
	if cp.Status == StatusFailed {
		if err := sess.redrive(ctx, cp); err != nil {
			return s, err
		}
	}
	if in != nil {
		sess.record(session.KindInputMerged, "", inputField(*in))
		return c.run(ctx, sess, s, cp.Position.State, nil)
	}
	return c.run(ctx, sess, s, cp.Position.State, cp)
}

// Resume continues session id from its last checkpoint: the states that
// completed before it are not run again. A session whose last run finished
// returns its final state; one that waits at an approval state asks for the
// decision again; one whose last run failed is redriven from the state that
// failed. Under WithRedrive, a session whose last run did not fail is
// refused.
func (c *Sessions[S, U]) Resume(ctx context.Context, cfg *Config, id string) (S, error) {
	var s S
	sess, cp, err := c.open(ctx, cfg, id)
	if err == nil {
		err = checkRedrive(ctx, id, cp)
	}
	if err != nil {
		return s, err
	}
	if cp == nil {
		return s, SessionErr(id, fmt.Errorf("%w to resume; start the session with Invoke", ErrNoCheckpoint))
	}
	if s, err = c.decode(cp); err != nil || cp.Status == StatusSucceeded {
		return s, err
	}
	if cp.Status == StatusFailed {
		if err := sess.redrive(ctx, cp); err != nil {
			return s, err
		}
	}
	return c.run(ctx, sess, s, cp.Position.State, cp)
}

// Decide answers the approval that session id waits for with decision,
// which must be one of its options, and continues the run. When several
// stops wait (inside fan-outs), it answers the one the context names
// (WithDecisionKey), and refuses to guess otherwise.
func (c *Sessions[S, U]) Decide(ctx context.Context, cfg *Config, id, decision string) (S, error) {
	return c.DecideAt(ctx, cfg, id, decisionKey(ctx), decision)
}

// DecideAt answers the stop of session id that key names (a Pending's Key;
// "": the only one that waits) with decision, one of its options, and
// continues the run: the other stops that wait stay waiting.
func (c *Sessions[S, U]) DecideAt(ctx context.Context, cfg *Config, id, key, decision string) (S, error) {
	var s S
	sess, cp, err := c.open(ctx, cfg, id)
	if err != nil {
		return s, err
	}
	if cp == nil {
		return s, SessionErr(id, errors.New("no approval waits for a decision"))
	}
	var p *Pending
	err = errors.New("no approval waits for a decision")
	if cp.Status == StatusInterrupted {
		p, err = pick(cp, key)
	}
	if err != nil {
		// The stop may have been answered by another, whose run went on.
		return s, SessionErr(id, session.Refusal(ctx, cfg.Checkpointer, cp, key, err))
	}
	if err := p.Check(decision); err != nil {
		return s, SessionErr(id, err)
	}
	if err := sess.saveAnswer(ctx, cp, p.StopKey(), session.AnswerInput{Decision: decision, Door: DoorOf(ctx)}); err != nil {
		return s, err
	}
	if s, err = c.decode(cp); err != nil {
		return s, err
	}
	return c.run(ctx, sess, s, cp.Position.State, cp)
}

// saveAnswer records a for the stop key names in cp, the session's last
// checkpoint, and saves it before the run goes on: of two answers to one
// stop, the one saved first wins, and the run takes it from the
// checkpoint.
func (s *Session) saveAnswer(ctx context.Context, cp *Checkpoint, key string, a session.AnswerInput) error {
	ev, err := session.RecordAnswer(cp, key, a, s.cfg.RunClock().Now())
	if err != nil {
		return SessionErr(s.id, err)
	}
	cp.Step++
	cp.Time, cp.Events = ev.Time, []session.Event{ev}
	err = s.cfg.Checkpointer.Save(ctx, cp)
	cp.Events = nil
	if errors.Is(err, session.ErrOvertaken) {
		return SessionErr(s.id, fmt.Errorf("%w: stop %q was answered, or its run went on, while this answer was saved", session.ErrAlreadyAnswered, key))
	}
	s.step, s.decisions = cp.Step, recordedDecisions(cp)
	delete(s.rewait, key)
	return err
}

// run runs the workflow on s from state. Until its first save the run is
// where from, the checkpoint it goes on from unchanged, says; without one,
// at state on s. A run that fails saves its checkpoint failed, there.
func (c *Sessions[S, U]) run(ctx context.Context, sess *Session, s S, state string, from *Checkpoint) (S, error) {
	if from != nil {
		sess.at, sess.atState = from.Position, from.State
	} else {
		sess.at, sess.atValue = Position{State: state, Vars: sess.vars}, s
		if state == sess.insideAt {
			sess.at.Inside = sess.inside
		}
		if state == sess.fanOutAt {
			sess.at.FanOut = sess.fanOut // so that a failure before the next save keeps it
		}
	}
	out, err := c.Run(withSession(ctx, sess), sess, s, state)
	return out, sess.fail(ctx, err)
}

// open starts a session and loads its last checkpoint, nil for a new
// session, refusing one that another workflow or state schema wrote.
func (c *Sessions[S, U]) open(ctx context.Context, cfg *Config, id string) (*Session, *Checkpoint, error) {
	if cfg.Checkpointer == nil {
		return nil, nil, SessionErr(id, errors.New("sessions need a checkpointer; configure one with flowcrt.WithCheckpointer"))
	}
	if id == "" {
		return nil, nil, SessionErr(id, errors.New("the session id is empty"))
	}
	sess := &Session{cfg: cfg, id: id, workflow: c.Workflow, schema: c.schema()}
	cp, err := cfg.Checkpointer.Load(ctx, id)
	switch {
	case errors.Is(err, ErrNoCheckpoint):
		return sess, nil, nil
	case err != nil:
		return nil, nil, err
	case cp.Workflow != c.Workflow:
		return nil, nil, SessionErr(id, fmt.Errorf("its checkpoint is a run of workflow %q, not %q", cp.Workflow, c.Workflow))
	case cp.Status == StatusStopped:
		return nil, nil, SessionErr(id, session.ErrStopped)
	}
	if err := c.checkSchema(ctx, id, cp.Schema, sess.schema); err != nil {
		return nil, nil, err
	}
	sess.step, sess.vars, sess.spent, sess.redrives = cp.Step, cp.Position.Vars, cp.Position.Spent, cp.Position.Redrives
	sess.held = heldTokens(&cp.Position)
	sess.decisions = recordedDecisions(cp)
	sess.rewait = unanswered(cp)
	if cp.Status != StatusSucceeded && cp.Position.FanOut != nil {
		sess.fanOut, sess.fanOutAt = cp.Position.FanOut, cp.Position.State
	}
	if cp.Status != StatusSucceeded {
		sess.inside, sess.insideAt = cp.Position.Inside, cp.Position.State
	}
	if cp.Status != StatusSucceeded {
		sess.timer = cp.Position.Timer
	}
	return sess, cp, nil
}

func (c *Sessions[S, U]) decode(cp *Checkpoint) (S, error) {
	var s S
	var err error
	if c.Decode != nil {
		s, err = c.Decode(cp.State)
	} else {
		dec := json.NewDecoder(bytes.NewReader(cp.State))
		dec.DisallowUnknownFields()
		err = dec.Decode(&s)
	}
	if err != nil {
		return s, SessionErr(cp.Session, fmt.Errorf("its checkpoint holds a state that does not decode: %w", err))
	}
	return s, nil
}

// Session is one run of a workflow under a session id. Generated code saves
// a checkpoint through it after every state; it also carries what a
// resumed run needs: the decision Decide was given and the progress of an
// unfinished fan-out. A nil *Session saves nothing, which is how Run runs.
type Session struct {
	cfg      *Config
	id       string
	workflow string
	schema   string

	decisions map[string]string // the decisions recorded for stops, by key, each used once
	fanOut    *FanOutProgress   // the unfinished fan-out at state fanOutAt, restored once
	fanOutAt  string
	vars      json.RawMessage // a States Language run's variables: restored, then to save
	inside    []ChildPosition // where a States Language run resumes inside the children of state insideAt
	insideAt  string
	timer     *DurableTimer            // the sleep the checkpoint was saved in, taken once
	dueAt     *DurableTimer            // when the decision of the approval the run stops at is due
	spent     []spentToken             // the task tokens whose waits have ended
	events    []session.Event          // the history since the last save, saved with the next
	held      map[string]*CallbackWait // the waits the last checkpoint holds, by token hash
	// rewait are the approvals the last checkpoint waits at with no
	// answer, by key: a run that reaches one only asks again, which the
	// history does not repeat (as held does for task tokens).
	rewait   map[string]bool
	redrives int // the runs that went on from a failed checkpoint

	mu      sync.Mutex      // the branches of a fan-out save from their own goroutines
	step    int             // checkpoints saved so far
	at      Position        // where the run is: the last checkpoint's position, or where the run started
	atState json.RawMessage // and the state saved with it
	atValue any             // or, before the run's first save, the state it started on
}

// UnknownState is the error of a checkpoint whose position names no state
// the workflow can resume at. Only a session's runs start elsewhere than
// at the start state, but it answers for a nil *Session too.
func (s *Session) UnknownState(state string) error {
	if s == nil {
		return fmt.Errorf("no state %q to run", state)
	}
	return SessionErr(s.id, fmt.Errorf("its checkpoint is at state %q, which workflow %q cannot resume at", state, s.workflow))
}

// Save records the outcome of a state. Without an error, the run goes on at
// next (the id of the state to run next, "" once the run has finished) with
// the state: that is the checkpoint. An *Interrupted error saves the run
// waiting at the approval state, and is returned. Other errors are returned
// as they are and save nothing here: the run's end saves the session
// failed at the last checkpoint's position (fail), so that a redrive
// retries the state that failed.
func (s *Session) Save(ctx context.Context, next string, state any, err error) error {
	var wait *Interrupted
	switch {
	case s == nil:
		return err
	case errors.As(err, &wait) && wait.Session != "":
		return err // saved already, by the compiled-in child it waits in
	case errors.As(err, &wait) && wait.At != nil:
		// Inside a fan-out: the fan-out state waits, on its raw input.
		wait.Session = s.id
		s.recordStops(wait.Stops)
		pos := Position{State: wait.At.State, Vars: s.vars, FanOut: wait.At.FanOut}
		if serr := s.Put(ctx, pos, wait.At.Input, wait.Stops); serr != nil {
			return serr
		}
		return err
	case errors.As(err, &wait):
		wait.Session = s.id
		pending := &Pending{State: wait.State, Prompt: wait.Prompt, Options: wait.Options}
		s.recordStops([]Pending{*pending})
		if serr := s.SaveAt(ctx, Position{State: wait.State, Vars: s.vars}, state, pending); serr != nil {
			return serr
		}
		return err
	case err != nil:
		return err
	}
	data, merr := json.Marshal(state)
	if merr != nil {
		return fmt.Errorf("saving the checkpoint of session %q: %w", s.id, merr)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.recordLocked(session.KindStateSucceeded, s.at.State, outputField(data))
	return s.putLocked(ctx, Position{State: next, Vars: s.vars}, data, nil)
}

// SaveAt saves the run at pos on state, waiting for pending when it is
// not nil.
func (s *Session) SaveAt(ctx context.Context, pos Position, state any, pending *Pending) error {
	data, err := json.Marshal(state)
	if err != nil {
		return fmt.Errorf("saving the checkpoint of session %q: %w", s.id, err)
	}
	var stops []Pending
	if pending != nil {
		stops = []Pending{*pending}
	}
	return s.Put(ctx, pos, data, stops)
}

// Put writes one checkpoint, waiting at stops when there are any; the
// step counter makes the order of a session's checkpoints visible.
func (s *Session) Put(ctx context.Context, pos Position, state json.RawMessage, stops []Pending) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.putLocked(ctx, pos, state, stops)
}

// putLocked is put for a caller that holds s.mu.
func (s *Session) putLocked(ctx context.Context, pos Position, state json.RawMessage, stops []Pending) error {
	var pending *Pending
	if len(stops) > 0 {
		pending = &stops[0] // the others are in pos.FanOut
	}
	s.at, s.atState, s.atValue, s.timer = pos, state, nil, nil // a new position: any timer restored is over
	if pending != nil && pos.Timer == nil {
		pos.Timer = s.takeDue(pending.State)
	}
	status := StatusRunning
	switch {
	case pos.Failure != nil:
		status = StatusFailed
	case pending != nil:
		status = StatusInterrupted
	case pos.Callback != nil, pos.Progress().WaitsForToken():
		status = StatusWaiting
	case pos.State == "":
		status = StatusSucceeded
	}
	s.step++
	held := heldTokens(&pos)
	s.recordIssued(&pos, held)
	s.spent, s.held = spend(s.spent, s.held, held), held
	pos.Spent, pos.Redrives = slices.Clone(s.spent), s.redrives
	if status == StatusSucceeded {
		s.recordLocked(session.KindRunSucceeded, "", outputField(state))
	}
	events := s.events
	s.events = nil
	err := s.cfg.Checkpointer.Save(ctx, &Checkpoint{
		Session:  s.id,
		Workflow: s.workflow,
		Schema:   s.schema,
		Step:     s.step,
		Status:   status,
		Position: pos,
		State:    state,
		Pending:  pending,
		Time:     s.cfg.RunClock().Now().UTC(),
		Events:   events,
	})
	if err != nil {
		return &storeError{err}
	}
	return nil
}

// takeDecision returns, once, the decision recorded for the stop key
// names.
func (s *Session) takeDecision(key string) (string, bool) {
	if s == nil {
		return "", false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	d, ok := s.decisions[key]
	delete(s.decisions, key)
	return d, ok
}

// InFanOut reports whether the run resumes inside the fan-out that state
// opens: the state's handler has run, and its update is in the saved state,
// so generated code goes straight to the fan-out.
func (s *Session) InFanOut(state string) bool {
	return s != nil && s.fanOut != nil && s.fanOutAt == state
}

// fanOutRun is the progress of a running fan-out, saved with a checkpoint
// each time a branch or item finishes. A nil *fanOutRun has nothing done
// and saves nothing, which is how a run without a session fans out.
type fanOutRun struct {
	sess     *Session
	state    string
	start    json.RawMessage // the state the branches started from
	restored []bool          // finished before the run was resumed; read-only
	mu       sync.Mutex
	done     map[int]json.RawMessage
}

// StartFanOut begins the fan-out that state opens: s is the state its
// branches or items start from, recs are their records. It saves a
// checkpoint, so that resuming does not run the state's handler again;
// when the run resumes inside this fan-out, it restores into recs what the
// finished branches recorded. With a nil sess it does nothing.
func StartFanOut[S, U any](ctx context.Context, sess *Session, state string, s *S, recs *Records[U]) (*fanOutRun, error) {
	if sess == nil {
		return nil, nil
	}
	start, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("saving the checkpoint of session %q: %w", sess.id, err)
	}
	n := len(recs.Lists())
	f := &fanOutRun{sess: sess, state: state, start: start, restored: make([]bool, n), done: map[int]json.RawMessage{}}
	if sess.InFanOut(state) {
		for _, i := range slices.Sorted(maps.Keys(sess.fanOut.Done)) {
			raw := sess.fanOut.Done[i]
			if i < 0 || i >= n {
				return nil, SessionErr(sess.id, fmt.Errorf("its checkpoint holds branch %d of the fan-out at %q, which has %d", i, state, n))
			}
			if err := json.Unmarshal(raw, recs.Of(i)); err != nil {
				return nil, SessionErr(sess.id, fmt.Errorf("its checkpoint holds updates of the fan-out at %q that do not decode: %w", state, err))
			}
			f.restored[i], f.done[i] = true, raw
		}
		sess.fanOut, sess.fanOutAt = nil, ""
	}
	return f, f.save(ctx)
}

// Done reports whether branch or item i finished before the run was
// resumed; its updates are in its record already.
func (f *fanOutRun) Done(i int) bool { return f != nil && f.restored[i] }

// Finish saves the updates branch or item i recorded, rec (a *[]Update),
// with a checkpoint.
func (f *fanOutRun) Finish(ctx context.Context, i int, rec any) error {
	if f == nil {
		return nil
	}
	raw, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("saving the checkpoint of session %q: %w", f.sess.id, err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.done[i] = raw
	return f.save(ctx)
}

// save writes the fan-out's checkpoint; callers other than StartFanOut
// hold f.mu. It saves even once a sibling's failure has canceled ctx:
// what finished is kept, and a redrive does not run it again.
func (f *fanOutRun) save(ctx context.Context) error {
	return f.sess.Put(context.WithoutCancel(ctx), Position{State: f.state, FanOut: &FanOutProgress{Done: f.done}}, f.start, nil)
}

// NoDecisions is the error of a decision sent to session id of a workflow
// that never stops for one, and so has no Decide.
func NoDecisions(id, workflow string) error {
	return SessionErr(id, fmt.Errorf("workflow %q has no approval or interrupt: nothing waits for a decision", workflow))
}
