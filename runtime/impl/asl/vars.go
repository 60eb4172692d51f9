package asl

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// varScope holds the workflow variables of one scope: the state machine's
// top level, one Parallel branch or one Map iteration. A scope reads the
// variables of the scopes around it but cannot assign them; what it
// assigns stays in it, unseen by its siblings and its parent.
// Each scope is written by one goroutine at a time (states run one after
// the other in it) and its parent does not change while it runs.
type varScope struct {
	parent *varScope
	vals   map[string]any
}

func newScope(parent *varScope) *varScope { return &varScope{parent: parent, vals: map[string]any{}} }

// get looks a variable up from the innermost scope outwards.
func (s *varScope) get(name string) (any, bool) {
	for ; s != nil; s = s.parent {
		if v, ok := s.vals[name]; ok {
			return v, true
		}
	}
	return nil, false
}

// all returns every visible variable, inner scopes hiding outer ones.
func (s *varScope) all() map[string]any {
	if s == nil {
		return map[string]any{}
	}
	out := s.parent.all()
	for k, v := range s.vals {
		out[k] = v
	}
	return out
}

// assign stores the members of an evaluated Assign object.
func (s *varScope) assign(vals *Object) {
	for _, m := range vals.members {
		s.vals[m.key] = m.value
	}
}

type scopeKey struct{}

// scope returns the variable scope ctx runs in: a branch's or an
// iteration's, else the execution's top level.
func (x *ASLExec) scope(ctx context.Context) *varScope {
	if s, ok := ctx.Value(scopeKey{}).(*varScope); ok {
		return s
	}
	return x.vars
}

// innerScope gives a Parallel branch or a Map iteration its own scope
// inside the one ctx runs in.
func (x *ASLExec) innerScope(ctx context.Context) context.Context {
	return context.WithValue(ctx, scopeKey{}, newScope(x.scope(ctx)))
}

// lookupVar reads a variable for a `$name` path.
func (c *aslContext) lookupVar(name string) (any, bool) {
	if c == nil {
		return nil, false
	}
	return c.vars.get(name)
}

// evalAssign evaluates an Assign template on v (the `$` of a JSONPath
// state); commit stores the values once the state has succeeded, so every
// expression of a state sees the variables as they were when it began. A
// branch or an iteration cannot assign a variable of an outer scope.
func (c *aslContext) evalAssign(t *Template, v any) (*Object, error) {
	if t == nil {
		return nil, nil
	}
	out, err := t.Eval(v, c)
	if err != nil {
		return nil, err
	}
	o, _ := out.(*Object)
	for _, m := range o.members {
		if _, outer := c.vars.parent.get(m.key); outer {
			return nil, runtimeErrorf("cannot assign variable %q here: it belongs to an outer scope", m.key)
		}
	}
	return o, nil
}

// commit stores what evalAssign returned.
func (c *aslContext) commit(vals *Object) {
	if vals != nil && c.vars != nil {
		c.vars.assign(vals)
	}
}

// saveVars hands the top-level variables to the session for its next
// checkpoint.
func (x *ASLExec) saveVars() error {
	if x.sess == nil || len(x.vars.vals) == 0 {
		return nil
	}
	data, err := json.Marshal(x.vars.vals) // keys sorted: checkpoints are deterministic
	if err != nil {
		return fmt.Errorf("saving the variables of session %q: %w", x.sess.ID(), err)
	}
	x.sess.SetVars(data)
	return nil
}

// restoreVars starts a resumed run with the variables of its checkpoint.
func (x *ASLExec) restoreVars() error {
	if x.sess == nil || len(x.sess.Vars()) == 0 {
		return nil
	}
	o, err := decodeVars(x.sess.Vars())
	if err != nil {
		return impl.SessionErr(x.sess.ID(), fmt.Errorf("its checkpoint holds variables that do not decode: %v", err))
	}
	x.vars.assign(o)
	return nil
}

// decodeVars reads saved variables, a JSON object.
func decodeVars(data []byte) (*Object, error) {
	v, err := DecodeASLInput(data)
	if o, ok := v.(*Object); ok || err != nil {
		return o, err
	}
	return nil, fmt.Errorf("%s is not an object", typeName(v))
}
