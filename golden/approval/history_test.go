package approval

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrt "github.com/flowc-dev/flowc/runtime"
	"github.com/flowc-dev/flowc/session"
)

func history(t *testing.T, store *flowcrt.MemoryCheckpointer, id string) (kinds []string) {
	t.Helper()
	events, _, err := store.History(context.Background(), id, 0, 0)
	require.NoError(t, err)
	for _, e := range events {
		kinds = append(kinds, string(e.Kind)+" "+e.State)
	}
	return kinds
}

// A typed session's history: the run, each state entered and succeeded,
// the stop with its prompt, the answer with its door, the end.
func TestTypedHistory(t *testing.T) {
	ctx := context.Background()
	store := flowcrt.NewMemoryCheckpointer()
	w := NewPublish(&author{}, flowcrt.WithCheckpointer(store))
	_, err := w.Invoke(ctx, "doc", nil)
	require.True(t, flowcrt.IsInterrupted(err))
	_, err = w.Decide(flowcrt.WithDoor(ctx, session.DoorConsole), "doc", "approve")
	require.NoError(t, err)
	assert.Equal(t, []string{
		"run_started ", "state_entered write", "state_succeeded write", "state_entered review", "stopped_for_approval review",
		"answer_received review", "state_entered review", "state_succeeded review", "state_entered publish", "state_succeeded publish", "run_succeeded ",
	}, history(t, store, "doc"))
	events, _, err := store.History(ctx, "doc", 5, 1)
	require.NoError(t, err)
	assert.JSONEq(t, `{"decision":"approve","door":"console"}`, string(events[0].Fields))
}

// Two decisions for one stop at once: one runs, the other is refused; a
// stopped session refuses decisions and input.
func TestTypedAnswersAndStop(t *testing.T) {
	ctx := context.Background()
	store := flowcrt.NewMemoryCheckpointer()
	w := NewPublish(&author{}, flowcrt.WithCheckpointer(store))
	_, err := w.Invoke(ctx, "doc", nil)
	require.True(t, flowcrt.IsInterrupted(err))
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i, d := range []string{"approve", "reject"} {
		wg.Go(func() { _, errs[i] = w.Decide(ctx, "doc", d) })
	}
	wg.Wait()
	require.Equal(t, 1, countNil(errs), "%v", errs)
	for _, err := range errs {
		// The loser finds the stop answered, or, when the winner's run
		// went on first, the answer in the history: either way it is told
		// it lost.
		if err != nil {
			assert.ErrorIs(t, err, session.ErrAlreadyAnswered)
		}
	}

	_, err = w.Invoke(ctx, "doc2", nil)
	require.True(t, flowcrt.IsInterrupted(err))
	require.NoError(t, session.Stop(ctx, store, "doc2", "Abandoned", "no editor"))
	_, err = w.Decide(ctx, "doc2", "approve")
	assert.ErrorIs(t, err, session.ErrStopped)
	_, err = w.Invoke(ctx, "doc2", &PublishState{Draft: "v2"})
	assert.ErrorIs(t, err, session.ErrStopped)
	_, err = w.Resume(ctx, "doc2")
	var serr *flowcrt.SessionError
	assert.True(t, errors.As(err, &serr))
}

// A decision for a stop whose answer a run took already, and went on
// with, is told that the stop was answered; one for a session that never
// stopped is told that nothing waits; one for a stop that waits is taken.
func TestDecideAfterTheRunWentOn(t *testing.T) {
	ctx := context.Background()
	store := flowcrt.NewMemoryCheckpointer()
	w := NewPublish(&author{}, flowcrt.WithCheckpointer(store))
	_, err := w.Invoke(ctx, "doc", nil)
	require.True(t, flowcrt.IsInterrupted(err))
	_, err = w.Decide(flowcrt.WithDoor(ctx, session.DoorCLI), "doc", "approve")
	require.NoError(t, err)

	_, err = w.Decide(ctx, "doc", "reject")
	require.ErrorIs(t, err, session.ErrAlreadyAnswered)
	assert.ErrorContains(t, err, `stop "review" was answered (through cli) and its run went on`)
	assert.ErrorIs(t, session.Answer(ctx, store, "doc", "review", session.AnswerInput{Decision: "reject"}), session.ErrAlreadyAnswered,
		"the console's and the CLI's way")
	assert.NotErrorIs(t, session.Answer(ctx, store, "doc", "elsewhere", session.AnswerInput{Decision: "reject"}), session.ErrAlreadyAnswered,
		"no stop of that key was ever answered")

	_, err = NewPublish(failing{&author{}}, flowcrt.WithCheckpointer(store)).Invoke(ctx, "broken", nil)
	require.Error(t, err)
	_, err = w.Decide(ctx, "broken", "approve")
	assert.NotErrorIs(t, err, session.ErrAlreadyAnswered)
	assert.ErrorContains(t, err, "no approval waits for a decision")
}

// A failed run records why and saves the session failed, where it failed;
// a redrive (Step Functions' RedriveExecution) goes on from there, counted
// and recorded, with its door.
func TestTypedFailure(t *testing.T) {
	ctx := context.Background()
	store := flowcrt.NewMemoryCheckpointer()
	_, err := NewPublish(failing{&author{}}, flowcrt.WithCheckpointer(store)).Invoke(ctx, "doc", nil)
	require.Error(t, err)
	cp, err := store.Load(ctx, "doc")
	require.NoError(t, err)
	assert.Equal(t, flowcrt.StatusFailed, cp.Status)
	assert.Equal(t, "write", cp.Position.State)
	assert.Equal(t, []string{"run_started ", "state_entered write", "state_failed write", "run_failed "}, history(t, store, "doc"))
	require.NotNil(t, cp.Position.Failure)
	assert.Equal(t, `state "write": disk full`, cp.Position.Failure.Cause)

	w := NewPublish(&author{}, flowcrt.WithCheckpointer(store))
	_, err = w.Resume(flowcrt.WithRedrive(flowcrt.WithDoor(ctx, session.DoorCLI)), "doc")
	require.True(t, flowcrt.IsInterrupted(err), "redriven, it writes and stops at the review: %v", err)
	cp, err = store.Load(ctx, "doc")
	require.NoError(t, err)
	assert.Nil(t, cp.Position.Failure)
	assert.Equal(t, 1, cp.Position.Redrives)
	assert.Equal(t, []string{"run_started ", "state_entered write", "state_failed write", "run_failed ",
		"redriven write", "state_entered write", "state_succeeded write", "state_entered review", "stopped_for_approval review"}, history(t, store, "doc"))
	events, _, err := store.History(ctx, "doc", 4, 1)
	require.NoError(t, err)
	assert.JSONEq(t, `{"redrive_count":1,"door":"cli"}`, string(events[0].Fields))
	_, err = w.Resume(flowcrt.WithRedrive(ctx), "doc")
	assert.ErrorIs(t, err, flowcrt.ErrNotRedrivable, "it waits; it did not fail")
}

type failing struct{ *author }

func (failing) Write(context.Context, PublishState) (PublishUpdate, error) {
	return PublishUpdate{}, errors.New("disk full")
}

func countNil(errs []error) (n int) {
	for _, err := range errs {
		if err == nil {
			n++
		}
	}
	return n
}
