package arith

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// visitor records the state that calls it in the trail.
type visitor struct{}

func (visitor) Visit(ctx context.Context, s ArithState) (ArithUpdate, error) {
	return ArithUpdate{}.WithTrail([]string{flowcrt.StateFromContext(ctx)}), nil
}

func trail(t *testing.T, in ArithState) []string {
	t.Helper()
	out, err := NewArith(visitor{}, flowcrt.WithStateContext()).Run(context.Background(), in)
	require.NoError(t, err)
	return out.Trail
}

func TestArithmetic(t *testing.T) {
	tests := []struct {
		in   ArithState
		want string
	}{
		{ArithState{Count: 7, Divisor: 2}, "odd"},
		{ArithState{Count: 6, Divisor: 2}, "big"},                         // 3 > 2.5
		{ArithState{Count: 5, Divisor: 2}, "odd"},                         // 5 % 2 == 1
		{ArithState{Count: 2, Divisor: 1}, "half"},                        // 2 / 4 is 0.5: true division
		{ArithState{Count: 4, Divisor: 2, Score: 3}, "high"},              // 3*2 + 4 >= 10
		{ArithState{Count: 4, Divisor: 2, Score: 2.9}, "other"},           // 9.8
		{ArithState{Divisor: 1, Score: -1, Flag: true}, "negative"},       // -(-1) > 0
		{ArithState{Divisor: 1, Score: -1}, "other"},                      // flag is False
		{ArithState{Count: 5, Divisor: 2, Score: 100, Flag: true}, "odd"}, // the condition comes first
	}
	for _, tt := range tests {
		got := trail(t, tt.in)
		assert.Equal(t, tt.want, got[len(got)-1], "%+v", tt.in)
	}
}

// Python's % takes the sign of the divisor: -3 % 2 == 1.
func TestModuloOfNegative(t *testing.T) {
	assert.Equal(t, []string{"check", "odd"}, trail(t, ArithState{Count: -3, Divisor: 2}))
}

// Dividing by zero fails the evaluation (ZeroDivisionError in Python): a
// failing condition takes `otherwise`, a failing switch case counts as
// false. With count 5 and divisor 0, `count % divisor` fails (check goes to
// ratio), `count / divisor` fails too (not +Inf > 2.5), 5 / 4 is not 0.5,
// 5 < 10 and -0 is not > 0.
func TestDivisionByZeroIsFalse(t *testing.T) {
	assert.Equal(t, []string{"check", "ratio", "other"}, trail(t, ArithState{Count: 5}))
}
