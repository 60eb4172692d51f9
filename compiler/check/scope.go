package check

import (
	"strings"

	"github.com/flowc-dev/flowc/ir"
)

// scope is a set of states whose transitions stay among them, checked on
// its own: the whole workflow in every dialect but the States Language,
// where each machine is one (the state machine, a Parallel branch, a Map
// iterator, a compiled-in child), and its StartAt, Next, Default, choice
// rules and catchers must name states of that machine.
type scope struct {
	start  ir.Ref
	states []*ir.State
	byID   map[string]*ir.State // the states with a usable id, by id
	broken bool                 // some reference names no state of the scope
	// prefix begins every id of a compiled-in child: the front-end renamed
	// its states after the state that runs it ("Run/One" for One, in
	// compiler/asl's prefixIDs), apart from the including file's, and
	// diagnostics name them as the child's own file does.
	prefix string
}

func newScope(start ir.Ref, states []*ir.State, prefix string) *scope {
	return &scope{start: start, states: states, byID: map[string]*ir.State{}, prefix: prefix}
}

// scopes lists the scopes of w, outermost first.
func scopes(w *ir.Workflow) []*scope {
	top := newScope(w.Start, w.States, "")
	if w.Mode != ir.ModeASL {
		return []*scope{top}
	}
	return appendMachines(nil, top)
}

// appendMachines appends the machine sc, when it has a start, then every
// machine nested in its states. A machine without StartAt (its start has
// no position) was reported by the front-end; with no start, there is
// nothing to resolve or reach from.
func appendMachines(out []*scope, sc *scope) []*scope {
	if sc.start.Pos.IsValid() {
		out = append(out, sc)
	}
	for _, s := range sc.states {
		if s.ASL == nil {
			continue
		}
		prefix := sc.prefix
		if inc := s.ASL.Include; inc != nil && inc.Inline {
			prefix = s.ID + "/"
		}
		for _, m := range s.ASL.Branches {
			out = appendMachines(out, newScope(m.Start, m.States, prefix))
		}
	}
	return out
}

// name is a state id as the scope's own file writes it.
func (sc *scope) name(id string) string { return strings.TrimPrefix(id, sc.prefix) }

// names lists the ids of the scope's states, as its file writes them.
func (sc *scope) names() []string {
	ids := make([]string, 0, len(sc.states))
	for _, s := range sc.states {
		ids = append(ids, sc.name(s.ID))
	}
	return ids
}
