package plan

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/flowc-dev/flowc/ir"
)

// chainOf is a typed workflow of plain states, one per handler name, each
// going to the next.
func chainOf(handlers ...string) *ir.Workflow {
	w := &ir.Workflow{ID: "T", Name: "T", Package: "t", Mode: ir.ModeTyped}
	for i, h := range handlers {
		s := &ir.State{ID: h, GoName: h, Kind: ir.StateTask,
			Handler: &ir.Handler{Name: h, Kind: ir.HandlerUpdate}, Next: &ir.Transition{Kind: ir.TransEnd}}
		if i > 0 {
			w.States[i-1].Next = &ir.Transition{Kind: ir.TransGoto, To: ir.Ref{ID: h}}
		}
		w.States = append(w.States, s)
	}
	w.Start = ir.Ref{ID: handlers[0]}
	return w
}

// docs/targets.md, "Plain states": a handler whose <Handler>Into name is
// taken by another handler gets no in-place form, and its states run
// through step methods; the other handler keeps its own.
func TestIntoSkipsTakenNames(t *testing.T) {
	w := chainOf("Fetch", "FetchInto", "Store")
	p := Typed(ir.NewChecked(w))
	assert.Equal(t, []string{"FetchInto", "Store"}, p.Into)
	assert.False(t, p.Inline(w.States[0]), "Fetch's in-place name is taken")
	assert.True(t, p.Inline(w.States[1]))
	assert.True(t, p.Inline(w.States[2]))
}

// A state with a retry rule is not plain (docs/targets.md, "Plain states":
// no retry, timeout or catch), so its handler has no in-place form.
func TestPolicyStatesAreNotPlain(t *testing.T) {
	w := chainOf("Fetch", "Store")
	w.States[0].Retry = []*ir.Retrier{{Errors: []string{"ALL"}, MaxAttempts: 2}}
	p := Typed(ir.NewChecked(w))
	assert.Equal(t, []string{"Store"}, p.Into)
	assert.False(t, p.Inline(w.States[0]))
}

// A state that tests the state after its handler runs in the run loop's
// case (docs/targets.md, "Plain states"); with a retry rule it keeps its
// step method, which calls the handler through the policy.
func TestConditionStatesRunInTheLoop(t *testing.T) {
	w := chainOf("Check", "Store")
	w.States[0].Next = &ir.Transition{Kind: ir.TransCondition, Then: ir.Ref{ID: "Store"}, Otherwise: ir.Ref{ID: "end"}}
	p := Typed(ir.NewChecked(w))
	assert.True(t, p.Tests(w.States[0]))
	assert.False(t, p.Tests(w.States[1]), "Store goes on to one state: it is plain")
	w.States[0].Retry = []*ir.Retrier{{Errors: []string{"ALL"}, MaxAttempts: 2}}
	assert.False(t, p.Tests(w.States[0]))
}
