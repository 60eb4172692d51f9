package impl_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/flowc-dev/flowc/runtime/impl"
)

func TestModFollowsPython(t *testing.T) {
	for _, tt := range []struct{ a, b, want int }{
		{7, 3, 1}, {-7, 3, 2}, {7, -3, -2}, {-7, -3, -1}, {6, 3, 0}, {-6, 3, 0},
	} {
		assert.Equal(t, tt.want, impl.Mod(tt.a, tt.b), "%d %% %d", tt.a, tt.b)
	}
}

func TestDivisionByZeroFailsTheCondition(t *testing.T) {
	zero := 0
	assert.False(t, impl.Cond(func() bool { return impl.Mod(5, zero) == 0 }))
	assert.False(t, impl.Cond(func() bool { return impl.Div(1.0, float64(zero)) > 0 }))
	assert.True(t, impl.Cond(func() bool { return impl.Div(3.0, 2.0) == 1.5 }))
}

func TestCondDoesNotHideOtherPanics(t *testing.T) {
	assert.PanicsWithValue(t, "boom", func() { impl.Cond(func() bool { panic("boom") }) })
}
