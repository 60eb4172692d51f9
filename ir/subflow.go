package ir

import "slices"

// Subflow records a child workflow that a parent state's `flow:` runs as one
// step. The front-end splices the child's states into the parent (they run
// on the parent's state, in the parent's loop), so code generation needs
// nothing of it but the graph's subgraphs and the files the output depends on.
type Subflow struct {
	Pos    Pos    // the `flow:` value in the parent
	State  string // the parent state the child replaces
	ID     string // the child's workflow id
	Source string // the child's file, as the compiler read it
	Path   string // the same file relative to the outermost definition's directory, slash-separated
	// States are the child's own states, in its source order; the states of
	// the child's own children are in Inner.
	States []string
	Inner  []*Subflow
}

// AllSubflows lists the children of a workflow, nested ones included, in
// the order the front-end met them.
func (w *Workflow) AllSubflows() []*Subflow {
	var out []*Subflow
	var walk func([]*Subflow)
	walk = func(subs []*Subflow) {
		for _, sf := range subs {
			out = append(out, sf)
			walk(sf.Inner)
		}
	}
	walk(w.Subflows)
	return out
}

// AllStates lists the child's states and those of its own children.
func (sf *Subflow) AllStates() []string {
	out := slices.Clone(sf.States)
	for _, in := range sf.Inner {
		out = append(out, in.AllStates()...)
	}
	return out
}
