// Package check is flowc's static checker: it resolves every reference,
// type and expression of a lowered workflow, so that the code generator can
// trust what it is given. Problems are collected, never panicked.
package check

import (
	"fmt"

	"github.com/flowc-dev/flowc/compiler/diag"
	"github.com/flowc-dev/flowc/ir"
)

// Options tell the checker where the workflow's Go package lives.
type Options struct {
	// Dir is the directory of the target Go package, where named types and
	// reducer functions are looked up.
	Dir string
	// Generated is the path of the file flowc will write; the loader ignores
	// its current contents, which may be stale or broken.
	Generated string
	// NoPackage: do not load the package; named types and reducer
	// functions are unknown.
	NoPackage bool
}

// Check validates w, leaving it as its front-end made it, and returns its
// checked form, with the facts code generation needs that only the Go types
// of the user's package tell (expressions as checked, lowered trees; what
// iterations iterate over), and the errors and warnings.
func Check(w *ir.Workflow, opts Options) (*ir.Checked, diag.List) {
	c := &checker{w: w, out: ir.NewChecked(w), opts: opts}
	for _, sc := range scopes(w) {
		c.checkScope(sc)
	}
	c.checkMethodNames()
	switch w.Mode {
	case ir.ModeTyped:
		c.checkTyped() // before the handlers: it gives iteration handlers their item type
	case ir.ModeJSON:
		c.checkJSON()
	}
	if w.Mode != ir.ModeJSON { // JSON-mode handlers all have one signature
		c.checkHandlers()
	}
	c.checkApprovals()
	c.diags.Sort()
	return c.out, c.diags
}

type checker struct {
	w     *ir.Workflow
	out   *ir.Checked // what checking found
	opts  Options
	diags diag.List
}

// checkScope checks the states of one scope and the references among them.
func (c *checker) checkScope(sc *scope) {
	c.checkStates(sc)
	c.checkRefs(sc)
	// Reachability over a graph with broken edges would only add noise.
	if !sc.broken {
		c.checkGraph(sc)
	}
}

// checkStates finds duplicate and reserved ids and Go name collisions.
func (c *checker) checkStates(sc *scope) {
	goNames := map[string]*ir.State{}
	for _, s := range sc.states {
		name := sc.name(s.ID)
		switch {
		case name == "":
			c.diags.Errorf(s.Pos, "a %s needs a non-empty `id`", c.noun())
			continue
		case c.isEnd(ir.Ref{ID: s.ID}):
			c.diags.Errorf(s.Pos, "`end` is reserved for finishing the run; choose another %s id", c.noun())
			continue
		case sc.byID[s.ID] != nil:
			c.diags.Errorf(s.Pos, "%s id %q already used at %s", c.noun(), name, sc.byID[s.ID].Pos)
			continue
		}
		sc.byID[s.ID] = s
		if s.GoName == "" {
			c.diags.Errorf(s.Pos, "%s id %q does not make a Go identifier; start it with a letter", c.noun(), name)
			continue
		}
		if prev := goNames[s.GoName]; prev != nil {
			c.diags.Errorf(s.Pos, "%s ids %q and %q both become the Go name %s; rename one", c.noun(), sc.name(prev.ID), name, s.GoName)
			continue
		}
		goNames[s.GoName] = s
	}
}

// checkRefs resolves every reference to a state of the scope.
func (c *checker) checkRefs(sc *scope) {
	if c.isEnd(sc.start) {
		c.diags.Errorf(sc.start.Pos, "the start %s cannot be `end`", c.noun())
	} else {
		c.ref(sc, sc.start)
	}
	for _, s := range sc.states {
		forEachRef(s, func(r ir.Ref) { c.ref(sc, r) })
	}
}

func (c *checker) ref(sc *scope, r ir.Ref) {
	if c.isEnd(r) || sc.byID[r.ID] != nil {
		return
	}
	sc.broken = true
	if r.ID == "" {
		c.diags.Errorf(r.Pos, "missing %s id", c.noun())
		return
	}
	name := sc.name(r.ID)
	c.diags.Errorf(r.Pos, "unknown %s %q%s", c.noun(), name, diag.DidYouMean(name, sc.names()))
}

// isEnd reports whether r names the end of the run. Every dialect but the
// States Language reserves `end` for it; ASL says `"End": true`, so there
// `end` is a state name like any other (statelint accepts one).
func (c *checker) isEnd(r ir.Ref) bool {
	return r.IsEnd() && c.w.Mode != ir.ModeASL
}

// forEachRef visits every outgoing reference of a state, in source order.
func forEachRef(s *ir.State, visit func(ir.Ref)) {
	for _, ct := range s.Catch {
		visit(ct.Next)
	}
	t := s.Next
	if t == nil {
		return
	}
	switch t.Kind {
	case ir.TransGoto, ir.TransMap:
		visit(t.To)
	case ir.TransParallel:
		for _, r := range t.Targets {
			visit(r)
		}
	case ir.TransCondition:
		visit(t.Then)
		visit(t.Otherwise)
	case ir.TransSwitch, ir.TransActions:
		for _, cs := range t.Cases {
			visit(cs.To)
		}
		for _, a := range t.Actions {
			visit(a.To)
		}
	case ir.TransBranches:
		if t.OnFailure != nil {
			visit(*t.OnFailure)
		}
		for _, b := range t.Branches {
			visit(b.To)
		}
	}
	if t.Default != nil {
		visit(*t.Default)
	}
}

// checkHandlers rejects one handler name used with two signatures: two
// result shapes, or (typed mode) two item parameters, one of them possibly
// none because the handler also runs outside an iteration.
func (c *checker) checkHandlers() {
	first := map[string]*ir.State{}
	for _, s := range ir.AllStates(c.w.States) {
		h := s.Handler
		if h == nil || h.Name == "" {
			continue
		}
		prevState := first[h.Name]
		if prevState == nil {
			first[h.Name] = s
			continue
		}
		prev := prevState.Handler
		switch {
		case prev.Kind != h.Kind:
			c.diags.Errorf(h.Pos, "handler %s is used with two signatures: %s here, %s at %s",
				h.Name, kindWords[h.Kind], kindWords[prev.Kind], prev.Pos)
		case c.w.Mode == ir.ModeTyped && c.itemKnown(s) && c.itemKnown(prevState) && typeKey(c.out.HandlerItem(s)) != typeKey(c.out.HandlerItem(prevState)):
			c.diags.Errorf(h.Pos, "handler %s is used with two signatures: %s here, %s at %s",
				h.Name, itemWords(c.out.HandlerItem(s)), itemWords(c.out.HandlerItem(prevState)), prev.Pos)
		}
	}
}

// itemKnown reports whether the item parameter of s's handler is settled:
// outside an iteration there is none; inside, its type must have resolved.
func (c *checker) itemKnown(s *ir.State) bool {
	r := c.w.RegionOf(s.ID)
	return r == nil || r.Kind != ir.RegionMap || c.out.Items(r).Item != nil
}

// typeKey identifies a type by its full spelling, import paths included,
// where String abbreviates them.
func typeKey(t *ir.Type) string {
	if t == nil {
		return ""
	}
	return fmt.Sprintf("%d %s %s [%s] (%s)", t.Kind, t.Pkg, t.Name, typeKey(t.Key), typeKey(t.Elem))
}

// itemWords describes a typed handler's parameters by its item's type.
func itemWords(item *ir.Type) string {
	switch {
	case item == nil:
		return "(ctx, s) outside an iteration"
	case item.Kind == ir.TypeState:
		return "(ctx, s, item) over the whole state (iter_key `.`)"
	}
	return "(ctx, s, item " + item.String() + ") inside an iteration"
}

var kindWords = map[ir.HandlerKind]string{
	ir.HandlerUpdate: "(update, error)",
	ir.HandlerAction: "(update, action, error) for `actions`",
	ir.HandlerEval:   "(update, eval, error) for `branches`",
}

// noun is what the workflow's steps are called in its dialect.
func (c *checker) noun() string {
	if c.w.Mode == ir.ModeChain {
		return "task"
	}
	return "state"
}
