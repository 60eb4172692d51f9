package jsonata

import (
	"fmt"
	"slices"
)

// Scope is what a static check may assume an expression sees at run time.
type Scope struct {
	// Vars are the variables the caller binds (without the $).
	Vars []string
	// Fields limits the fields a variable's object may be read with, e.g.
	// "states": input, result, errorOutput, context.
	Fields map[string][]string
}

// Check reports, with positions, what will fail or is surely a mistake when
// the expression runs in scope: calls of unknown functions (T1006), built-in
// calls with a wrong number of arguments (T0410), variables nothing binds
// (V0001) and fields a restricted variable does not have (V0002). Bindings
// made inside the expression (:=, lambda parameters, @ and # variables) count.
func (x *Expr) Check(s Scope) []*Error {
	c := &checker{scope: s, tupleVars: map[string]bool{}}
	collectTupleVars(x.root, c.tupleVars)
	c.walk(x.root, []map[string]bool{boundIn(x.root)})
	return c.errs
}

type checker struct {
	scope     Scope
	tupleVars map[string]bool
	errs      []*Error
}

func (c *checker) report(code string, pos int, token, msg string) {
	c.errs = append(c.errs, &Error{Code: code, Position: pos, Token: token, message: msg})
}

func (c *checker) bound(name string, scopes []map[string]bool) bool {
	if name == "" || name == "$" || c.tupleVars[name] || slices.Contains(c.scope.Vars, name) {
		return true
	}
	for _, s := range scopes {
		if s[name] {
			return true
		}
	}
	return false
}

// boundIn collects the names := binds directly in a block's scope (not in
// nested blocks or lambdas, which have their own).
func boundIn(n *node) map[string]bool {
	names := map[string]bool{}
	var visit func(n *node)
	visit = func(n *node) {
		if n == nil {
			return
		}
		switch n.kind {
		case kBind:
			names[n.lhs.op] = true
		case kLambda, kBlock:
			return
		}
		forChildren(n, visit)
	}
	if n.kind == kBlock {
		forChildren(n, visit)
	} else {
		visit(n)
	}
	return names
}

func collectTupleVars(n *node, into map[string]bool) {
	if n == nil {
		return
	}
	if n.focus != "" {
		into[n.focus] = true
	}
	if n.index != "" {
		into[n.index] = true
	}
	for _, st := range n.stages {
		if st.index != "" {
			into[st.index] = true
		}
	}
	forChildren(n, func(ch *node) { collectTupleVars(ch, into) })
}

// forChildren calls f on every direct sub-expression of n.
func forChildren(n *node, f func(*node)) {
	for _, ch := range []*node{n.lhs, n.rhs, n.cond, n.then, n.els, n.body, n.pattern, n.update, n.remove} {
		if ch != nil {
			f(ch)
		}
	}
	for _, list := range [][]*node{n.steps, n.items} {
		for _, ch := range list {
			f(ch)
		}
	}
	for _, p := range n.pairs {
		f(p[0])
		f(p[1])
	}
	for _, t := range n.terms {
		f(t.expr)
	}
	for _, st := range append(append([]*stage(nil), n.predicate...), n.stages...) {
		if st.filter != nil {
			f(st.filter)
		}
	}
	if n.group != nil {
		for _, p := range n.group.pairs {
			f(p[0])
			f(p[1])
		}
	}
}

func (c *checker) walk(n *node, scopes []map[string]bool) {
	switch n.kind {
	case kBlock:
		scopes = append(scopes, boundIn(n))
	case kLambda:
		params := map[string]bool{}
		for _, p := range n.params {
			params[p] = true
		}
		scopes = append(scopes, params, boundIn(n.body))
	case kVariable:
		if !c.bound(n.op, scopes) {
			if _, ok := builtins[n.op]; !ok {
				c.report("V0001", n.pos, n.op, fmt.Sprintf("variable $%s is not bound", n.op))
			}
		}
	case kFunction, kPartial:
		c.checkCall(n, 0, scopes)
		if n.lhs.kind == kVariable {
			for _, a := range n.items {
				c.walk(a, scopes)
			}
			return
		}
	case kApply:
		if n.rhs.kind == kFunction {
			c.walk(n.lhs, scopes)
			c.checkCall(n.rhs, 1, scopes)
			for _, a := range n.rhs.items {
				c.walk(a, scopes)
			}
			return
		}
	case kPath:
		c.checkFields(n)
	}
	forChildren(n, func(ch *node) { c.walk(ch, scopes) })
}

// checkCall checks a call's function name and, for a built-in, its number
// of arguments; extra counts an argument ~> passes.
func (c *checker) checkCall(n *node, extra int, scopes []map[string]bool) {
	if n.lhs.kind != kVariable || c.bound(n.lhs.op, scopes) {
		return
	}
	name := n.lhs.op
	b, ok := builtins[name]
	if !ok {
		c.report("T1006", n.lhs.pos, name, fmt.Sprintf("unknown function $%s", name))
		return
	}
	got := len(n.items) + extra
	lo, hi := b.sig.argRange()
	if got < lo || (hi >= 0 && got > hi) {
		c.report("T0410", n.pos, name, fmt.Sprintf("$%s takes %s, given %d", name, describeRange(lo, hi), got))
	}
}

func describeRange(lo, hi int) string {
	switch {
	case hi < 0:
		return fmt.Sprintf("at least %d arguments", lo)
	case lo == hi:
		return fmt.Sprintf("%d arguments", lo)
	}
	return fmt.Sprintf("%d to %d arguments", lo, hi)
}

// argRange is the fewest and most arguments a call may pass (-1: no limit);
// a context parameter may be left out.
func (sig *signature) argRange() (lo, hi int) {
	for _, p := range sig.params {
		if !p.opt && !p.context {
			lo++
		}
		if p.many {
			hi = -1
		} else if hi >= 0 {
			hi++
		}
	}
	return lo, hi
}

func (c *checker) checkFields(n *node) {
	if len(n.steps) < 2 || n.steps[0].kind != kVariable || n.steps[1].kind != kName {
		return
	}
	allowed, ok := c.scope.Fields[n.steps[0].op]
	if !ok || slices.Contains(allowed, n.steps[1].op) {
		return
	}
	c.report("V0002", n.steps[1].pos, n.steps[1].op,
		fmt.Sprintf("$%s has no field %q (it has %v)", n.steps[0].op, n.steps[1].op, allowed))
}
