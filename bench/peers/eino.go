// Package peers runs bench/loop's workflows in Eino and in Temporal, over
// the handlers and reducers that flowc's generated workflows and their
// hand-written twins call, so that one benchmark run measures all four on
// the same work (benchmarks.md, "Peers"). It is a module of its own so that
// flowc's go.mod does not require either peer.
package peers

import (
	"context"
	"fmt"

	"github.com/cloudwego/eino/compose"

	"github.com/flowc-dev/flowc/bench/loop"
)

// Each Eino graph passes the workflow's state from node to node as the
// node's input and output: a lambda node runs its state's handler and
// folds the update through the reducers (Apply), and a branch after a
// state tests the same condition as the definition. That is the least an
// Eino graph can do for the work; keeping the state in the graph's local
// state (compose.WithGenLocalState) would add a lock per node. The graphs
// keep Eino's default trigger mode (any predecessor), the one that allows
// loops; the acyclic triage in all-predecessor mode allocated more per run
// and was no faster.

// einoNode is the lambda of a state: its handler, then the fold.
func einoNode[S any, U any](handler func(context.Context, S) (U, error), apply func(*S, *U)) *compose.Lambda {
	return compose.InvokableLambda(func(ctx context.Context, s S) (S, error) {
		u, err := handler(ctx, s)
		if err != nil {
			return s, err
		}
		apply(&s, &u)
		return s, nil
	})
}

// einoBranch routes on a condition of the state: then when it holds,
// otherwise when not.
func einoBranch[S any](cond func(S) bool, then, otherwise string) *compose.GraphBranch {
	return compose.NewGraphBranch(func(_ context.Context, s S) (string, error) {
		if cond(s) {
			return then, nil
		}
		return otherwise, nil
	}, map[string]bool{then: true, otherwise: true})
}

// adder collects the first error of a graph's construction.
type adder struct{ err error }

func (a *adder) do(err error) {
	if a.err == nil {
		a.err = err
	}
}

// EinoLoop is loop.flow.yaml as an Eino graph: tick, then tock while
// n < limit, then the end. A run takes loop.LoopTransitions steps.
func EinoLoop(ctx context.Context, h loop.LoopHandlers) (compose.Runnable[loop.LoopState, loop.LoopState], error) {
	g := compose.NewGraph[loop.LoopState, loop.LoopState]()
	apply := (*loop.LoopState).Apply
	var a adder
	a.do(g.AddLambdaNode("tick", einoNode(h.Tick, apply)))
	a.do(g.AddLambdaNode("tock", einoNode(h.Tock, apply)))
	a.do(g.AddEdge(compose.START, "tick"))
	a.do(g.AddBranch("tick", einoBranch(func(s loop.LoopState) bool { return s.N < s.Limit }, "tock", compose.END)))
	a.do(g.AddEdge("tock", "tick"))
	if a.err != nil {
		return nil, a.err
	}
	return g.Compile(ctx, compose.WithMaxRunSteps(loop.LoopTransitions+2))
}

// EinoTriage is triage.flow.yaml as an Eino graph: classify's switch and
// review's condition are branches, fix goes to review, answer and escalate
// end the run.
func EinoTriage(ctx context.Context, h loop.TriageHandlers) (compose.Runnable[loop.TriageState, loop.TriageState], error) {
	g := compose.NewGraph[loop.TriageState, loop.TriageState]()
	apply := (*loop.TriageState).Apply
	var a adder
	a.do(g.AddLambdaNode("classify", einoNode(h.Classify, apply)))
	a.do(g.AddLambdaNode("fix", einoNode(h.Fix, apply)))
	a.do(g.AddLambdaNode("review", einoNode(h.Review, apply)))
	a.do(g.AddLambdaNode("answer", einoNode(h.Answer, apply)))
	a.do(g.AddLambdaNode("escalate", einoNode(h.Escalate, apply)))
	a.do(g.AddEdge(compose.START, "classify"))
	a.do(g.AddBranch("classify", compose.NewGraphBranch(func(_ context.Context, s loop.TriageState) (string, error) {
		switch {
		case s.Priority >= 4:
			return "escalate", nil
		case s.Category == "bug":
			return "fix", nil
		}
		return "answer", nil
	}, map[string]bool{"escalate": true, "fix": true, "answer": true})))
	a.do(g.AddEdge("fix", "review"))
	a.do(g.AddBranch("review", einoBranch(func(s loop.TriageState) bool { return s.Status == "fixed" }, "answer", "escalate")))
	a.do(g.AddEdge("answer", compose.END))
	a.do(g.AddEdge("escalate", compose.END))
	if a.err != nil {
		return nil, a.err
	}
	return g.Compile(ctx)
}

// EinoAnchor is anchor.flow.yaml as an Eino graph: 102 nodes in a ring,
// each calling the count handler, and a branch after the last that ends
// the run once n reaches loop.AnchorTransitions.
func EinoAnchor(ctx context.Context, h loop.AnchorHandlers) (compose.Runnable[loop.AnchorState, loop.AnchorState], error) {
	g := compose.NewGraph[loop.AnchorState, loop.AnchorState]()
	node := einoNode(h.Count, (*loop.AnchorState).Apply)
	var a adder
	names := make([]string, loop.AnchorStates)
	for i := range names {
		names[i] = anchorStateID(i)
		a.do(g.AddLambdaNode(names[i], node))
	}
	a.do(g.AddEdge(compose.START, names[0]))
	for i := 1; i < len(names); i++ {
		a.do(g.AddEdge(names[i-1], names[i]))
	}
	last := names[len(names)-1]
	a.do(g.AddBranch(last, einoBranch(func(s loop.AnchorState) bool { return s.N >= loop.AnchorTransitions }, compose.END, names[0])))
	if a.err != nil {
		return nil, a.err
	}
	return g.Compile(ctx, compose.WithMaxRunSteps(loop.AnchorTransitions+2))
}

// anchorStateID is the id anchor.flow.yaml gives its i-th state: s000 to s101.
func anchorStateID(i int) string {
	return fmt.Sprintf("s%03d", i)
}
