package asl

import (
	"gopkg.in/yaml.v3"

	"github.com/flowc-dev/flowc/compiler/yamlx"
	"github.com/flowc-dev/flowc/ir"
)

// Two rules on the transitions of each machine (the state machine, a
// Parallel branch, a Map iterator) that AWS enforces when it creates a
// state machine and awslabs/statelint checks (lib/statelint/state_node.rb,
// check_for_terminal and the incoming transitions of StateNode#check):
// some state ends the machine, and every state but the start is the
// target of a transition. AWS means "named by a transition", not "reached
// from the start": its MISSING_TRANSITION_TARGET error names a state
// nothing points to, and not the states that one leads to
// (aws-cloudformation/cfn-lint#4074).

// checkTransitions applies both rules to a machine whose references all
// name its states; a broken one the checker reports, and the state it was
// meant to name, terminal or not, is not held against the machine. A
// module's exports are entered from outside it.
func (l *lowerer) checkTransitions(mc *ir.Machine, states *yaml.Node, module bool) {
	defined := map[string]bool{}
	for _, s := range mc.States {
		defined[s.ID] = true
	}
	named := map[string]bool{}
	for _, r := range machineRefs(mc) {
		if !defined[r.ID] {
			return
		}
		named[r.ID] = true
	}
	l.checkTerminal(mc, states)
	if module {
		return
	}
	for _, s := range mc.States {
		if !named[s.ID] {
			l.Diags.Errorf(s.Pos, "state %q is never entered: no StartAt, Next, Default, choice rule or catcher names it", s.ID)
		}
	}
}

// checkTerminal reports a machine without a terminal state: a Succeed or
// Fail state, or one with `"End": true` (or, in the Agent State Language,
// an outcome label), so that no run of it can finish.
func (l *lowerer) checkTerminal(mc *ir.Machine, states *yaml.Node) {
	if len(mc.States) == 0 {
		return // reported: `States` needs at least one state
	}
	for _, s := range mc.States {
		if s.Next.Kind == ir.TransEnd {
			return
		}
	}
	l.Diags.Errorf(l.Pos(states), "no terminal state: every state of this machine goes on to another, so it can never finish; "+
		"end one with `\"End\": true` or go to a Succeed or Fail state")
}

// machineRefs lists the machine's StartAt and every transition of its
// states.
func machineRefs(mc *ir.Machine) []ir.Ref {
	refs := []ir.Ref{mc.Start}
	for _, s := range mc.States {
		for _, c := range s.Catch {
			refs = append(refs, c.Next)
		}
		t := s.Next
		if t.Kind == ir.TransGoto {
			refs = append(refs, t.To)
		}
		for _, c := range t.Cases {
			refs = append(refs, c.To)
		}
		if t.Default != nil {
			refs = append(refs, *t.Default)
		}
	}
	return refs
}

// isModule reports whether the machine is an Agent State Language module,
// whose exports are entered from outside it.
func isModule(m yamlx.Map) bool {
	n := m.Get("Module")
	return n != nil && n.Tag == "!!bool" && n.Value == "true"
}
