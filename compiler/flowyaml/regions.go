package flowyaml

import (
	"slices"
	"strings"

	"github.com/flowc-dev/flowc/ir"
)

// Fan-out lowering. `state_ids` and `iter_key` say only where a fan-out
// starts; the graph says where it ends. Once every state is read, each one
// becomes an ir.Region whose states belong to it alone.
//
// Inside a parallel branch any transition but fan-out may appear (gotos,
// conditions, switches, actions, branches, catch rules), as long as every
// path of the branch stays in it until the join and none ends the run
// before. The join is the first state every branch reaches: the common
// state that no branch can pass another common state to get to. When the
// branches meet nowhere but at the end of the run, they join there.
//
// An iteration chain is a straight line, as CodeMie's documentation has it:
// each state but the last goes on with `state_id` and the same iter_key, and
// the last goes to the state after the chain with a plain `state_id` (or
// ends the run). Catch rules inside it may go to a state of the chain or to the
// state after it.
//
// A fan-out inside a fan-out is rejected: its updates would have to be
// applied to a branch's copy and recorded for the outer join at once.

// graph indexes the states of a workflow for the fan-out analysis.
type graph struct {
	w    *ir.Workflow
	byID map[string]*ir.State
	// continued holds the states an iter_key transition goes to: they
	// continue an iteration chain, so their own iter_key starts nothing.
	continued map[string]bool
	// chained holds the states some iteration chain walked through, even
	// one that turned out malformed.
	chained map[string]bool
}

// newGraph returns nil when a reference names no state or two states share
// an id: the checker reports those, and fan-out errors over a broken graph
// would only add noise.
func newGraph(w *ir.Workflow) *graph {
	g := &graph{w: w, byID: map[string]*ir.State{}, continued: map[string]bool{}, chained: map[string]bool{}}
	for _, s := range w.States {
		if g.byID[s.ID] != nil {
			return nil
		}
		g.byID[s.ID] = s
	}
	for _, s := range w.States {
		for _, r := range exits(s) {
			if !r.IsEnd() && g.byID[r.ID] == nil {
				return nil
			}
		}
		if it := s.Next.Iter; it != nil {
			g.continued[s.Next.To.ID] = true
		}
		for _, c := range caseIters(s) { // JSON mode: jsonmode_iter.go
			g.continued[c.To.ID] = true
		}
	}
	return g
}

// exits lists where a state may go after it runs, catch rules first; EndID
// stands for finishing the run, explicitly or because nothing matched.
func exits(s *ir.State) []ir.Ref {
	var out []ir.Ref
	for _, c := range s.Catch {
		out = append(out, c.Next)
	}
	t := s.Next
	switch t.Kind {
	case ir.TransEnd:
		out = append(out, ir.Ref{Pos: t.Pos, ID: ir.EndID})
	case ir.TransGoto, ir.TransMap:
		out = append(out, t.To)
	case ir.TransCondition:
		out = append(out, t.Then, t.Otherwise)
	case ir.TransParallel:
		out = append(out, t.Targets...)
	}
	for _, c := range t.Cases {
		out = append(out, c.To)
	}
	for _, a := range t.Actions {
		out = append(out, a.To)
	}
	if t.OnFailure != nil {
		out = append(out, *t.OnFailure)
	}
	for _, b := range t.Branches {
		out = append(out, b.To)
	}
	if t.Default != nil {
		out = append(out, *t.Default)
	}
	if endsUnmatched(t) {
		out = append(out, ir.Ref{Pos: t.Pos, ID: ir.EndID})
	}
	return out
}

// endsUnmatched: an action or eval that nothing matches ends the run.
func endsUnmatched(t *ir.Transition) bool {
	switch t.Kind {
	case ir.TransActions:
		return t.Default == nil
	case ir.TransBranches:
		return !slices.ContainsFunc(t.Branches, func(b *ir.Branch) bool { return b.Operator == ir.OpDefault })
	}
	return false
}

// reach returns the states reachable from id (itself included, EndID for
// the end of the run), without going past the stops.
func (g *graph) reach(id string, stops ...string) map[string]bool {
	seen := map[string]bool{id: true}
	queue := []string{id}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		if cur == ir.EndID || slices.Contains(stops, cur) {
			continue
		}
		for _, r := range exits(g.byID[cur]) {
			if !seen[r.ID] {
				seen[r.ID] = true
				queue = append(queue, r.ID)
			}
		}
	}
	return seen
}

// regions lowers every fan-out of w into a region, in source order, and
// checks that each region's states belong to it alone.
func (l *lowerer) regions(w *ir.Workflow) {
	g := newGraph(w)
	if g == nil {
		return
	}
	for _, s := range w.States {
		var r *ir.Region
		switch {
		case s.Next.Kind == ir.TransParallel:
			r = l.parallelRegion(g, s)
		case s.Next.Iter != nil && (!g.continued[s.ID] || finishesIteration(s)):
			r = l.mapRegion(g, s)
		}
		if r == nil {
			continue
		}
		if s.Kind == ir.StateApproval {
			l.Diags.Errorf(s.Next.Pos, "approval state %q cannot open a fan-out; let the state after it open the iteration", s.ID)
			continue
		}
		if r.Kind == ir.RegionMap {
			s.Next.Kind = ir.TransMap
		}
		if r.Kind == ir.RegionParallel && w.CodeMie != nil {
			// CodeMie's max_concurrency bounds every node LangGraph runs at once (workflow.py, _build_graph_config).
			r.MaxConcurrency = w.CodeMie.MaxConcurrency
		}
		s.Next.Region = r
		w.Regions = append(w.Regions, r)
	}
	l.strayIters(g)
	l.nested(g)
	l.scopes(g)
}

// parallelRegion finds the join of a `state_ids` fan-out and the states of
// each branch.
func (l *lowerer) parallelRegion(g *graph, s *ir.State) *ir.Region {
	t := s.Next
	if len(t.Targets) < 2 {
		return nil // reported where state_ids was read
	}
	join, ok := l.join(g, s.ID, t)
	if !ok {
		return nil
	}
	r := &ir.Region{Pos: t.Pos, Kind: ir.RegionParallel, From: s.ID, Join: ir.Ref{Pos: t.Pos, ID: join}}
	owner := map[string]string{}
	for _, entry := range t.Targets {
		if entry.ID == join {
			l.Diags.Errorf(entry.Pos, "branch %q is where the branches join; a branch needs a state of its own before the join", entry.ID)
			return nil
		}
		body := g.reach(entry.ID, join, s.ID)
		delete(body, join)
		delete(body, s.ID) // going back to the opener leaves the branch: scopes reports it
		branch := []ir.Ref{entry}
		for _, st := range g.w.States {
			if !body[st.ID] {
				continue
			}
			if other, shared := owner[st.ID]; shared {
				l.Diags.Errorf(entry.Pos, "the branches from %q and %q share state %q before they join at %s; branches must be apart until the join",
					other, entry.ID, st.ID, describeJoin(join))
				return nil
			}
			owner[st.ID] = entry.ID
			if st.ID != entry.ID {
				branch = append(branch, ir.Ref{Pos: st.Pos, ID: st.ID})
			}
		}
		if body[ir.EndID] {
			l.Diags.Errorf(entry.Pos, "the branch from %q can end the run before the branches join at %s; every path of a branch must reach the join",
				entry.ID, describeJoin(join))
			return nil
		}
		r.Branches = append(r.Branches, branch)
	}
	return r
}

func describeJoin(id string) string {
	if id == ir.EndID {
		return "the end of the run"
	}
	return "state \"" + id + "\""
}

// join returns the first state every branch reaches: a state all of them
// reach, such that no branch can reach another such state without passing
// it first. The end of the run counts only when the branches share no state.
func (l *lowerer) join(g *graph, from string, t *ir.Transition) (string, bool) {
	reached := make([]map[string]bool, len(t.Targets))
	for i, e := range t.Targets {
		reached[i] = g.reach(e.ID, from) // through the opener again is a new fan-out
	}
	var common []string
	for _, st := range g.w.States {
		if st.ID != from && everyReaches(reached, st.ID) {
			common = append(common, st.ID)
		}
	}
	for _, c := range common {
		if g.first(t.Targets, c, from, common) {
			return c, true
		}
	}
	switch {
	case len(common) == 0 && everyReaches(reached, ir.EndID):
		return ir.EndID, true
	case len(common) == 0:
		l.Diags.Errorf(t.Pos, "the branches %s never join: no state is reached by all of them", quoteRefs(t.Targets))
	default:
		l.Diags.Errorf(t.Pos, "the branches %s never join: they reach states such as %s in different orders, so no state is the first one all of them reach",
			quoteRefs(t.Targets), quoteIDs(common[:min(len(common), 4)]))
	}
	return "", false
}

func everyReaches(reached []map[string]bool, id string) bool {
	for _, r := range reached {
		if !r[id] {
			return false
		}
	}
	return true
}

// first reports whether no branch can reach another common state without
// passing through c. A branch starts at its entry rather than reaching it,
// so the entry does not count, even when other branches reach it.
func (g *graph) first(entries []ir.Ref, c, from string, common []string) bool {
	for _, e := range entries {
		before := g.reach(e.ID, c, from)
		for _, other := range common {
			if other != c && other != e.ID && before[other] {
				return false
			}
		}
	}
	return true
}

// mapRegion follows an iteration chain from the state that starts it.
func (l *lowerer) mapRegion(g *graph, s *ir.State) *ir.Region {
	t := s.Next
	it := t.Iter
	r := &ir.Region{Pos: t.Pos, Kind: ir.RegionMap, From: s.ID, Items: it.Key, ItemsPos: it.Pos, ItemsPath: it.Path, MaxConcurrency: it.MaxConcurrency}
	for ref := t.To; ; {
		if slices.ContainsFunc(r.Body, func(b ir.Ref) bool { return b.ID == ref.ID }) {
			l.Diags.Errorf(ref.Pos, "the iteration chain that starts at %q comes back to state %q; its last state must go on without iter_key", s.ID, ref.ID)
			return nil
		}
		r.Body = append(r.Body, ref)
		g.chained[ref.ID] = true
		st := g.byID[ref.ID]
		next := st.Next
		if len(caseIters(st)) > 0 { // JSON mode: a switch inside the chain (jsonmode_iter.go)
			return l.branchingChain(g, s, r)
		}
		if finishesIteration(st) { // JSON mode: finish_iteration (jsonmode_iter.go)
			return l.finishedChain(g, st, r)
		}
		if next.Iter == nil {
			after, ok := l.chainEnd(s, st)
			r.After = after
			if !ok {
				return nil
			}
			return r
		}
		if !l.sameIter(s, st) {
			return nil
		}
		ref = next.To
	}
}

// sameIter checks that a state continuing the chain of start carries the
// same iter_key, and leaves max_concurrency to start.
func (l *lowerer) sameIter(start, st *ir.State) bool {
	want, got := start.Next.Iter, st.Next.Iter
	if got.Key != want.Key {
		l.Diags.Errorf(got.Pos, "state %q continues the iteration over `%s` that starts at %q, but its iter_key is `%s`; every state of an iteration chain but the last carries the same iter_key (an iteration inside an iteration is not supported)",
			st.ID, want.Key, start.ID, got.Key)
		return false
	}
	if got.MaxConcurrencyPos.IsValid() && got.MaxConcurrency != want.MaxConcurrency {
		l.Diags.Errorf(got.MaxConcurrencyPos, "max_concurrency of the iteration that starts at %q is set there (%d); state %q cannot change it",
			start.ID, want.MaxConcurrency, st.ID)
		return false
	}
	return true
}

// chainEnd returns the state after a chain whose last state is last.
func (l *lowerer) chainEnd(start, last *ir.State) (ir.Ref, bool) {
	t := last.Next
	switch t.Kind {
	case ir.TransGoto:
		return t.To, true
	case ir.TransEnd:
		return ir.Ref{Pos: t.Pos, ID: ir.EndID}, true
	case ir.TransParallel:
		l.Diags.Errorf(t.Pos, "state %q inside the iteration that starts at %q opens a parallel fan-out; fan-out inside fan-out is not supported", last.ID, start.ID)
	default:
		l.Diags.Errorf(t.Pos, "state %q is the last of the iteration chain that starts at %q, so it must go to the state after the chain with a plain `state_id` (or end the run); to keep iterating, give it iter_key `%s`",
			last.ID, start.ID, start.Next.Iter.Key)
	}
	return ir.Ref{}, false
}

// strayIters reports iter_key on states that no chain reaches from a state
// that starts it: the chain loops back on itself.
func (l *lowerer) strayIters(g *graph) {
	for _, s := range g.w.States {
		if s.Next.Iter == nil || !g.continued[s.ID] || g.chained[s.ID] {
			continue
		}
		l.Diags.Errorf(s.Next.Iter.Pos, "state %q continues an iteration chain that no state starts: every state that goes to it carries iter_key, so the chain has no beginning", s.ID)
	}
}

// nested rejects a fan-out that starts inside another and drops it, so
// that the scope check does not report its states twice.
func (l *lowerer) nested(g *graph) {
	var kept []*ir.Region
	for _, r := range g.w.Regions {
		outer := g.w.RegionOf(r.From)
		if outer == nil || outer == r || finishesIteration(g.byID[r.From]) {
			kept = append(kept, r)
			continue
		}
		at := r.Pos
		if r.Kind == ir.RegionMap {
			at = r.ItemsPos
		}
		l.Diags.Errorf(at, "state %q inside the fan-out that starts at %q opens another fan-out; fan-out inside fan-out is not supported",
			r.From, outer.From)
		g.byID[r.From].Next.Region = nil
	}
	g.w.Regions = kept
}

// scopes checks that only its opening transition enters a region and that
// its states leave it only for the join or the state after it.
func (l *lowerer) scopes(g *graph) {
	owner := map[string]*ir.Region{}
	for _, r := range g.w.Regions {
		for _, id := range regionStates(r) {
			if prev := owner[id]; prev != nil {
				l.Diags.Errorf(g.byID[id].Pos, "state %q is inside two fan-outs, the ones that start at %q and %q", id, prev.From, r.From)
				continue
			}
			owner[id] = r
		}
	}
	if r := owner[g.w.Start.ID]; r != nil {
		l.Diags.Errorf(g.w.Start.Pos, "the start state %q is inside the fan-out that starts at %q; a run must start outside any fan-out", g.w.Start.ID, r.From)
	}
	for _, s := range g.w.States {
		for _, to := range exits(s) {
			l.crossing(s, to, owner[s.ID], owner[to.ID])
		}
	}
}

// crossing checks one edge from s (inside from, or nil) to a state inside
// into (or nil).
func (l *lowerer) crossing(s *ir.State, to ir.Ref, from, into *ir.Region) {
	switch {
	case from == into:
	case into != nil && s.ID == into.From && isEntry(into, to.ID): // a fan-out that finish_iteration opens inside another
	case into != nil:
		l.Diags.Errorf(to.Pos, "state %q goes to state %q inside the fan-out that starts at %q; only that fan-out may enter its states", s.ID, to.ID, into.From)
	case from != nil && to.ID != regionExit(from).ID:
		if to.IsEnd() {
			l.Diags.Errorf(to.Pos, "state %q inside the fan-out that starts at %q can end the run; inside a fan-out every path must reach %s",
				s.ID, from.From, describeJoin(regionExit(from).ID))
			return
		}
		l.Diags.Errorf(to.Pos, "state %q inside the fan-out that starts at %q goes to state %q outside it; a fan-out's states may only leave for %s",
			s.ID, from.From, to.ID, describeJoin(regionExit(from).ID))
	}
}

// regionStates lists the states inside r.
func regionStates(r *ir.Region) []string {
	var out []string
	for _, b := range r.Branches {
		for _, ref := range b {
			out = append(out, ref.ID)
		}
	}
	for _, ref := range r.Body {
		out = append(out, ref.ID)
	}
	return out
}

// isEntry reports whether id is where r's opening transition leads.
func isEntry(r *ir.Region, id string) bool {
	if r.Kind == ir.RegionMap {
		return r.Body[0].ID == id
	}
	for _, b := range r.Branches {
		if b[0].ID == id {
			return true
		}
	}
	return false
}

// regionExit is where r's states go when they are done.
func regionExit(r *ir.Region) ir.Ref {
	if r.Kind == ir.RegionMap {
		return r.After
	}
	return r.Join
}

func quoteRefs(refs []ir.Ref) string {
	ids := make([]string, len(refs))
	for i, r := range refs {
		ids[i] = r.ID
	}
	return quoteIDs(ids)
}

func quoteIDs(ids []string) string {
	q := make([]string, len(ids))
	for i, id := range ids {
		q[i] = "\"" + id + "\""
	}
	return strings.Join(q, ", ")
}
