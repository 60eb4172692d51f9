package plan

import (
	"slices"

	"github.com/flowc-dev/flowc/ir"
)

// Step loops and fan-outs. The generated code runs states in step loops:
// a method that switches on a step, calls the step of that state, and
// goes on at the step it returns, until it reaches its exit. Every
// workflow has a top loop, the first of Plan.Loops; a fan-out runs its
// branches or items in loops of their own (typed mode, the States
// Language) or in the top loop again (JSON mode). Each dialect's file
// derives them (typedLoops, jsonLoops, chainLoops, withASLLoops); the
// generator writes their Go.

// Loop is one step loop.
type Loop struct {
	Method string // the loop's method
	// Entry is the method the loop's callers call: Method, or (a States
	// Language machine a session's run can resume inside) one that finds
	// the step to start at, the machine's start or where a resumed run
	// stopped, and runs Method from there.
	Entry string
	// What is what the loop runs, for its doc: "the state machine",
	// "branch 2 of Parallel state \"P\"", "one item through the chain of
	// the fan-out at \"split\"".
	What   string
	States []*ir.State // the states it runs, in the order of its cases
	// Start is the state a fresh run of it starts at; nil where each
	// caller says (typed mode's Parallel branches).
	Start *ir.State
	// FromStep: the loop takes the step it starts at as a parameter,
	// for a run that goes on from a checkpoint or callers that start it
	// at different states; else it starts at Start.
	FromStep bool
	// Exit is the state the loop stops at: the state after its fan-out;
	// nil: the end of the run or (States Language) of its machine.
	// ExitParam: an `until` parameter says instead (JSON mode's loop,
	// which the run and every branch and item share).
	Exit      *ir.State
	ExitParam bool
	Session   LoopSession
	// FanOut is the fan-out whose branches or items the loop runs, nil
	// for a loop that runs the run itself or a compiled-in child.
	FanOut *FanOut
	// Machine is the States Language machine the loop runs: the state
	// machine, a Parallel branch, a Map iterator or a compiled-in child.
	Machine *ir.Machine
}

// LoopSession is what a loop does with a session's run.
type LoopSession int

const (
	// NoSession: the loop saves nothing, and nothing in it stops the run.
	NoSession LoopSession = iota
	// RunSession: the loop saves a checkpoint of the run after every
	// state, and a resumed run starts it at the step the checkpoint names.
	RunSession
	// ChildSession: a compiled-in States Language child that saves its
	// own checkpoints after every state and resumes at the state they
	// name (the runtime's SaveChild, ResumeChild).
	ChildSession
	// StopSession: a branch or item a session's run can stop in, at an
	// approval or a callback Task, while the others go on. It saves
	// nothing; a resumed run starts it at the step it stopped at, and its
	// waiting states read their answer through the session.
	StopSession
)

// FanOut is a state whose branches or items run at once, each on its own
// copy of the state, joined when all are done.
type FanOut struct {
	From *ir.State // the state that opens it
	// Method runs the whole fan-out and returns the step after it (typed
	// and JSON mode: "parallelSplit", "mapSplit"); "" in the States
	// Language, where the opening state's step runs it.
	Method  string
	Items   bool        // the items of a list, each through a chain; false: fixed branches
	Entries []*ir.State // where each branch starts, or an item's chain
	// Limit is how many branches or items run at once; 0: no bound, or
	// one a States Language Map's MaxConcurrencyPath reads at run time.
	Limit int
	// Exit is where the run goes on after it: the join, the state after
	// the chain, or the end; zero in the States Language, where the
	// opening state's own transition goes on.
	Exit ir.Ref
	// Stops: a session's run can stop inside it, at an approval, a
	// callback Task or an interrupt_before, only the branch or item that
	// waits stopping (typed mode's StartFanOutStops, JSON mode's
	// FanOutStops); then several stops may wait at once (DecideAt).
	Stops bool
	// Loops run its branches or items: one for all of them, or (States
	// Language) one per branch.
	Loops  []*Loop
	Region *ir.Region // typed and JSON mode: the region it runs
}

// loopIndex finds the loops and fan-outs of IR parts.
type loopIndex struct {
	fanOuts  map[string]*FanOut    // by the id of the state that opens it
	machines map[*ir.Machine]*Loop // States Language
	saved    map[*ir.State]bool    // States Language: see Checkpointed
}

// FanOutAt is the fan-out state id opens; nil when it opens none.
func (p *Plan) FanOutAt(id string) *FanOut { return p.index.fanOuts[id] }

// MachineLoop is the loop of a States Language machine.
func (p *Plan) MachineLoop(m *ir.Machine) *Loop { return p.index.machines[m] }

// StopsInFanOuts reports whether a session's run can stop inside a
// fan-out, where several stops may wait at once.
func (p *Plan) StopsInFanOuts() bool {
	return slices.ContainsFunc(p.FanOuts, func(f *FanOut) bool { return f.Stops })
}

// Checkpointed reports whether a session saves a checkpoint after States
// Language state s: a top-level one or one of a compiled-in child it
// runs, at any depth, but none inside a Parallel branch or Map iterator.
// A run that waits at such a state stops with a checkpoint there;
// elsewhere only its branch stops.
func (p *Plan) Checkpointed(s *ir.State) bool { return p.index.saved[s] }

// withLoops sets the loops and fan-outs of p, and indexes the fan-outs.
func (p *Plan) withLoops(loops []*Loop, fanOuts []*FanOut) *Plan {
	p.Loops, p.FanOuts = loops, fanOuts
	p.index.fanOuts = map[string]*FanOut{}
	for _, f := range fanOuts {
		p.index.fanOuts[f.From.ID] = f
	}
	return p
}

// regionFanOuts are the fan-outs of a typed or JSON-mode workflow, in the
// order of the states that open them, each bounded by its region's
// max_concurrency; stops says whether a session's run can stop inside
// one, loop the loop each runs in.
func regionFanOuts(w *ir.Workflow, stops func(*ir.Region) bool, loop func(*FanOut) *Loop) []*FanOut {
	var out []*FanOut
	for _, s := range w.States {
		r := s.Next.Region
		if r == nil {
			continue
		}
		f := &FanOut{From: s, Method: regionMethod(s, r), Items: r.Kind == ir.RegionMap, Limit: r.MaxConcurrency,
			Exit: regionExit(r), Stops: stops(r), Region: r}
		for _, b := range append(slices.Clip(r.Branches), r.Body) {
			if len(b) > 0 {
				f.Entries = append(f.Entries, w.State(b[0].ID))
			}
		}
		f.Loops = []*Loop{loop(f)}
		out = append(out, f)
	}
	return out
}

// regionMethod runs a whole region and returns the step after it.
func regionMethod(from *ir.State, r *ir.Region) string {
	if r.Kind == ir.RegionMap {
		return "map" + from.GoName
	}
	return "parallel" + from.GoName
}

// regionExit is where a region's states go when they are done.
func regionExit(r *ir.Region) ir.Ref {
	if r.Kind == ir.RegionMap {
		return r.After
	}
	return r.Join
}

// stateOf is the state r names; nil for the end of the run.
func stateOf(w *ir.Workflow, r ir.Ref) *ir.State {
	if r.IsEnd() {
		return nil
	}
	return w.State(r.ID)
}
