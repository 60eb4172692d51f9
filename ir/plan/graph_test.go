package plan

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/flowc-dev/flowc/ir"
)

// Choice rules as the Amazon States Language specification writes them
// ("Choice Rules": comparison operators with Variable and a literal or a
// ...Path operand, And/Or/Not; JSONata's Condition), labelled compactly.
func TestRuleLabel(t *testing.T) {
	yes, no := true, false
	x := &ir.Path{Source: "$.x"}
	gt := &ir.ChoiceRule{Op: "NumericGreaterThan", Variable: x, Value: 3.0}
	for _, tc := range []struct {
		name string
		rule *ir.ChoiceRule
		want string
	}{
		{"comparison", gt, "$.x NumericGreaterThan 3"},
		{"path operand", &ir.ChoiceRule{Op: "StringEqualsPath", Variable: x, Other: &ir.Path{Source: "$.y"}}, "$.x StringEqualsPath $.y"},
		{"and", &ir.ChoiceRule{Op: "And", Args: []*ir.ChoiceRule{gt, {Op: "IsPresent", Variable: x, Value: true}}},
			"($.x NumericGreaterThan 3 and $.x IsPresent true)"},
		{"or", &ir.ChoiceRule{Op: "Or", Args: []*ir.ChoiceRule{gt, gt}}, "($.x NumericGreaterThan 3 or $.x NumericGreaterThan 3)"},
		{"not", &ir.ChoiceRule{Op: "Not", Args: []*ir.ChoiceRule{gt}}, "not $.x NumericGreaterThan 3"},
		{"folded true", &ir.ChoiceRule{Op: "StringEquals", Variable: x, Value: "a", Fixed: &yes}, "always (StringEquals a)"},
		{"folded false", &ir.ChoiceRule{Op: "StringEquals", Variable: x, Value: "a", Fixed: &no}, "never (StringEquals a)"},
		{"intrinsic variable", &ir.ChoiceRule{Op: "BooleanEquals", Call: &ir.Intrinsic{}, Value: false}, "BooleanEquals false"},
		{"jsonata", &ir.ChoiceRule{Op: "Condition", Condition: &ir.Template{JSONata: &ir.JSONata{Source: "$states.input.n > 1"}}},
			"$states.input.n > 1"},
		{"jsonata literal", &ir.ChoiceRule{Op: "Condition", Condition: &ir.Template{Value: true}}, "true"},
		{"no condition", &ir.ChoiceRule{Op: "Condition"}, "Condition"},
	} {
		assert.Equal(t, tc.want, ruleLabel(tc.rule), tc.name)
	}
}

// The machines a state holds are named after what holds them: a Parallel
// state's branches (ASL "Parallel State"), a Map's items, or the
// definition an Include (Agent State Language) or startExecution compiles in.
func TestBranchWhat(t *testing.T) {
	state := func(typ ir.ASLType, inc *ir.Include) *ir.State {
		return &ir.State{ASL: &ir.ASLState{Type: typ, Include: inc}}
	}
	assert.Equal(t, "branch 2", branchWhat(state(ir.ASLParallel, nil), 1))
	assert.Equal(t, "each item", branchWhat(state(ir.ASLMap, nil), 0))
	assert.Equal(t, "template review", branchWhat(state(ir.ASLTask, &ir.Include{Template: "review"}), 0))
	assert.Equal(t, "state machine Child", branchWhat(state(ir.ASLTask, &ir.Include{Template: "Child", StateMachine: "arn:child"}), 0))
}

func TestConcurrencyWords(t *testing.T) {
	assert.Equal(t, "", ConcurrencyWords(0))
	assert.Equal(t, ", one after another", ConcurrencyWords(1))
	assert.Equal(t, ", at most 4 at a time", ConcurrencyWords(4))
}

// Each transition of the native languages labelled as its language words
// it: contenox's branch operators and on_failure, PocketFlow's actions,
// CodeMie's condition/otherwise and iter_key with max_concurrency.
func TestTransitionEdges(t *testing.T) {
	to := func(id string) ir.Ref { return ir.Ref{ID: id} }
	def := to("d")
	for _, tc := range []struct {
		name string
		t    *ir.Transition
		want []string // "label>target" in order
	}{
		{"actions without default end on no match", &ir.Transition{Kind: ir.TransActions,
			Actions: []*ir.Action{{Name: "retry", To: to("a")}}}, []string{"action retry>a", "no match>end"}},
		{"actions with default", &ir.Transition{Kind: ir.TransActions,
			Actions: []*ir.Action{{Name: "retry", To: to("a")}}, Default: &def}, []string{"action retry>a", "default>d"}},
		{"branches", &ir.Transition{Kind: ir.TransBranches, OnFailure: &def, Branches: []*ir.Branch{
			{Operator: ir.OpGreater, When: "3", To: to("a")}}}, []string{"on_failure>d", "> 3>a", "no match>end"}},
		{"branches with a default branch", &ir.Transition{Kind: ir.TransBranches, Branches: []*ir.Branch{
			{Operator: ir.OpContains, When: "ok", To: to("a")}, {Operator: ir.OpDefault, To: to("b")}}}, []string{"contains ok>a", "default>b"}},
		{"condition", &ir.Transition{Kind: ir.TransCondition, Cond: &ir.Expr{Source: "n > 1"}, Then: to("a"), Otherwise: to("b")},
			[]string{"n > 1>a", "otherwise>b"}},
		{"switch", &ir.Transition{Kind: ir.TransSwitch, Cases: []*ir.Case{{Cond: &ir.Expr{Source: "ok"}, To: to("a")}}, Default: &def},
			[]string{"ok>a", "default>d"}},
		{"map", &ir.Transition{Kind: ir.TransMap, To: to("a"), Iter: &ir.Iter{Key: "items", MaxConcurrency: 1}},
			[]string{"each item of items, one after another>a"}},
		{"parallel", &ir.Transition{Kind: ir.TransParallel, Targets: []ir.Ref{to("a"), to("b")}}, []string{"parallel>a", "parallel>b"}},
		{"end", &ir.Transition{Kind: ir.TransEnd}, []string{"end>end"}},
	} {
		var got []string
		transitionEdges(tc.t, func(r ir.Ref, label string) { got = append(got, label+">"+r.ID) })
		assert.Equal(t, tc.want, got, tc.name)
	}
}

// A States Language machine nests the machines of its Parallel states
// (ASL "Parallel State": each branch runs from its StartAt to its own
// end), so a branch's end is where its group ends, not an edge to the end
// of the run; a Fail state ends the run wherever it is. A state may be
// named "end" without becoming the end of the run.
func TestASLGraphNestsBranches(t *testing.T) {
	state := func(id string, typ ir.ASLType, next *ir.Transition, branches ...*ir.Machine) *ir.State {
		return &ir.State{ID: id, Next: next, ASL: &ir.ASLState{Type: typ, Branches: branches}}
	}
	end := &ir.Transition{Kind: ir.TransEnd}
	w := &ir.Workflow{Mode: ir.ModeASL, Start: ir.Ref{ID: "P"}, States: []*ir.State{
		state("P", ir.ASLParallel, &ir.Transition{Kind: ir.TransGoto, To: ir.Ref{ID: "end"}},
			&ir.Machine{Start: ir.Ref{ID: "A"}, States: []*ir.State{state("A", ir.ASLPass, end)}},
			&ir.Machine{Start: ir.Ref{ID: "F"}, States: []*ir.State{state("F", ir.ASLFail, end)}}),
		state("end", ir.ASLSucceed, end),
	}}
	g := graphOf(w)
	assert.Equal(t, "s0", g.Start)
	assert.Equal(t, []GraphNode{
		{Name: "s0", Label: "P"},
		{Name: "s0_1", Label: "P branch 1", Group: true, Nodes: []GraphNode{{Name: "s1", Label: "A"}}},
		{Name: "s0_2", Label: "P branch 2", Group: true, Nodes: []GraphNode{{Name: "s2", Label: "F"}}},
		{Name: "s3", Label: "end"},
	}, g.Nodes)
	assert.Equal(t, []GraphEdge{
		{From: "s0", To: "s1", Label: "branch 1"},
		{From: "s0", To: "s2", Label: "branch 2"},
		{From: "s0", To: "s3", Label: "next"},
		{From: "s2", To: GraphEnd, Label: "fail"},
		{From: "s3", To: GraphEnd, Label: "end"},
	}, g.Edges)
}

// The other languages list every state at the top; a fan-out's states are
// drawn inside the group of the state that opens it (CodeMie's state_ids
// and iter_key), not again at the top.
func TestStateGraphGroupsRegions(t *testing.T) {
	ref := func(id string) ir.Ref { return ir.Ref{ID: id} }
	goTo := func(id string) *ir.Transition { return &ir.Transition{Kind: ir.TransGoto, To: ref(id)} }
	region := &ir.Region{Kind: ir.RegionMap, Items: "items", Body: []ir.Ref{ref("each")}, MaxConcurrency: 3}
	w := &ir.Workflow{Mode: ir.ModeTyped, Start: ref("split"), Regions: []*ir.Region{region}, States: []*ir.State{
		{ID: "split", Next: &ir.Transition{Kind: ir.TransMap, To: ref("each"), Iter: &ir.Iter{Key: "items", MaxConcurrency: 3}, Region: region}},
		{ID: "each", Next: goTo("done")},
		{ID: "done", Next: &ir.Transition{Kind: ir.TransEnd}},
	}}
	g := graphOf(w)
	assert.Equal(t, []GraphNode{
		{Name: "s0", Label: "split"},
		{Name: "s0_each", Label: "split: each item of items, at most 3 at a time", Group: true, Nodes: []GraphNode{{Name: "s1", Label: "each"}}},
		{Name: "s2", Label: "done"},
	}, g.Nodes)
	assert.Equal(t, []GraphEdge{
		{From: "s0", To: "s1", Label: "each item of items, at most 3 at a time"},
		{From: "s1", To: "s2", Label: "next"},
		{From: "s2", To: GraphEnd, Label: "end"},
	}, g.Edges)
}
