package chain_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// contenox decodes chains with encoding/json and yaml.v3, which skip
// members they do not know (runtime/taskengine/tasktype.go has no strict
// decoding): an unknown key is a warning, and the chain compiles.
func TestUnknownKeysAreWarnings(t *testing.T) {
	w, diags := compile(t, `
name: extra
tasks:
  - id: a
    handler: noop
    widget: x
    transition:
      on_fail: a
      branches:
        - {operator: default, goto: end, label: done, compose: {with_var: v, mode: fast}}
`)
	require.NotNil(t, w)
	assert.Contains(t, diags, "2:1: warning: unknown key `name` in the chain is ignored")
	assert.Contains(t, diags, "6:5: warning: unknown key `widget` in a task is ignored")
	assert.Contains(t, diags, "8:7: warning: unknown key `on_fail` in transition is ignored")
	assert.Contains(t, diags, "unknown key `label` in a branch is ignored")
	assert.Contains(t, diags, "unknown key `mode` in compose is ignored")
	assert.NotContains(t, diags, ": error")
	assert.Nil(t, w.States[0].Next.OnFailure)
}

// contenox taskenv.go validateChain: "on_failure must reference a real
// task ('end' is not resolvable at runtime)"; at 0c28a698 the engine
// failed the chain when it could not find the task "end". A real file
// (contenoxcli agent-planner.chain.json) writes it, so it is a warning and
// a failure there fails the chain.
func TestOnFailureEnd(t *testing.T) {
	w, diags := compile(t, `
tasks:
  - id: a
    handler: noop
    transition:
      on_failure: end
      branches:
        - {operator: default, goto: end}
`)
	require.NotNil(t, w, diags)
	assert.Contains(t, diags, "6:19: warning: on_failure must name a task, and `end` is none: a failure here fails the chain")
	assert.Nil(t, w.States[0].Next.OnFailure, "a failure takes no on_failure")
}

// contenox taskenv.go at 0c28a698, compare OpInRange reads "min-max" (a
// negative bound allowed), contenox's transitions documentation "min,max"; parseNumber reads a
// `when` that is not a number as its first number.
func TestNumericWhen(t *testing.T) {
	w, diags := compile(t, `
tasks:
  - id: a
    handler: score
    transition:
      branches:
        - {operator: in_range, when: "-10--2", goto: end}
        - {operator: in_range, when: "200,299", goto: end}
        - {operator: ">", when: "score 7", goto: end}
        - {operator: default, goto: end}
`)
	require.NotNil(t, w, diags)
	bs := w.States[0].Next.Branches
	assert.Equal(t, [2]float64{-10, -2}, [2]float64{bs[0].Min, bs[0].Max})
	assert.Equal(t, [2]float64{200, 299}, [2]float64{bs[1].Min, bs[1].Max})
	assert.Equal(t, 7.0, bs[2].Num)
	assert.Contains(t, diags, "9:34: warning: `when` \"score 7\" is not a number; it is read as the first number in it, 7")
}

// contenox's transitions documentation: a noop's eval string mirrors its input, so a branch that
// waits for the token "noop" (today's engine) is suspicious.
func TestNoopTokenWarning(t *testing.T) {
	_, diags := compile(t, `
tasks:
  - id: a
    handler: noop
    transition:
      branches:
        - {operator: equals, when: noop, goto: end}
`)
	assert.Contains(t, diags, "warning: a noop task's eval string is its input, not the token `noop`")
}
