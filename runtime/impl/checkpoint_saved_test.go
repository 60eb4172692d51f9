package impl

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// savedBranches are three branches whose state is a string, saved as its
// JSON, the way JSON mode saves its copies of the store.
type savedBranches struct {
	states   []string
	attached []int
	ran      []int // the step each branch ran from; -1: it did not run
	opened   bool
}

func (b *savedBranches) of(run func(i int) error) SavedBranches[int] {
	return SavedBranches[int]{
		N: len(b.states), IDs: []string{"", "F", "A", "B"},
		Entry: func(int) int { return 2 },
		Opened: func() (json.RawMessage, json.RawMessage, error) {
			b.opened = true
			return json.RawMessage(`"start"`), json.RawMessage(`{"Text":"[1]","Value":[1]}`), nil
		},
		Attach: func(i int) { b.attached[i]++ },
		Save:   func(i int) (json.RawMessage, error) { return json.Marshal(b.states[i]) },
		Load:   func(i int, data []byte) error { return json.Unmarshal(data, &b.states[i]) },
		Run: func(_ context.Context, i int, step int) error {
			b.ran[i] = step
			return run(i)
		},
	}
}

func newSavedBranches() *savedBranches {
	return &savedBranches{states: make([]string, 3), attached: make([]int, 3), ran: []int{-1, -1, -1}}
}

// A fan-out whose branches the caller saves (JSON mode's) resumes from
// its checkpoint: the finished branch is restored and not run, the
// stopped one starts at its state from its saved copy, the others run from
// their entry; a branch that stops before a state is saved there, and the
// checkpoint keeps the output of the state that opened the fan-out.
func TestFanOutSavedResume(t *testing.T) {
	ctx := context.Background()
	output := json.RawMessage(`{"Text":"[1]","Value":[1]}`)
	sess := &Session{cfg: &Config{Checkpointer: NewMemoryCheckpointer()}, id: "s", workflow: "w", fanOutAt: "F",
		fanOut: &FanOutProgress{Done: map[int]json.RawMessage{0: json.RawMessage(`"zero"`)}, Output: output,
			Stopped: map[int]*BranchStop{1: {State: "B", Input: json.RawMessage(`"one"`), Pending: &Pending{Key: "F/1/B", State: "B"}}}}}

	saved, ok := SavedOutput(ctx, sess, "F")
	require.True(t, ok)
	assert.JSONEq(t, string(output), string(saved))
	_, ok = SavedOutput(ctx, sess, "G")
	assert.False(t, ok, "another state's fan-out has no saved output")

	b := newSavedBranches()
	err := FanOutSaved(ctx, sess, "F", b.of(func(i int) error {
		if i == 1 {
			b.states[1] += "-again"
			return &Interrupted{State: "B", Prompt: "ok?"}
		}
		b.states[i] = "done"
		return nil
	}))
	var wait *Interrupted
	require.ErrorAs(t, err, &wait)
	assert.Equal(t, []string{"zero", "one-again", "done"}, b.states)
	assert.Equal(t, []int{-1, 3, 2}, b.ran, "branch 0 finished before; branch 1 goes on at B")
	assert.Equal(t, []int{0, 2, 1}, b.attached, "a restored branch is attached again")
	assert.Equal(t, []Pending{{Key: "F/1/B", State: "B", Prompt: "ok?"}}, wait.Stops)
	assert.JSONEq(t, `"one-again"`, string(wait.At.FanOut.Stopped[1].Input))
	assert.JSONEq(t, `"done"`, string(wait.At.FanOut.Done[2]))
	assert.JSONEq(t, `"start"`, string(wait.At.Input))
	assert.JSONEq(t, string(output), string(wait.At.FanOut.Output))
}

// Without a session the branches run from their entry and nothing is
// saved; a checkpoint that resumes a branch at a state outside the
// fan-out is refused.
func TestFanOutSavedWithoutSession(t *testing.T) {
	b := newSavedBranches()
	require.NoError(t, FanOutSaved(context.Background(), nil, "F", b.of(func(int) error { return nil })))
	assert.Equal(t, []int{2, 2, 2}, b.ran)
	assert.False(t, b.opened)
	assert.Equal(t, []int{0, 0, 0}, b.attached)

	sess := &Session{cfg: &Config{Checkpointer: NewMemoryCheckpointer()}, id: "s", workflow: "w", fanOutAt: "F",
		fanOut: &FanOutProgress{Stopped: map[int]*BranchStop{0: {State: "Elsewhere", Input: json.RawMessage(`"x"`)}}}}
	err := FanOutSaved(context.Background(), sess, "F", newSavedBranches().of(func(int) error { return nil }))
	var serr *SessionError
	require.ErrorAs(t, err, &serr)
}
