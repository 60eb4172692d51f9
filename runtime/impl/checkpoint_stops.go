package impl

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Stops inside fan-outs. A branch or item of a fan-out (a Parallel branch,
// a Map item, a CodeMie iteration) that reaches an approval with nothing to
// answer it stops there, and the others go on: those that finish record
// their result, others may stop too. Once all have finished or stopped, the
// fan-out stops with one *Interrupted that lists every stop, and the
// checkpoint holds the fan-out's progress: what each finished branch
// recorded and, for each stopped one, where it waits (BranchStop). Each
// stop has a key naming its path, "<fan-out state>/<index>/<state>", nested
// as deep as the fan-outs are (e.g. "Outer/1/Inner/0/Approve"). Answering
// one resumes the fan-out: finished branches are not run again, the
// answered one goes on from its stop, the others that wait stop again.

// branchScope is the branch or item of a fan-out that a context runs in,
// in a session's run.
type branchScope struct {
	prefix string      // the key of its states without their name: "Map/3/"
	resume *BranchStop // where the branch goes on, until its run loop takes it
	// at is taken by the run loop: the state it resumes at, whose fan-out
	// may take it, or whose compiled-in child then takes its Child.
	At    *BranchStop
	Depth int // the compiled-in children around the branch; more are inside it (asl/resume.go)
}

type branchScopeKey struct{}

// childDepthKey holds how many compiled-in children (States Language) deep
// the context runs: a fan-out inside one is saved by the state that runs
// the child, and the stops of a branch are told apart by it.
type childDepthKey struct{}

// WithChildDepth returns ctx, running depth compiled-in children deep.
func WithChildDepth(ctx context.Context, depth int) context.Context {
	return context.WithValue(ctx, childDepthKey{}, depth)
}

func childDepth(ctx context.Context) int {
	depth, _ := ctx.Value(childDepthKey{}).(int)
	return depth
}

func BranchOf(ctx context.Context) *branchScope {
	sc, _ := ctx.Value(branchScopeKey{}).(*branchScope)
	return sc
}

// StopKey is the key of a stop at state in the branch ctx runs in.
func StopKey(ctx context.Context, state string) string {
	if sc := BranchOf(ctx); sc != nil {
		return sc.prefix + state
	}
	return state
}

// TakeResume returns, once, where the branch ctx runs in goes on; nil
// when it starts at its start.
func TakeResume(ctx context.Context) *BranchStop {
	sc := BranchOf(ctx)
	if sc == nil || sc.resume == nil {
		return nil
	}
	stop := sc.resume
	sc.resume, sc.At = nil, stop
	return stop
}

// OpenFanOut is the progress of one fan-out in a session's run: its key,
// what the checkpoint it resumes from says of it, and what its branches
// did in this run. A nil *OpenFanOut (a run without a session) records
// nothing, and its branches cannot stop.
type OpenFanOut struct {
	key      string
	restored *FanOutProgress
	mu       sync.Mutex
	done     map[int]json.RawMessage
	stopped  map[int]*BranchStop
	pending  map[int][]Pending
	save     func(ctx context.Context) error // saves the progress; nil: not at the top level
}

// OpenStops begins the fan-out state opens in the run of ctx, restoring
// its progress when the run resumes inside it: from the branch ctx runs
// in, or, at the top level, from the session.
func OpenStops(ctx context.Context, sess *Session, state string) *OpenFanOut {
	if sess == nil || EngineOf(ctx) != nil {
		return nil
	}
	f := &OpenFanOut{key: StopKey(ctx, state), done: map[int]json.RawMessage{}, stopped: map[int]*BranchStop{}, pending: map[int][]Pending{}}
	if sc := BranchOf(ctx); sc != nil {
		if at := sc.At; at != nil && at.State == state && at.FanOut != nil {
			f.restored, sc.At = at.FanOut, nil
		}
		return f
	}
	sess.mu.Lock()
	defer sess.mu.Unlock()
	if sess.fanOut != nil && sess.fanOutAt == state {
		f.restored, sess.fanOut, sess.fanOutAt = sess.fanOut, nil, ""
	}
	return f
}

// Durable makes a fan-out at the top level of a session's run save its
// progress each time a branch finishes or stops, so that a run that
// crashes or fails inside it runs again only the branches that had not
// finished: the checkpoint names state, on input (its JSON), and in JSON
// mode keeps out, the output of the state. A fan-out inside a branch or a
// compiled-in child is saved by the fan-out or state around it.
func (f *OpenFanOut) Durable(ctx context.Context, sess *Session, state string, input any, out json.RawMessage) error {
	if f == nil || BranchOf(ctx) != nil || childDepth(ctx) > 0 {
		return nil
	}
	data, err := json.Marshal(input)
	if err != nil {
		return fmt.Errorf("saving the input of %q: %w", state, err)
	}
	f.save = func(ctx context.Context) error {
		progress := (&FanOutProgress{Done: f.done, Stopped: f.stopped, Output: out}).Clone()
		return sess.Put(ctx, Position{State: state, Vars: sess.vars, FanOut: progress}, data, nil)
	}
	return nil
}

// Finished returns what branch i recorded when it finished before the run
// was resumed.
func (f *OpenFanOut) Finished(i int) (json.RawMessage, bool) {
	if f == nil || f.restored == nil {
		return nil, false
	}
	raw, ok := f.restored.Done[i]
	if ok {
		f.mu.Lock()
		f.done[i] = raw
		f.mu.Unlock()
	}
	return raw, ok
}

// Branch returns the context branch i runs in: its stops are keyed under
// the fan-out's, and it resumes where the checkpoint says it stopped.
func (f *OpenFanOut) Branch(ctx context.Context, i int) context.Context {
	if f == nil {
		return ctx
	}
	sc := &branchScope{prefix: f.key + "/" + strconv.Itoa(i) + "/", Depth: childDepth(ctx)}
	if f.restored != nil {
		sc.resume = f.restored.Stopped[i]
	}
	return context.WithValue(ctx, branchScopeKey{}, sc)
}

// Settle records how branch i ended: its result rec when it finished, or
// where it waits when it stopped, which is then no failure of the fan-out.
// Other errors are returned.
func (f *OpenFanOut) Settle(ctx context.Context, i int, rec any, err error) error {
	if f == nil {
		return err
	}
	var wait *Interrupted
	if errors.As(err, &wait) && wait.At != nil {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.stopped[i], f.pending[i] = wait.At, wait.Stops
		return f.saved(ctx)
	}
	if err != nil {
		return err
	}
	raw, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("saving the result of branch %d of %q: %w", i, f.key, err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.done[i] = raw
	return f.saved(ctx)
}

// saved saves the progress of a durable fan-out; f.mu is held. It saves
// even once a sibling's failure has canceled ctx: what finished is kept,
// and a redrive does not run it again.
func (f *OpenFanOut) saved(ctx context.Context) error {
	if f.save == nil {
		return nil
	}
	return f.save(context.WithoutCancel(ctx))
}

// Interrupted returns, when branches stopped, the *Interrupted of the
// fan-out state: every stop, in branch order, and where the fan-out waits,
// on input (the state's raw input) with vars (its scope's variables, nil
// at the top level, whose variables the checkpoint holds anyway).
func (f *OpenFanOut) Interrupted(state string, input any, vars json.RawMessage) error {
	if f == nil || len(f.stopped) == 0 {
		return nil
	}
	in, err := json.Marshal(input)
	if err != nil {
		return fmt.Errorf("saving the input of %q: %w", f.key, err)
	}
	var stops []Pending
	for _, i := range slices.Sorted(maps.Keys(f.pending)) {
		stops = append(stops, f.pending[i]...)
	}
	wait := &Interrupted{State: state, Key: f.key} // only task tokens wait: ASLExec.Save makes it a *TaskTokenWait
	if len(stops) > 0 {
		wait = &Interrupted{State: stops[0].State, Key: stops[0].Key, Prompt: stops[0].Prompt, Options: stops[0].Options, Stops: stops}
	}
	wait.At = &BranchStop{State: state, Input: in, Vars: vars, FanOut: &FanOutProgress{Done: f.done, Stopped: f.stopped}}
	return wait
}

// StopInBranch turns err, the *Interrupted of an approval at state on raw
// input in the branch ctx runs in, into a stop its fan-out records; vars
// are the variables of the branch's scope. Other errors, and errors of a
// run outside a session's fan-out, are returned as they are.
func StopInBranch(ctx context.Context, err error, state string, raw any, vars json.RawMessage) error {
	var wait *Interrupted
	if BranchOf(ctx) == nil || !errors.As(err, &wait) {
		return err
	}
	in, merr := json.Marshal(raw)
	if merr != nil {
		return fmt.Errorf("saving the input of %q: %w", state, merr)
	}
	p := Pending{Key: StopKey(ctx, state), State: state, Prompt: wait.Prompt, Options: wait.Options}
	return &Interrupted{State: state, Key: p.Key, Prompt: p.Prompt, Options: p.Options, Stops: []Pending{p},
		At: &BranchStop{State: state, Input: in, Vars: vars, Pending: &p, Timer: wait.due}}
}

// branchDeadline is the deadline the stop a branch resumes at keeps for
// the approval at state; nil outside branches, or without one.
func branchDeadline(ctx context.Context, state string) *DurableTimer {
	sc := BranchOf(ctx)
	if sc == nil || sc.At == nil || sc.At.State != state || sc.At.Timer == nil {
		return nil
	}
	t := sc.At.Timer
	sc.At.Timer = nil // once: a later visit of the state is a new wait
	return t
}

// pick returns the stop of c that key names; "" names the only one.
func pick(c *Checkpoint, key string) (*Pending, error) {
	stops := c.Waiting()
	keys := make([]string, len(stops))
	for i := range stops {
		keys[i] = stops[i].StopKey()
		if key != "" && keys[i] == key {
			return &stops[i], nil
		}
	}
	switch {
	case len(stops) == 0:
		return nil, errors.New("no approval waits for a decision")
	case key != "":
		return nil, fmt.Errorf("no stop %q waits for a decision; the stops that wait are %s", key, quoteAll(keys))
	case len(stops) > 1:
		return nil, fmt.Errorf("%d stops wait for a decision, %s: say which one the decision answers (DecideAt, or flowc run --at)", len(stops), quoteAll(keys))
	}
	return &stops[0], nil
}

type decisionKeyKey struct{}

// WithDecisionKey returns a context under which a workflow's Decide
// answers the stop that key names (a Pending's Key), as DecideAt does:
// for callers that hold only Decide, such as the programs `flowc run` and
// `flowc build` make, whose --at gives the key. "" leaves ctx as it is.
func WithDecisionKey(ctx context.Context, key string) context.Context {
	if key == "" {
		return ctx
	}
	return context.WithValue(ctx, decisionKeyKey{}, key)
}

func decisionKey(ctx context.Context) string {
	k, _ := ctx.Value(decisionKeyKey{}).(string)
	return k
}

// stopsText lists the keys of stops for an error message.
func stopsText(stops []Pending) string {
	keys := make([]string, len(stops))
	for i := range stops {
		keys[i] = stops[i].StopKey()
	}
	return strings.Join(keys, ", ")
}

// typedFanOut is the progress of a typed fan-out whose branches or items
// can stop at an approval state, in a session's run. A nil *typedFanOut
// (a run without a session) has nothing done, saves nothing, and its
// branches' stops fail the fan-out as any error does.
type typedFanOut struct {
	sess     *Session
	stops    *OpenFanOut
	start    json.RawMessage // the state the branches started from
	restored []bool          // finished before the run was resumed; read-only
}

// StartFanOutStops begins the fan-out that state opens on s, as
// StartFanOut does, for a fan-out whose branches or items can stop at an
// approval state: it saves a checkpoint, and when the run resumes inside
// this fan-out it restores into recs what the finished branches recorded.
// With a nil sess it does nothing.
func StartFanOutStops[S, U any](ctx context.Context, sess *Session, state string, s *S, recs *Records[U]) (*typedFanOut, error) {
	stops := OpenStops(ctx, sess, state)
	if stops == nil {
		return nil, nil
	}
	start, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("saving the checkpoint of session %q: %w", sess.id, err)
	}
	n := len(recs.Lists())
	f := &typedFanOut{sess: sess, stops: stops, start: start, restored: make([]bool, n)}
	if err := f.restore(state, n, func(i int, raw json.RawMessage) error { return json.Unmarshal(raw, recs.Of(i)) }); err != nil {
		return nil, err
	}
	if err := stops.Durable(ctx, sess, state, start, nil); err != nil {
		return nil, err
	}
	stops.mu.Lock()
	defer stops.mu.Unlock()
	return f, stops.saved(ctx)
}

// restore takes from the checkpoint the branches that finished, decoding
// each one's record with decode, and checks that every branch it names
// is one of the n the fan-out has now.
func (f *typedFanOut) restore(state string, n int, decode func(i int, raw json.RawMessage) error) error {
	r := f.stops.restored
	if r == nil {
		return nil
	}
	for _, i := range slices.Sorted(maps.Keys(r.Stopped)) {
		if i < 0 || i >= n {
			return SessionErr(f.sess.id, fmt.Errorf("its checkpoint holds a stop in branch %d of the fan-out at %q, which has %d", i, state, n))
		}
	}
	for _, i := range slices.Sorted(maps.Keys(r.Done)) {
		raw := r.Done[i]
		if i < 0 || i >= n {
			return SessionErr(f.sess.id, fmt.Errorf("its checkpoint holds branch %d of the fan-out at %q, which has %d", i, state, n))
		}
		if err := decode(i, raw); err != nil {
			return SessionErr(f.sess.id, fmt.Errorf("its checkpoint holds updates of the fan-out at %q that do not decode: %w", state, err))
		}
		f.restored[i], f.stops.done[i] = true, raw
	}
	return nil
}

// Done reports whether branch or item i finished before the run was
// resumed; its updates are in its record already.
func (f *typedFanOut) Done(i int) bool { return f != nil && f.restored[i] }

// BranchAt returns the context branch or item i runs in, whose approval
// states are keyed under the fan-out's, and the step it starts at: entry,
// or, in a run resumed inside it, the state of steps (those of the
// fan-out, named by ids) it stopped at. Then rec holds the updates the
// branch recorded before it stopped, which apply replays on its copy of
// the state.
func BranchAt[T ~int, U any](ctx context.Context, f *typedFanOut, i int, rec *[]U, apply func(*U), ids []string, steps []T, entry T) (context.Context, T, error) {
	if f == nil {
		return ctx, entry, nil
	}
	ctx = f.stops.Branch(ctx, i)
	stop := TakeResume(ctx)
	if stop == nil {
		return ctx, entry, nil
	}
	at := slices.IndexFunc(steps, func(step T) bool { return ids[step] == stop.State })
	if at < 0 || stop.Pending == nil {
		return ctx, entry, f.sess.UnknownState(stop.State)
	}
	if err := json.Unmarshal(stop.Input, rec); err != nil {
		return ctx, entry, SessionErr(f.sess.id, fmt.Errorf("its checkpoint holds updates of branch %d of the fan-out at %q that do not decode: %w", i, f.stops.key, err))
	}
	for j := range *rec {
		apply(&(*rec)[j])
	}
	return ctx, steps[at], nil
}

// Settle records how branch or item i, run in ctx (from BranchAt), ended
// with err: when it finished, rec, what it recorded (a *[]Update); when it
// stopped at an approval state, where it waits, with rec as it was there,
// which is no failure of the fan-out. Other errors are returned.
func (f *typedFanOut) Settle(ctx context.Context, i int, rec any, err error) error {
	if f == nil {
		return err
	}
	var wait *Interrupted
	if errors.As(err, &wait) && wait.At == nil {
		raw, merr := json.Marshal(rec)
		if merr != nil {
			return fmt.Errorf("saving the updates of branch %d of %q: %w", i, f.stops.key, merr)
		}
		err = StopInBranch(ctx, err, wait.State, json.RawMessage(raw), nil)
	}
	return f.stops.Settle(ctx, i, rec, err)
}

// Stopped returns, once every branch has finished or stopped, the
// *Interrupted that lists the stops, or nil when none stopped. The run
// loop's Session.Save saves the fan-out waiting with it.
func (f *typedFanOut) Stopped() error {
	if f == nil {
		return nil
	}
	return f.stops.Interrupted(f.stops.key, f.start, nil)
}
