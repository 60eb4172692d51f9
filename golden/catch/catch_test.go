package catch

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// handlers: process and fixer fail as told (a nil error and no panic
// succeeds); every handler records its state in the trail.
type handlers struct {
	processErr   error
	processPanic bool
	fixerErr     error
	fixerPanic   bool
}

func (h handlers) Process(ctx context.Context, s CatchState) (CatchUpdate, error) {
	if h.processPanic {
		panic("process exploded")
	}
	return CatchUpdate{}.WithTrail([]string{"process"}), h.processErr
}

func (h handlers) Fixer(ctx context.Context, s CatchState) (CatchUpdate, error) {
	if h.fixerPanic {
		panic("fixer exploded")
	}
	return CatchUpdate{}.WithTrail([]string{"fixer"}), h.fixerErr
}

func (h handlers) Fallback(ctx context.Context, s CatchState) (CatchUpdate, error) {
	return CatchUpdate{}.WithTrail([]string{"fallback"}), nil
}

func (h handlers) Publish(ctx context.Context, s CatchState) (CatchUpdate, error) {
	return CatchUpdate{}.WithTrail([]string{"publish"}), nil
}

func run(h handlers) (CatchState, error) {
	return NewCatch(h).Run(context.Background(), CatchState{})
}

// The first rule that matches picks the next state; the failed state's
// update is dropped.
func TestCaught(t *testing.T) {
	tests := []struct {
		name string
		h    handlers
		want []string
	}{
		{"no error", handlers{}, []string{"process", "publish"}},
		{"ValidationError", handlers{processErr: flowcrt.NewError("ValidationError", "bad input")}, []string{"fixer", "publish"}},
		{"wrapped ValidationError", handlers{processErr: fmt.Errorf("checking: %w", flowcrt.NewError("ValidationError", ""))}, []string{"fixer", "publish"}},
		{"another name", handlers{processErr: flowcrt.NewError("Unavailable", "")}, []string{"fallback"}},
		{"unnamed error", handlers{processErr: errors.New("boom")}, []string{"fallback"}},
		{"panic", handlers{processPanic: true}, []string{"fallback"}},
	}
	for _, tt := range tests {
		out, err := run(tt.h)
		require.NoError(t, err, tt.name)
		assert.Equal(t, tt.want, out.Trail, tt.name)
	}
}

// An error no rule catches fails the run with a *StateError naming the
// state; the run returns the state as it was when that state began.
func TestUncaught(t *testing.T) {
	broken := flowcrt.NewError("Broken", "cannot fix")
	out, err := run(handlers{processErr: flowcrt.NewError("ValidationError", ""), fixerErr: broken})
	var se *flowcrt.StateError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, "fixer", se.State)
	assert.ErrorIs(t, err, broken)
	assert.Equal(t, "Broken", flowcrt.ErrorName(err))
	assert.Empty(t, out.Trail)
}

// A panic is an error named TaskFailed, which ALL catches (above) and which
// otherwise fails the run.
func TestUncaughtPanic(t *testing.T) {
	_, err := run(handlers{processErr: flowcrt.NewError("ValidationError", ""), fixerPanic: true})
	var se *flowcrt.StateError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, "fixer", se.State)
	assert.Equal(t, "TaskFailed", flowcrt.ErrorName(err))
	assert.Contains(t, err.Error(), "fixer exploded")
}
