package native

import (
	"bytes"
	"go/format"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/codegen/internal/dialect"
	"github.com/flowc-dev/flowc/codegen/internal/emit"
	"github.com/flowc-dev/flowc/ir"
	"github.com/flowc-dev/flowc/ir/plan"
)

// plainStates builds a typed workflow of n plain states with ids of every
// length, some past the 40 characters where gofmt may stop aligning, and
// one state that is not plain.
func plainStates(n int) *ir.Workflow {
	w := &ir.Workflow{ID: "Big", Name: "Big", Package: "big", Mode: ir.ModeTyped,
		Fields: []*ir.Field{{Name: "n", GoName: "N", Type: &ir.Type{Name: "int"}, Reducer: ir.Reducer{Kind: ir.ReduceAdd}}}}
	for i := range n {
		id := "s" + strconv.Itoa(i) + string(bytes.Repeat([]byte("x"), i%50))
		s := &ir.State{ID: id, GoName: "S" + strconv.Itoa(i) + string(bytes.Repeat([]byte("X"), i%50)),
			Handler: &ir.Handler{Name: "H" + strconv.Itoa(i%7), Kind: ir.HandlerUpdate}, Next: &ir.Transition{Kind: ir.TransEnd}}
		if i > 0 {
			prev := w.States[i-1]
			prev.Next = &ir.Transition{Kind: ir.TransGoto, To: ir.Ref{ID: id}}
		}
		w.States = append(w.States, s)
	}
	if n > 2 { // one state that is not plain, between plain ones
		s := w.States[1]
		s.Handler = &ir.Handler{Name: "Decide", Kind: ir.HandlerAction}
		s.Next = &ir.Transition{Kind: ir.TransActions, Default: &ir.Ref{ID: w.States[2].ID}}
	}
	w.Start = ir.Ref{ID: w.States[0].ID}
	return w
}

// The lines the target writes itself are laid out as gofmt would, and say
// what jennifer would have written in their place.
func TestBulkTextIsGofmtd(t *testing.T) {
	for _, n := range []int{1, 3, 60} {
		w := plainStates(n)
		target, opts := Target{Dialect: dialect.Of}, emit.Options{FileName: "big_flow.go"}
		on, err := target.files(plan.Typed(ir.NewChecked(w)), opts, false)
		require.NoError(t, err)
		off, err := target.files(plan.Typed(ir.NewChecked(w)), opts, true)
		require.NoError(t, err)
		for i, f := range on {
			formatted, err := format.Source(f.Content)
			require.NoError(t, err)
			assert.Equal(t, string(formatted), string(f.Content), "%d states, %s: bulk text is not gofmt'd", n, f.Name)
			assert.Equal(t, string(off[i].Content), string(f.Content), "%d states, %s: bulk text differs from jennifer's", n, f.Name)
		}
	}
}
