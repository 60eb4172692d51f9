package loop

// The hand-written twins of the generated workflows, and the handlers both
// call. They are not in a test file so that bench/peers can measure Eino
// and Temporal beside the same twins (benchmarks.md, "Peers").

import (
	"context"
)

// AnchorStates is the length of the anchor's loop; a run goes round it ten
// times, one transition per state.
const (
	AnchorStates      = 102
	AnchorTransitions = 10 * AnchorStates
)

// The hand-written loops below do the work of the generated run and
// nothing else: the same handlers, each update folded through the same
// reducers (apply), the same condition (anchorNext) and the same context
// check between states (canceled). The generated run also defers one
// recover per run, which costs nothing measurable per transition. inPlace
// is the exception: its handler changes the state itself, with no update
// and no reducer, the least a loop can do.

// AnchorCount is the generated workflow's only handler: it adds one to n.
type AnchorCount struct{}

func (AnchorCount) Count(context.Context, AnchorState) (AnchorUpdate, error) {
	return AnchorUpdate{}.WithN(1), nil
}

// countInto also has the in-place form of the handler, which the
// generated loop calls instead.
type countInto struct{ AnchorCount }

func (countInto) CountInto(_ context.Context, _ AnchorState, u *AnchorUpdate) error {
	u.SetN(1)
	return nil
}

// The handlers are held in variables, as the generated workflow holds
// them, so that the compiler cannot inline the calls away.
var (
	byValueCount AnchorHandlers     = AnchorCount{}
	intoCount    AnchorHandlersInto = countInto{}
	inPlaceCount inPlaceHandlers    = countInPlace{}
)

// HandAnchor is the anchor's loop written by hand over the generated
// handlers: the state goes in by value and an update comes back.
func HandAnchor(ctx context.Context, h AnchorHandlers, s AnchorState) (AnchorState, error) {
	done := ctx.Done()
	for step := 0; step >= 0; step = anchorNext(step, &s) {
		if canceled(done) {
			return s, ctx.Err()
		}
		u, err := h.Count(ctx, s)
		if err != nil {
			return s, err
		}
		s.apply(&u)
	}
	return s, nil
}

// into is the anchor's loop written by hand over the in-place form of the
// handlers: each writes its update into u, which the loop folds into the
// state and then empties, as the generated loop does.
func into(ctx context.Context, h AnchorHandlersInto, s AnchorState) (AnchorState, error) {
	done := ctx.Done()
	u := new(AnchorUpdate)
	for step := 0; step >= 0; step = anchorNext(step, &s) {
		if canceled(done) {
			return s, ctx.Err()
		}
		if err := h.CountInto(ctx, s, u); err != nil {
			return s, err
		}
		s.apply(u)
		*u = AnchorUpdate{}
	}
	return s, nil
}

// inPlaceHandlers is what a person writing the loop by hand with no
// update type would pass: a handler that changes the state in place.
type inPlaceHandlers interface {
	Count(ctx context.Context, s *AnchorState) error
}

type countInPlace struct{}

func (countInPlace) Count(_ context.Context, s *AnchorState) error {
	s.N++
	return nil
}

// inPlace is the anchor's loop with such a handler: the same states, the
// same context check and the same test at the end.
func inPlace(ctx context.Context, h inPlaceHandlers, s *AnchorState) error {
	done := ctx.Done()
	for step := 0; step >= 0; step = anchorNext(step, s) {
		if canceled(done) {
			return ctx.Err()
		}
		if err := h.Count(ctx, s); err != nil {
			return err
		}
	}
	return nil
}

// anchorNext is the anchor's transition written by hand: the next state,
// or -1 when the run ends.
func anchorNext(step int, s *AnchorState) int {
	switch {
	case step < AnchorStates-1:
		return step + 1
	case s.N >= AnchorTransitions:
		return -1
	}
	return 0
}

// canceled is the generated loop's context check between states: a
// receive from the context's channel that does not block, none when the
// context cannot be canceled (its channel is nil).
func canceled(done <-chan struct{}) bool {
	if done == nil {
		return false
	}
	select {
	case <-done:
		return true
	default:
		return false
	}
}

// anchorTags is shared so that making a state does not allocate.
var anchorTags = []string{"a", "b"}

// AnchorStart is the state an anchor run starts from.
func AnchorStart() AnchorState {
	return AnchorState{Score: 0.5, Note: "anchor", Tags: anchorTags}
}

// Counter is the trivial handlers both loops call.
type Counter struct{}

func (Counter) Tick(context.Context, LoopState) (LoopUpdate, error) {
	return LoopUpdate{}.WithN(1), nil
}
func (Counter) Tock(context.Context, LoopState) (LoopUpdate, error) { return LoopUpdate{}, nil }

// loopCounter is held in a variable, as the generated workflow holds its
// handlers, so that the compiler cannot inline the calls away.
var loopCounter LoopHandlers = Counter{}

// HandLoop is the loop a person would write for the same workflow: a
// switch over the state, the same handlers, every update folded through the
// same reducers (apply), the same condition, and the generated loop's
// context check between states (canceled); nothing more.
func HandLoop(ctx context.Context, h LoopHandlers, s LoopState) (LoopState, error) {
	const (
		end = iota
		tick
		tock
	)
	done := ctx.Done()
	for step := tick; step != end; {
		if canceled(done) {
			return s, ctx.Err()
		}
		switch step {
		case tick:
			u, err := h.Tick(ctx, s)
			if err != nil {
				return s, err
			}
			s.apply(&u)
			step = tock
			if s.N >= s.Limit {
				step = end
			}
		case tock:
			u, err := h.Tock(ctx, s)
			if err != nil {
				return s, err
			}
			s.apply(&u)
			step = tick
		}
	}
	return s, nil
}

// LoopLimit is where a counting loop's run ends.
const LoopLimit = 1000

// LoopTransitions is the transitions of a run: LoopLimit ticks, LoopLimit-1 tocks.
const LoopTransitions = 2*LoopLimit - 1

// Desk is the triage's handlers: classify files the ticket, fix and review
// settle a bug, answer and escalate close it.
type Desk struct{}

func (Desk) Classify(_ context.Context, s TriageState) (TriageUpdate, error) {
	return TriageUpdate{}.WithCategory("bug").WithSteps(1), nil
}

func (Desk) Fix(context.Context, TriageState) (TriageUpdate, error) {
	return TriageUpdate{}.WithStatus("fixed").WithSteps(1), nil
}

func (Desk) Review(context.Context, TriageState) (TriageUpdate, error) {
	return TriageUpdate{}.WithSteps(1), nil
}

func (Desk) Answer(context.Context, TriageState) (TriageUpdate, error) {
	return TriageUpdate{}.WithStatus("answered").WithSteps(1), nil
}

func (Desk) Escalate(context.Context, TriageState) (TriageUpdate, error) {
	return TriageUpdate{}.WithStatus("escalated").WithSteps(1), nil
}

// triageDesk is held in a variable, as the generated workflow holds its
// handlers, so that the compiler cannot inline the calls away.
var triageDesk TriageHandlers = Desk{}

// HandTriage is the triage written by hand: the same handlers, each update
// folded through the same reducers (apply), the same conditions and the
// same context check between states as the generated run.
func HandTriage(ctx context.Context, h TriageHandlers, s TriageState) (TriageState, error) {
	const (
		end = iota
		classify
		fix
		review
		answer
		escalate
	)
	done := ctx.Done()
	for step := classify; step != end; {
		if canceled(done) {
			return s, ctx.Err()
		}
		var u TriageUpdate
		var err error
		switch step {
		case classify:
			u, err = h.Classify(ctx, s)
		case fix:
			u, err = h.Fix(ctx, s)
		case review:
			u, err = h.Review(ctx, s)
		case answer:
			u, err = h.Answer(ctx, s)
		case escalate:
			u, err = h.Escalate(ctx, s)
		}
		if err != nil {
			return s, err
		}
		s.apply(&u)
		switch {
		case step == classify && s.Priority >= 4:
			step = escalate
		case step == classify && s.Category == "bug":
			step = fix
		case step == classify:
			step = answer
		case step == fix:
			step = review
		case step == review && s.Status == "fixed":
			step = answer
		case step == review:
			step = escalate
		default:
			step = end
		}
	}
	return s, nil
}

// Ticket is the triage's input: a bug of priority 2, which goes classify,
// fix, review, answer.
func Ticket() TriageState { return TriageState{Title: "crash on start", Priority: 2} }

// Apply folds u into s through the reducers, as the generated run does
// after each handler; the peers call it after each state's handler.
func (s *LoopState) Apply(u *LoopUpdate) { s.apply(u) }

// Apply folds u into s through the reducers, as the generated run does.
func (s *TriageState) Apply(u *TriageUpdate) { s.apply(u) }

// Apply folds u into s through the reducers, as the generated run does.
func (s *AnchorState) Apply(u *AnchorUpdate) { s.apply(u) }
