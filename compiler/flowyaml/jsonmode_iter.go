package flowyaml

import (
	"slices"

	"gopkg.in/yaml.v3"

	"github.com/flowc-dev/flowc/ir"
)

// Iteration chains that branch. CodeMie lets a switch inside an iteration
// chain carry the chain's iter_key on its cases: each item then goes on at
// the case that matches. The chain is no longer a line but the states
// reached from its first one, until the state after the chain, which
// every state that leaves the chain (one whose transition carries no
// iter_key) must go to.

// caseIter reads the iter_key of a switch case, which only JSON mode has.
func (l *lowerer) caseIter(n *yaml.Node) *ir.Iter {
	if n == nil {
		return nil
	}
	if !l.json {
		l.Diags.Errorf(l.Pos(n), "`iter_key` on a switch case belongs to CodeMie workflows, which have no `state:` schema")
		return nil
	}
	key, ok := l.String(n, "iter_key")
	if !ok {
		return nil
	}
	it := &ir.Iter{Pos: l.ContentPos(n), Key: key}
	path, why := parseIterKey(key)
	if why != "" {
		l.Diags.Errorf(it.Pos, "invalid iter_key %q: %s", key, why)
		return nil
	}
	it.Path = path
	return it
}

// caseIters lists the switch cases of s that carry an iter_key.
func caseIters(s *ir.State) []*ir.Case {
	var out []*ir.Case
	for _, c := range s.Next.Cases {
		if c.Iter != nil {
			out = append(out, c)
		}
	}
	return out
}

// branchingChain finds the states of an iteration chain that a switch
// inside it branches: those reached from its first state through
// transitions that carry its iter_key (a switch with such cases goes on
// to all of its targets), in the order they are reached.
func (l *lowerer) branchingChain(g *graph, start *ir.State, r *ir.Region) *ir.Region {
	key := start.Next.Iter.Key
	r.Body = nil
	seen := map[string]bool{}
	queue := []ir.Ref{start.Next.To}
	after := ir.Ref{}
	for len(queue) > 0 {
		ref := queue[0]
		queue = queue[1:]
		if seen[ref.ID] {
			continue
		}
		seen[ref.ID] = true
		r.Body = append(r.Body, ref)
		g.chained[ref.ID] = true
		st := g.byID[ref.ID]
		next, ok := l.chainNext(st, key)
		if !ok {
			return nil
		}
		if next != nil {
			queue = append(queue, next...)
			continue
		}
		exit, ok := l.chainEnd(start, st)
		switch {
		case !ok:
			return nil
		case after.ID != "" && exit.ID != after.ID:
			l.Diags.Errorf(exit.Pos, "state %q leaves the iteration chain that starts at %q for %q, but another of its states leaves it for %q; an iteration chain has one state after it",
				st.ID, start.ID, exit.ID, after.ID)
			return nil
		}
		after = exit
	}
	r.After = after
	return r
}

// chainNext returns where a state of the chain goes on inside it; nil
// when it leaves the chain. A switch that carries the iter_key on some
// cases keeps all of its targets in the chain.
func (l *lowerer) chainNext(st *ir.State, key string) ([]ir.Ref, bool) {
	t := st.Next
	var iters []*ir.Iter
	var targets []ir.Ref
	switch {
	case t.Iter != nil:
		iters, targets = []*ir.Iter{t.Iter}, []ir.Ref{t.To}
	case len(caseIters(st)) > 0:
		for _, c := range t.Cases {
			targets = append(targets, c.To)
			if c.Iter != nil {
				iters = append(iters, c.Iter)
			}
		}
		if t.Default != nil {
			targets = append(targets, *t.Default)
		}
	default:
		return nil, true
	}
	for _, it := range iters {
		if it.Key != key {
			l.Diags.Errorf(it.Pos, "state %q continues the iteration over `%s`, but its iter_key is `%s`; every state of an iteration chain carries the same iter_key", st.ID, key, it.Key)
			return nil, false
		}
	}
	for _, to := range targets {
		if to.IsEnd() {
			l.Diags.Errorf(to.Pos, "state %q inside an iteration chain ends the run; its states must reach the state after the chain", st.ID)
			return nil, false
		}
	}
	return targets, true
}

// finish_iteration: a state inside an iteration chain whose own iter_key
// starts an iteration over its output. CodeMie then iterates the new items
// instead of the old ones. Here each item's output opens its own
// iteration, inside the item (JSON mode joins a fan-out into the item's
// copy, which the outer join merges in turn), and the outer chain ends
// there: its state after is the inner chain's.

// finishesIteration reports whether s ends the iteration it is in by
// starting one over its own output.
func finishesIteration(s *ir.State) bool {
	return s != nil && s.Next.Iter != nil && s.CodeMie != nil && s.CodeMie.FinishIteration
}

// finishedChain ends the chain of r at last, whose own iteration decides
// the state after both.
func (l *lowerer) finishedChain(g *graph, last *ir.State, r *ir.Region) *ir.Region {
	inner := l.mapRegion(g, last)
	if inner == nil {
		return nil
	}
	r.After = inner.After
	return r
}

// iter_key beside a condition. CodeMie adds an edge for the condition and
// none for the iteration (workflow.py, _process_transition: only a
// `state_id` transition calls continue_iteration), so no item is sent
// anywhere; but find_map_nodes still makes the condition's `then` a state
// that reads the current item, which is missing outside an iteration: the
// agent node (agent_node.py, get_task) ends its task with "Current task: "
// and nothing after it.
func (l *lowerer) conditionIter(t *ir.Transition, keyNode *yaml.Node) {
	l.Diags.Warnf(l.Pos(keyNode), "`iter_key` beside `condition` starts no iteration, as in CodeMie: the condition chooses the next state, and %q, its `then`, runs once with \"Current task: \" ending its task",
		t.Then.ID)
	l.itemless = append(l.itemless, t.Then.ID)
}

// currentTaskSuffix ends the task of each assistant state that CodeMie
// reads an item for outside any iteration with "Current task: " (see
// conditionIter); an empty task is "-" there, as the agent node sends it.
// A state that some iteration also runs gets its item at run time instead.
func (l *lowerer) currentTaskSuffix(w *ir.Workflow) {
	for _, id := range l.itemless {
		i := slices.IndexFunc(w.States, func(s *ir.State) bool { return s.ID == id })
		if i < 0 || !l.runsAssistant(w.States[i]) || iterationTargets(w)[id] {
			continue
		}
		s := w.States[i]
		if s.Task == "" {
			s.Task, s.TaskParts = "-", []ir.TemplatePart{{Text: "-"}}
		}
		s.Task += currentTaskLine
		s.TaskParts = append(s.TaskParts, ir.TemplatePart{Text: currentTaskLine})
	}
}

// currentTaskLine is what CodeMie's agent node appends to the task of a
// state that reads an item, before the item.
const currentTaskLine = "\nCurrent task: "

// runsAssistant reports whether s names an assistant_id.
func (l *lowerer) runsAssistant(s *ir.State) bool {
	return slices.ContainsFunc(l.linked, func(ln link) bool { return ln.state == s && ln.key == "assistant_id" })
}

// iterationTargets are the states an iteration sends items to: CodeMie's
// map nodes (workflow.py, find_map_nodes), and the cases of a switch that
// carry an iter_key.
func iterationTargets(w *ir.Workflow) map[string]bool {
	out := map[string]bool{}
	for _, s := range w.States {
		if s.Next == nil {
			continue
		}
		if s.Next.Iter != nil {
			out[s.Next.To.ID] = true
		}
		for _, c := range caseIters(s) {
			out[c.To.ID] = true
		}
	}
	return out
}
