package check_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/compiler/check"
	"github.com/flowc-dev/flowc/compiler/flowyaml"
	"github.com/flowc-dev/flowc/compiler/yamlx"
	"github.com/flowc-dev/flowc/ir"
)

const iterating = `
workflow: Chunks
state:
  chunks: {type: "[]string"}
  total: {type: int, reducer: add}
states:
  - id: split
    next: {state_id: process, iter_key: chunks}
  - id: process
    next: {state_id: merge}
  - id: merge
    next:
      condition:
        expression: "total > 2 and len(chunks) > 0"
        then: end
        otherwise: split
`

func lower(t *testing.T, src string) *ir.Workflow {
	t.Helper()
	r := &yamlx.Reader{File: "chunks.flow.yaml"}
	root, _ := r.ParseSource([]byte(src))
	require.NotNil(t, root, r.Diags.Lines())
	w := flowyaml.Lower(r, root, flowyaml.Defaults{Stem: "chunks", Package: "chunks"})
	require.False(t, r.Diags.HasErrors(), r.Diags.Lines())
	return w
}

// The checker reports what it derives beside the workflow, so the IR stays
// as the front-end made it: a second compilation, or another generator,
// reads the same input.
func TestCheckLeavesTheIRAsLowered(t *testing.T) {
	w := lower(t, iterating)
	before, err := json.Marshal(w)
	require.NoError(t, err)

	checked, ds := check.Check(w, check.Options{NoPackage: true})
	require.False(t, ds.HasErrors(), ds.Lines())

	after, err := json.Marshal(w)
	require.NoError(t, err)
	require.JSONEq(t, string(before), string(after))
	require.Same(t, w, checked.Workflow)
}

// The facts are what code generation needs from the Go types: the
// condition's checked tree, the items' source and type, and the item
// parameter of the handlers that run inside the iteration.
func TestCheckReturnsFacts(t *testing.T) {
	w := lower(t, iterating)
	checked, ds := check.Check(w, check.Options{NoPackage: true})
	require.False(t, ds.HasErrors(), ds.Lines())

	cond := w.State("merge").Next.Cond
	tree := checked.Cond(cond)
	require.NotSame(t, cond, tree)
	require.Equal(t, ir.ExprBinary, tree.Kind)
	require.Equal(t, "&&", tree.Op, "Python's `and` lowered to Go's operator")

	require.Len(t, w.Regions, 1)
	items := checked.Items(w.Regions[0])
	require.Equal(t, &ir.Type{Kind: ir.TypeBasic, Name: "string"}, items.Item)
	require.False(t, items.Wrap)
	require.Equal(t, []ir.Access{{Kind: ir.AccessField, Name: "Chunks", Pointer: "/chunks"}}, items.Source)

	require.Equal(t, items.Item, checked.HandlerItem(w.State("process")))
	require.Nil(t, checked.HandlerItem(w.State("merge")))
}
