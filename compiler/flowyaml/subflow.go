package flowyaml

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/flowc-dev/flowc/compiler/yamlx"
	"github.com/flowc-dev/flowc/ir"
)

// A state with `flow: PATH` runs the workflow in PATH as one step. The
// child's states are spliced into the parent in its place: they run on the
// parent's state (or, in JSON mode, its context store and history) in the
// parent's loop, so the parent's reducers fold their updates and a
// checkpoint taken inside the child names the child's state. Where the child
// ends, the parent state's `next` takes over with the child's last action,
// as a PocketFlow Flow nested as a node does.

// flowUse is one state's `flow:`.
type flowUse struct {
	pos  ir.Pos // the path's position
	path string // as written: relative to the definition's directory
}

// flowStateKeys are the keys a flow state may have: the rest of a state
// describes a handler call, which the child replaces.
var flowStateKeys = map[string]bool{"id": true, "description": true, "flow": true, "next": true, "end": true}

// flowKey records a state's `flow:` and rejects what cannot go with it.
func (l *lowerer) flowKey(m yamlx.Map, s *ir.State) {
	n := m.Get("flow")
	if n == nil {
		return
	}
	path, ok := l.String(n, "flow")
	if !ok {
		return
	}
	for _, e := range l.Pairs(m.Node) {
		if !flowStateKeys[e.Key.Value] {
			l.Diags.Errorf(l.Pos(e.Key), "a `flow:` state runs its child workflow, so it cannot have `%s`", e.Key.Value)
		}
	}
	if k := s.Next.Kind; (k != ir.TransEnd && k != ir.TransGoto && k != ir.TransActions) || s.Next.Iter != nil {
		l.Diags.Errorf(s.Next.Pos, "a `flow:` state routes on its child's last action: its `next` must be `state_id` or `actions`")
	}
	if l.flows == nil {
		l.flows = map[*ir.State]flowUse{}
	}
	l.flows[s] = flowUse{pos: l.ContentPos(n), path: path}
}

// splicing is what splice learns as it replaces flow states.
type splicing struct {
	entry    map[string]string // flow state id -> its child's start
	ran      map[string]ir.Pos // child file -> the flow state that runs it
	replaced []*ir.State       // the flow states replaced
}

// splice replaces every flow state of w by its child's states, and sends
// whatever went to a flow state to its child's start.
func (l *lowerer) splice(w *ir.Workflow) {
	if len(l.flows) == 0 {
		return
	}
	sp := &splicing{entry: map[string]string{}, ran: map[string]ir.Pos{}}
	var states []*ir.State
	for _, s := range w.States {
		states = append(states, l.spliceState(sp, w, s)...)
	}
	w.States = states
	for _, s := range w.States {
		for _, r := range stateRefs(s) {
			if to, ok := sp.entry[r.ID]; ok {
				r.ID = to
			}
		}
	}
	if to, ok := sp.entry[w.Start.ID]; ok {
		w.Start.ID = to
	}
	l.distinctIDs(w, sp.replaced)
}

// spliceState returns the states that take s's place: its child's, whose
// ends now go on through s's next, or s itself.
func (l *lowerer) spliceState(sp *splicing, w *ir.Workflow, s *ir.State) []*ir.State {
	use, ok := l.flows[s]
	if !ok || !l.once(sp.ran, use) {
		return []*ir.State{s}
	}
	child := l.lowerChild(use, w)
	if child == nil {
		return []*ir.State{s}
	}
	out := exit{s.Next}
	for _, cs := range child.States {
		out.redirect(cs)
	}
	sp.entry[s.ID] = child.Start.ID
	sp.replaced = append(sp.replaced, s)
	w.Subflows = append(w.Subflows, &ir.Subflow{
		Pos: use.pos, State: s.ID, ID: child.ID, Source: child.Source, Path: l.fromRoot(child.Source),
		States: ownStates(child), Inner: child.Subflows,
	})
	return child.States
}

// once reports whether use is the first flow state to run its file: a
// child's states keep their ids, so two copies of it would clash.
func (l *lowerer) once(ran map[string]ir.Pos, use flowUse) bool {
	path := filepath.Clean(use.path)
	if at, dup := ran[path]; dup {
		l.Diags.Errorf(use.pos, "%s already runs at %s: a child's states keep their own ids, so a workflow runs each child once; go back to that state instead", use.path, at)
		return false
	}
	ran[path] = use.pos
	return true
}

// lowerChild reads and lowers the child a flow state names, with its own
// children spliced in, and checks that it fits the parent.
func (l *lowerer) lowerChild(use flowUse, parent *ir.Workflow) *ir.Workflow {
	if filepath.IsAbs(use.path) || strings.HasPrefix(use.path, "/") {
		l.Diags.Errorf(use.pos, "flow %q: a child's path is relative to the definition that runs it", use.path)
		return nil
	}
	path := filepath.ToSlash(filepath.Join(filepath.Dir(l.File), filepath.FromSlash(use.path)))
	abs, _ := filepath.Abs(path)
	if i := slices.Index(l.stack, abs); i >= 0 {
		cycle := append(slices.Clone(l.names[i:]), path)
		l.Diags.Errorf(use.pos, "flow cycle: %s", strings.Join(cycle, " -> "))
		return nil
	}
	if suffix(path) == "" {
		l.Diags.Errorf(use.pos, "flow %q is not a flowc YAML definition (*.flow.yaml)", use.path)
		return nil
	}
	src, err := os.ReadFile(path)
	if err != nil {
		l.Diags.Errorf(use.pos, "flow %q: %v", use.path, err)
		return nil
	}
	r := &yamlx.Reader{File: path}
	child := l.lowerFile(r, src, abs)
	l.Diags = append(l.Diags, r.Diags...)
	if child == nil || r.Diags.HasErrors() {
		return nil
	}
	child.Source = path
	l.fits(use, parent, child)
	return child
}

// fromRoot is path relative to the outermost definition, which the
// generated file's header names the children from.
func (l *lowerer) fromRoot(path string) string {
	rel, err := filepath.Rel(filepath.Dir(l.names[0]), path)
	if err != nil {
		return path
	}
	return filepath.ToSlash(rel)
}

// lowerFile lowers a child's document with a lowerer of its own, which
// knows the files above it.
func (l *lowerer) lowerFile(r *yamlx.Reader, src []byte, abs string) *ir.Workflow {
	root := r.Parse(src)
	if root == nil {
		return nil
	}
	if !Detect(root) {
		r.Diags.Errorf(r.Pos(root), "not a flowc YAML workflow: expected a top-level `states:` list of states with `id`")
		return nil
	}
	stem := strings.TrimSuffix(filepath.Base(r.File), suffix(r.File))
	c := &lowerer{
		Reader:   r,
		defaults: Defaults{Stem: stem, Package: l.defaults.Package, Dir: l.defaults.Dir},
		child:    true,
		stack:    append(slices.Clone(l.stack), abs),
		names:    append(slices.Clone(l.names), r.File),
	}
	return c.workflow(root)
}

// fits checks that the child runs on the parent's values: the same mode,
// and in typed mode each child field in the parent with the same type.
// Mismatches are reported in both files.
func (l *lowerer) fits(use flowUse, parent, child *ir.Workflow) {
	if parent.Mode != child.Mode {
		l.Diags.Errorf(use.pos, "%s %s, but this workflow %s", child.Source, modeWords(child.Mode, "is"), modeWords(parent.Mode, "is"))
		return
	}
	for _, f := range child.Fields {
		pf := fieldNamed(parent.Fields, f.Name)
		switch {
		case pf == nil:
			l.Diags.Errorf(f.Pos, "field `%s` is not in the state of %s, which runs this workflow at %s", f.Name, l.File, use.pos)
			l.Diags.Errorf(use.pos, "%s needs field `%s` (%s), which this workflow's state lacks", child.Source, f.Name, f.Pos)
		case f.Type == nil || pf.Type == nil:
		case f.Type.String() != pf.Type.String():
			l.Diags.Errorf(f.Pos, "field `%s` is %s here but %s in %s, which runs this workflow", f.Name, f.Type, pf.Type, pf.Pos)
			l.Diags.Errorf(pf.Pos, "field `%s` is %s here but %s in the child flow at %s", f.Name, pf.Type, f.Type, f.Pos)
		}
	}
}

func modeWords(m ir.Mode, verb string) string {
	if m == ir.ModeJSON {
		return verb + " in JSON mode (no `state:`)"
	}
	return verb + " typed (it has `state:`)"
}

func fieldNamed(fields []*ir.Field, name string) *ir.Field {
	for _, f := range fields {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// distinctIDs reports a child state whose id another state has, the flow
// states it replaced included: mock configs and checkpoints name a child's
// states by their own ids, and references to a flow state lead to its child.
func (l *lowerer) distinctIDs(w *ir.Workflow, replaced []*ir.State) {
	first := map[string]*ir.State{}
	for _, s := range replaced {
		first[s.ID] = s
	}
	for _, s := range w.States {
		prev, dup := first[s.ID]
		if !dup {
			first[s.ID] = s
			continue
		}
		l.Diags.Errorf(s.Pos, "state id %q is also the id of the state at %s; a child flow's states keep their ids, so they must differ from the ids of the workflow that runs it", s.ID, prev.Pos)
	}
}

// ownStates are the ids of the child's states that are not its children's.
func ownStates(child *ir.Workflow) []string {
	inner := map[string]bool{}
	for _, sf := range child.Subflows {
		for _, id := range sf.AllStates() {
			inner[id] = true
		}
	}
	var out []string
	for _, s := range child.States {
		if !inner[s.ID] {
			out = append(out, s.ID)
		}
	}
	return out
}

// exit is the transition of the flow state a child replaces: where the
// child goes when it ends.
type exit struct{ t *ir.Transition }

// to is where the child goes when it ends with action: the flow state's
// action of that name, else its default, else the end of the run.
func (e exit) to(action string, at ir.Pos) ir.Ref {
	switch e.t.Kind {
	case ir.TransGoto:
		return e.t.To
	case ir.TransActions:
		for _, a := range e.t.Actions {
			if action != "" && a.Name == action {
				return a.To
			}
		}
		if e.t.Default != nil {
			return *e.t.Default
		}
	}
	return ir.Ref{Pos: at, ID: ir.EndID}
}

// redirect sends every way s had of ending the run to the flow state's
// targets. A state that ends returns no action ("", PocketFlow's None); an
// action that ends the child is that action.
func (e exit) redirect(s *ir.State) {
	t := s.Next
	for _, c := range s.Catch {
		e.fix(&c.Next, "")
	}
	switch t.Kind {
	case ir.TransEnd:
		if to := e.to("", t.Pos); !to.IsEnd() {
			t.Kind, t.To = ir.TransGoto, to
		}
		return
	case ir.TransActions:
		for _, a := range t.Actions {
			e.fix(&a.To, a.Name)
		}
		if t.Default == nil || t.Default.IsEnd() {
			e.inherit(t)
		}
		return
	case ir.TransBranches:
		e.defaultBranch(t)
	}
	for _, r := range transitionRefs(t) {
		e.fix(r, "")
	}
}

func (e exit) fix(r *ir.Ref, action string) {
	if r.IsEnd() {
		*r = e.to(action, r.Pos)
	}
}

// inherit: an action the child does not route ends the child with that
// action, so the flow state's own actions and default decide.
func (e exit) inherit(t *ir.Transition) {
	t.Default = nil
	switch p := e.t; p.Kind {
	case ir.TransGoto:
		to := p.To
		t.Default = &to
	case ir.TransActions:
		for _, a := range p.Actions {
			if !slices.ContainsFunc(t.Actions, func(c *ir.Action) bool { return c.Name == a.Name }) {
				t.Actions = append(t.Actions, &ir.Action{Pos: a.Pos, Name: a.Name, To: a.To})
			}
		}
		if p.Default != nil {
			to := *p.Default
			t.Default = &to
		}
	}
}

// defaultBranch: an eval no branch matches ends the child with no action.
func (e exit) defaultBranch(t *ir.Transition) {
	if slices.ContainsFunc(t.Branches, func(b *ir.Branch) bool { return b.Operator == ir.OpDefault }) {
		return
	}
	if to := e.to("", t.Pos); !to.IsEnd() {
		t.Branches = append(t.Branches, &ir.Branch{Pos: t.Pos, Operator: ir.OpDefault, To: to})
	}
}

// stateRefs are every reference a state makes to another.
func stateRefs(s *ir.State) []*ir.Ref {
	var out []*ir.Ref
	for _, c := range s.Catch {
		out = append(out, &c.Next)
	}
	out = append(out, transitionRefs(s.Next)...)
	for _, a := range s.Next.Actions {
		out = append(out, &a.To)
	}
	return out
}

// transitionRefs are a transition's references, its actions aside.
func transitionRefs(t *ir.Transition) []*ir.Ref {
	out := []*ir.Ref{&t.Then, &t.Otherwise}
	if t.Kind != ir.TransEnd {
		out = append(out, &t.To)
	}
	for i := range t.Targets {
		out = append(out, &t.Targets[i])
	}
	for _, c := range t.Cases {
		out = append(out, &c.To)
	}
	for _, b := range t.Branches {
		out = append(out, &b.To)
	}
	if t.Default != nil {
		out = append(out, t.Default)
	}
	if t.OnFailure != nil {
		out = append(out, t.OnFailure)
	}
	return out
}

// suffix is the one of Suffixes that path ends in, or "".
func suffix(path string) string {
	i := slices.IndexFunc(Suffixes, func(suf string) bool { return strings.HasSuffix(path, suf) })
	if i < 0 {
		return ""
	}
	return Suffixes[i]
}
