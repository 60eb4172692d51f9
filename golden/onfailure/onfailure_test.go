package onfailure

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// handlers: fetch and store return their scripted eval or error; every
// handler records its state in the trail, also when it fails.
type handlers struct {
	fetchEval string
	fetchErr  error
	fetchPan  bool
	storeErr  error
}

func (h handlers) Fetch(ctx context.Context, s OnFailureState) (OnFailureUpdate, string, error) {
	if h.fetchPan {
		panic("fetch exploded")
	}
	return OnFailureUpdate{}.WithTrail([]string{"fetch"}).WithData("fetched"), h.fetchEval, h.fetchErr
}

func (h handlers) Store(ctx context.Context, s OnFailureState) (OnFailureUpdate, string, error) {
	return OnFailureUpdate{}.WithTrail([]string{"store"}).WithData("stored"), "done", h.storeErr
}

func (h handlers) Fallback(ctx context.Context, s OnFailureState) (OnFailureUpdate, error) {
	return OnFailureUpdate{}.WithTrail([]string{"fallback"}), nil
}

func run(h handlers) (OnFailureState, error) {
	return NewOnFailure(h).Run(context.Background(), OnFailureState{Data: "input"})
}

func TestSuccess(t *testing.T) {
	out, err := run(handlers{fetchEval: "ok"})
	require.NoError(t, err)
	assert.Equal(t, []string{"fetch", "store"}, out.Trail)
	assert.Equal(t, "stored", out.Data)
}

func TestDefaultBranch(t *testing.T) {
	out, err := run(handlers{fetchEval: "not found"})
	require.NoError(t, err)
	assert.Equal(t, []string{"fetch", "fallback"}, out.Trail)
	assert.Equal(t, "fetched", out.Data)
}

// A failing handler goes to on_failure, and its update is dropped: the
// branches are not evaluated.
func TestOnFailure(t *testing.T) {
	for name, h := range map[string]handlers{
		"error": {fetchEval: "ok", fetchErr: errors.New("connection refused")},
		"panic": {fetchPan: true},
	} {
		out, err := run(h)
		require.NoError(t, err, name)
		assert.Equal(t, []string{"fallback"}, out.Trail, name)
		assert.Equal(t, "input", out.Data, name)
	}
}

// Without on_failure the run fails with the error, and returns the state
// as it was when the failing state began.
func TestNoOnFailure(t *testing.T) {
	out, err := run(handlers{fetchEval: "ok", storeErr: flowcrt.NewError("WriteFailed", "disk full")})
	require.Error(t, err)
	assert.Equal(t, "WriteFailed", flowcrt.ErrorName(err))
	var se *flowcrt.StateError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, "store", se.State)
	assert.Equal(t, []string{"fetch"}, out.Trail)
	assert.Equal(t, "fetched", out.Data)
}
