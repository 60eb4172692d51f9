package plan

import (
	"github.com/flowc-dev/flowc/internal/naming"
	"github.com/flowc-dev/flowc/ir"
)

// Names holds the identifiers of one workflow's generated code.
type Names struct {
	Workflow string // Triage
	State    string // TriageState
	Update   string // TriageUpdate
	Handlers string // TriageHandlers
	Into     string // TriageHandlersInto: the optional in-place form of Handlers' update methods
	Mock     string // TriageMock
	Step     string // triageStep
	Prefix   string // triage: prefix of unexported package-level names
	vars     map[stateVar]string
}

// stateVar is a package-level variable of one state: its "Policy" (typed
// mode) or its "Prompt" (task chains).
type stateVar struct {
	state *ir.State
	kind  string
}

// newNames names the identifiers of w's generated code.
func newNames(w *ir.Workflow) Names {
	n := Names{
		Workflow: w.Name,
		State:    w.Name + "State",
		Update:   w.Name + "Update",
		Handlers: w.Name + "Handlers",
		Into:     w.Name + "HandlersInto",
		Mock:     w.Name + "Mock",
		Step:     naming.Unexported(w.Name) + "Step",
		Prefix:   naming.Unexported(w.Name),
	}
	n.vars = n.stateVars(w.States)
	return n
}

// stateVars names each state's variables prefix + GoName + kind, numbered
// where that is a step constant: the policy of state "step_foo" and the
// step of state "foo_policy" would both be triageStepFooPolicy.
func (n Names) stateVars(states []*ir.State) map[stateVar]string {
	var used naming.Namer
	for _, s := range states {
		used.Reserve(n.StepConst(s))
		if s.Handler != nil {
			used.Reserve(n.CallConst(s.Handler.Name))
		}
	}
	out := make(map[stateVar]string, 2*len(states))
	for _, kind := range []string{"Policy", "Prompt"} {
		for _, s := range states {
			out[stateVar{s, kind}] = used.Fresh(n.Prefix + s.GoName + kind)
		}
	}
	return out
}

// StepConst is the enum value of a state; the zero value means "finished".
func (n Names) StepConst(s *ir.State) string { return n.Step + s.GoName }

func (n Names) EndConst() string { return n.Prefix + "Done" }

func (n Names) PolicyVar(s *ir.State) string { return n.vars[stateVar{s, "Policy"}] }

func (n Names) IdsVar() string { return n.Prefix + "StateIDs" }

// The run loop's table of plain states, and the names of their handlers.
func (n Names) PlainVar() string { return n.Prefix + "Plain" }

func (n Names) CallType() string { return n.Prefix + "Call" }

func (n Names) NoCall() string { return n.Prefix + "NoCall" }

func (n Names) CallConst(h string) string { return n.Prefix + "Call" + h }

// topFirst puts the states a checkpoint may name before the others, and
// says how many they are.
func topFirst(w *ir.Workflow) ([]*ir.State, int) {
	top := Resumable(w)
	var inner []*ir.State
	for _, s := range w.States {
		if w.RegionOf(s.ID) != nil {
			inner = append(inner, s)
		}
	}
	return append(top, inner...), len(top)
}

// Resumable are the states of w a checkpoint may name, in source order:
// those outside fan-outs (a States Language machine's top-level states,
// since w.States holds no nested one). `flowc breaking` compares them
// across versions without checking either.
func Resumable(w *ir.Workflow) []*ir.State {
	var top []*ir.State
	for _, s := range w.States {
		if w.RegionOf(s.ID) == nil {
			top = append(top, s)
		}
	}
	return top
}
