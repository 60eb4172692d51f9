package codegen

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/ir"
	"github.com/flowc-dev/flowc/ir/plan"
)

// A checked condition the printer does not know is an error at its
// position, not a crash or Go that does not compile: the checker and the
// generator are out of step.
func TestGenerateRejectsUnknownCheckedCondition(t *testing.T) {
	w := &ir.Workflow{ID: "Big", Name: "Big", Package: "big", Mode: ir.ModeTyped,
		Fields: []*ir.Field{{Name: "n", GoName: "N", Type: &ir.Type{Name: "int"}}}}
	for _, id := range []string{"a", "b", "c"} {
		w.States = append(w.States, &ir.State{ID: id, GoName: strings.ToUpper(id),
			Handler: &ir.Handler{Name: "H", Kind: ir.HandlerUpdate}, Next: &ir.Transition{Kind: ir.TransEnd}})
	}
	w.Start = ir.Ref{ID: "a"}
	parsed := &ir.Expr{Kind: ir.ExprCall, Op: "upper", Source: "upper(n)"}
	w.States[0].Next = &ir.Transition{Kind: ir.TransCondition, Cond: parsed,
		Then: ir.Ref{ID: w.States[1].ID}, Otherwise: ir.Ref{ID: w.States[2].ID}}
	c := ir.NewChecked(w)
	at := ir.Pos{File: "big.flow.yaml", Line: 7, Col: 18}
	c.SetCond(parsed, &ir.Expr{Kind: ir.ExprCall, Op: "nope", Pos: at, Args: []*ir.Expr{{Kind: ir.ExprLit, Lit: int64(1), Pos: at}}})
	_, err := Generate(plan.Typed(c), Options{FileName: "big_flow.go"})
	require.Error(t, err)
	assert.Equal(t, `big.flow.yaml:7:18: unknown built-in "nope" in expression`, err.Error())
}
