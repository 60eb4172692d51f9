package flowtemporal

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"go.temporal.io/sdk/workflow"

	flowcrt "github.com/flowc-dev/flowc/runtime"
	flowcimpl "github.com/flowc-dev/flowc/runtime/impl"
	flowcchain "github.com/flowc-dev/flowc/runtime/impl/chain"
)

// A task chain runs here without the native engine's session (its run
// saves no checkpoint: ChainState.Save has no session to save through),
// since the workflow's history keeps every task it finished. Its run
// continues as new between two tasks, which the workflow finds out from
// the chain's edges. Every step that leads to another task counts the edge
// it takes (ChainState.Traverse) as the last thing it does, so the first
// look at the context's Err after an edge was counted is the loop's,
// between two tasks.

// ChainPoint is where a task chain's run goes on: the task, and the
// chain's state before it; or, for a new run, the first task and the
// run's input.
type ChainPoint struct {
	Task  string
	Start json.RawMessage `json:",omitempty"` // a new run's input; nil: the state below
	// The fields of flowcrt.ChainState, some of which its JSON leaves out.
	Output  any
	Input   any
	Vars    map[string]any `json:",omitempty"`
	Results map[string]any `json:",omitempty"`
	Edges   map[string]int `json:",omitempty"`
}

// RunChain is Run for a task chain: it runs the steps through run, from
// at, on *s, and continues as new, as name+ResumeSuffix, between two tasks
// once the run has taken StepsPerRun edges or the server suggests it. ids
// is the chain's table of task ids by step.
func RunChain(wctx workflow.Context, name string, at ChainPoint, ids []string, s *flowcrt.ChainState, run func(ctx context.Context, step int, opts ...flowcrt.Option) error) error {
	w := &chainWatch{wctx: wctx, ids: ids}
	err := runSteps(wctx, func(ctx context.Context, opts ...flowcrt.Option) error {
		step := slices.Index(ids, at.Task)
		if step <= 0 {
			return fmt.Errorf("flowc: the chain has no task %q to go on with", at.Task)
		}
		if err := at.state(s); err != nil {
			return err
		}
		w.s, w.seen = s, maps.Clone(s.Edges)
		return run(&chainContext{Context: ctx, w: w}, step, opts...)
	})
	if w.next != "" {
		return workflow.NewContinueAsNewError(wctx, name+ResumeSuffix, ChainPoint{
			Task: w.next, Output: s.Output, Input: s.Input, Vars: s.Vars, Results: s.Results, Edges: s.Edges,
		})
	}
	return err
}

// state sets *s to the state at holds, or to a new run's.
func (at ChainPoint) state(s *flowcrt.ChainState) error {
	if at.Start == nil {
		*s = flowcrt.ChainState{Output: at.Output, Input: at.Input, Vars: at.Vars, Results: at.Results, Edges: at.Edges}
		if s.Vars == nil {
			s.Vars = map[string]any{}
		}
		return nil
	}
	in, err := flowcimpl.DecodeChainInput(at.Start)
	if err == nil {
		*s, err = flowcchain.NewChainState(in)
	}
	return err
}

// chainWatch counts a chain's steps by its edges.
type chainWatch struct {
	wctx  workflow.Context
	ids   []string
	s     *flowcrt.ChainState
	seen  map[string]int // the edges at the last look
	steps int
	next  string // set: the task the run continues as new with
}

// chainContext is the context of a chain's steps on Temporal: between two
// tasks, once the run is long enough, it ends the run (errContinue).
type chainContext struct {
	context.Context
	w *chainWatch
}

func (c *chainContext) Err() error {
	if err := c.Context.Err(); err != nil {
		return err
	}
	w := c.w
	if w.next != "" {
		return errContinue
	}
	to := w.taken()
	if to == "" {
		return nil
	}
	w.seen = maps.Clone(w.s.Edges)
	w.steps++
	if w.steps >= StepsPerRun || workflow.GetInfo(w.wctx).GetContinueAsNewSuggested() {
		w.next = to
		return errContinue
	}
	return nil
}

// taken returns the task an edge counted since the last look leads to, or
// "".
func (w *chainWatch) taken() string {
	for edge, n := range w.s.Edges {
		if n == w.seen[edge] {
			continue
		}
		for _, id := range w.ids[1:] {
			if from, ok := strings.CutSuffix(edge, "->"+id); ok && slices.Contains(w.ids[1:], from) {
				return id
			}
		}
	}
	return ""
}
