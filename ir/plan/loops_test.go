package plan_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/ir"
	"github.com/flowc-dev/flowc/ir/plan"
)

// A smaller golden/typedfanoutstop: an iteration whose chain ends at an
// approval, then a parallel sign-off one of whose branches is an
// approval. docs/sessions.md: a stop inside a fan-out halts only its item
// or branch, which a resumed run starts again where it stopped.
const typedFanOuts = `workflow: Release
state:
  items: "[]string"
  drafts: {type: "[]string", reducer: append}
states:
  - id: load
    next: {state_id: draft, iter_key: items, max_concurrency: 2}
  - id: draft
    next: {state_id: review, iter_key: items}
  - id: review
    type: approval
    prompt: Publish this draft?
    options: [yes, no]
    next: {state_id: sign}
  - id: sign
    next: {state_ids: [legal, security]}
  - id: legal
    type: approval
    prompt: Legal sign-off?
    options: [approve, reject]
    next: {state_id: report}
  - id: security
    next: {state_id: report}
  - id: report
`

// ids lists the ids of states, nil for a nil state.
func ids(states ...*ir.State) []string {
	var out []string
	for _, s := range states {
		if s == nil {
			out = append(out, "<nil>")
			continue
		}
		out = append(out, s.ID)
	}
	return out
}

// Typed mode (docs/targets.md, "The plan"): the run loop over the
// top-level states, and per fan-out a runner over its states up to its
// exit. The iteration's runner starts at a step, not at its chain's
// entry, because its approval can stop it; so does every branch runner.
func TestTypedLoops(t *testing.T) {
	p := planOf(t, "release.flow.yaml", []byte(typedFanOuts))
	require.Len(t, p.Loops, 3)
	require.Len(t, p.FanOuts, 2)

	run := p.Loops[0]
	assert.Equal(t, "run", run.Method)
	assert.Equal(t, []string{"load", "sign", "report"}, ids(run.States...))
	assert.Equal(t, "load", run.Start.ID)
	assert.True(t, run.FromStep)
	assert.Nil(t, run.Exit, "the run loop stops at the end of the run")
	assert.Equal(t, plan.RunSession, run.Session)
	assert.Nil(t, run.FanOut)

	items, branches := p.FanOuts[0], p.FanOuts[1]
	assert.Equal(t, "load", items.From.ID)
	assert.Equal(t, "mapLoad", items.Method)
	assert.True(t, items.Items)
	assert.Equal(t, []string{"draft"}, ids(items.Entries...))
	assert.Equal(t, 2, items.Limit)
	assert.Equal(t, "sign", items.Exit.ID)
	assert.True(t, items.Stops, "review is an approval inside the iteration")
	assert.Same(t, items, p.FanOutAt("load"))

	iterate := p.Loops[1]
	assert.Equal(t, []*plan.Loop{iterate}, items.Loops)
	assert.Equal(t, "iterateLoad", iterate.Method)
	assert.Equal(t, "iterateLoad", iterate.Entry)
	assert.Equal(t, []string{"draft", "review"}, ids(iterate.States...))
	assert.Equal(t, "draft", iterate.Start.ID)
	assert.True(t, iterate.FromStep, "a resumed item starts where it stopped")
	assert.Equal(t, "sign", iterate.Exit.ID)
	assert.Equal(t, plan.StopSession, iterate.Session)
	assert.Same(t, items, iterate.FanOut)

	assert.Equal(t, "sign", branches.From.ID)
	assert.Equal(t, "parallelSign", branches.Method)
	assert.False(t, branches.Items)
	assert.Equal(t, []string{"legal", "security"}, ids(branches.Entries...))
	assert.Equal(t, 0, branches.Limit)
	assert.Equal(t, "report", branches.Exit.ID)
	assert.True(t, branches.Stops, "legal is an approval inside a branch")

	branch := p.Loops[2]
	assert.Equal(t, []*plan.Loop{branch}, branches.Loops)
	assert.Equal(t, "branchSign", branch.Method)
	assert.Equal(t, []string{"legal", "security"}, ids(branch.States...))
	assert.Nil(t, branch.Start, "each branch starts at its own entry")
	assert.True(t, branch.FromStep)
	assert.Equal(t, "report", branch.Exit.ID)
	assert.Equal(t, plan.StopSession, branch.Session)

	assert.True(t, p.StopsInFanOuts())
	assert.Nil(t, p.FanOutAt("report"))
}

// Without an approval inside it, an item runs its chain from the entry,
// with no session: nothing in it can stop.
func TestTypedLoopWithoutStops(t *testing.T) {
	src := `workflow: Drafts
state:
  items: "[]string"
  drafts: {type: "[]string", reducer: append}
states:
  - id: load
    next: {state_id: draft, iter_key: items}
  - id: draft
    next: {state_id: report}
  - id: report
`
	p := planOf(t, "drafts.flow.yaml", []byte(src))
	require.Len(t, p.Loops, 2)
	iterate := p.Loops[1]
	assert.Equal(t, "iterateLoad", iterate.Method)
	assert.Equal(t, "draft", iterate.Start.ID)
	assert.False(t, iterate.FromStep)
	assert.Equal(t, "report", iterate.Exit.ID)
	assert.Equal(t, plan.NoSession, iterate.Session)
	assert.False(t, p.FanOuts[0].Stops)
	assert.Equal(t, 0, p.FanOuts[0].Limit)
	assert.False(t, p.StopsInFanOuts())
}

// A Parallel whose second branch waits for a task token (the callback
// pattern of Step Functions, as in golden/aslcallback/pair.asl.json): that
// branch's loop starts at a step, which its entry method finds
// (runtime/impl/asl/resume.go, ResumeBranch); the first branch's loop
// starts at its own start. Only the top-level states are checkpointed.
const aslParallel = `{
  "StartAt": "Both",
  "States": {
    "Both": {
      "Type": "Parallel",
      "Branches": [
        {"StartAt": "Left", "States": {
          "Skip": {"Type": "Pass", "End": true},
          "Left": {"Type": "Pass", "Next": "Skip"}}},
        {"StartAt": "Right", "States": {"Right": {"Type": "Task", "Resource": "arn:aws:states:::sqs:sendMessage.waitForTaskToken", "Parameters": {"TaskToken.$": "$$.Task.Token"}, "End": true}}}
      ],
      "Next": "Done"
    },
    "Done": {"Type": "Succeed"}
  }
}`

func TestASLLoops(t *testing.T) {
	p := planOf(t, "pair.asl.json", []byte(aslParallel))
	require.Len(t, p.Loops, 3)
	require.Len(t, p.FanOuts, 1)

	run := p.Loops[0]
	assert.Equal(t, "run", run.Method)
	assert.Equal(t, "run", run.Entry)
	assert.Equal(t, "the state machine", run.What)
	assert.Equal(t, []string{"Both", "Done"}, ids(run.States...))
	assert.Equal(t, "Both", run.Start.ID)
	assert.True(t, run.FromStep)
	assert.Nil(t, run.Exit)
	assert.Equal(t, plan.RunSession, run.Session)
	assert.Same(t, p.Workflow.States[0], run.Machine.States[0])

	both := p.FanOuts[0]
	assert.Equal(t, "Both", both.From.ID)
	assert.Empty(t, both.Method, "the Parallel state's step runs it")
	assert.False(t, both.Items)
	assert.Equal(t, []string{"Left", "Right"}, ids(both.Entries...))
	assert.True(t, both.Stops)
	assert.Equal(t, []*plan.Loop{p.Loops[1], p.Loops[2]}, both.Loops)
	assert.True(t, p.StopsInFanOuts())

	left := p.Loops[1]
	assert.Equal(t, "runBothBranch1", left.Method)
	assert.Equal(t, "runBothBranch1", left.Entry)
	assert.Equal(t, `branch 1 of Parallel state "Both"`, left.What)
	assert.Equal(t, []string{"Skip", "Left"}, ids(left.States...))
	assert.Equal(t, "Left", left.Start.ID, "the branch's StartAt, not its first state")
	assert.False(t, left.FromStep)
	assert.Equal(t, plan.NoSession, left.Session)
	assert.Same(t, both, left.FanOut)
	assert.Same(t, left, p.MachineLoop(p.Workflow.States[0].ASL.Branches[0]))

	right := p.Loops[2]
	assert.Equal(t, "runBothBranch2From", right.Method)
	assert.Equal(t, "runBothBranch2", right.Entry)
	assert.Equal(t, "Right", right.Start.ID)
	assert.True(t, right.FromStep)
	assert.Nil(t, right.Exit, "a branch runs to the end of its machine")
	assert.Equal(t, plan.StopSession, right.Session)

	both0 := p.Workflow.States[0]
	assert.True(t, p.Checkpointed(both0))
	assert.False(t, p.Checkpointed(both0.ASL.Branches[1].States[0]), "Right stops only its branch")
}
