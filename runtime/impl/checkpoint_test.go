package impl

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func sampleCheckpoint() *Checkpoint {
	return &Checkpoint{
		Session: "s1", Workflow: "W", Schema: "sha256:00", Step: 3, Status: StatusInterrupted,
		Position: Position{State: "review", FanOut: &FanOutProgress{Done: map[int]json.RawMessage{1: json.RawMessage(`[{"n":1}]`)}},
			Inside: []ChildPosition{{State: "review/ask", Input: json.RawMessage(`{"n":3}`), Vars: json.RawMessage(`{"v":4}`)}}},
		State:   json.RawMessage(`{"n":2}`),
		Pending: &Pending{State: "review", Prompt: "OK?", Options: []string{"yes", "no"}},
		Time:    time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
	}
}

// checkpointerContract is what every Checkpointer does.
func checkpointerContract(t *testing.T, cp Checkpointer) {
	ctx := context.Background()
	_, err := cp.Load(ctx, "s1")
	assert.ErrorIs(t, err, ErrNoCheckpoint)
	c := sampleCheckpoint()
	require.NoError(t, cp.Save(ctx, c))
	require.NoError(t, cp.Save(ctx, &Checkpoint{Session: "s0", Status: StatusFinished, State: json.RawMessage(`{}`)}))
	got, err := cp.Load(ctx, "s1")
	require.NoError(t, err)
	assert.Equal(t, c, got)
	ids, err := cp.List(ctx)
	require.NoError(t, err)
	assert.Equal(t, []string{"s0", "s1"}, ids)
	require.NoError(t, cp.Delete(ctx, "s1"))
	require.NoError(t, cp.Delete(ctx, "never"))
	_, err = cp.Load(ctx, "s1")
	assert.ErrorIs(t, err, ErrNoCheckpoint)
}

func TestMemoryCheckpointer(t *testing.T) {
	m := NewMemoryCheckpointer()
	checkpointerContract(t, m)
	c := sampleCheckpoint()
	require.NoError(t, m.Save(context.Background(), c))
	c.State[1] = 'X'
	c.Pending.Options[0] = "changed"
	c.Position.Inside[0].Input[1] = 'X'
	c.Position.Inside[0].State = "changed"
	got, err := m.Load(context.Background(), "s1")
	require.NoError(t, err)
	assert.Equal(t, sampleCheckpoint(), got, "the store keeps copies")
}

type approver func(ctx context.Context, req ApprovalRequest) (string, error)

func (a approver) Approve(ctx context.Context, req ApprovalRequest) (string, error) {
	return a(ctx, req)
}

func TestApprove(t *testing.T) {
	ctx := context.Background()
	req := &ApprovalRequest{State: "review", Prompt: "OK?", Options: []string{"yes", "no"}}

	_, err := Approve(ctx, nil, struct{}{}, req, nil)
	var wait *Interrupted
	require.ErrorAs(t, err, &wait)
	assert.Equal(t, `state "review" waits for a decision: OK? (options: "yes", "no")`, wait.Error())
	assert.Equal(t, `{"status":"INTERRUPTED","prompt":"OK?","options":["yes","no"]}`, string(ResultLine(nil, err)))

	d, err := Approve(ctx, nil, approver(func(_ context.Context, r ApprovalRequest) (string, error) {
		assert.Equal(t, 42, r.Input)
		return "no", nil
	}), req, 42)
	require.NoError(t, err)
	assert.Equal(t, "no", d)

	sess := &Session{decisions: map[string]string{"review": "yes"}}
	d, err = Approve(ctx, sess, struct{}{}, req, nil)
	require.NoError(t, err)
	assert.Equal(t, "yes", d, "the decision of Decide comes first")
	_, err = Approve(ctx, sess, struct{}{}, req, nil)
	assert.True(t, IsInterrupted(err), "and is used once")
}

// An approver past the timeout fails with a timeout; its deadline is real.
func TestApproveTimeout(t *testing.T) {
	req := &ApprovalRequest{State: "review", Timeout: 10 * time.Millisecond}
	_, err := Approve(context.Background(), nil, approver(func(ctx context.Context, _ ApprovalRequest) (string, error) {
		<-ctx.Done()
		return "", ctx.Err()
	}), req, nil)
	assert.Equal(t, errTimeout, ErrorName(err))
	assert.True(t, MatchError(err, []string{"Timeout"}))
}

// A fan-out checkpoint that names more branches than the fan-out has is
// refused rather than misapplied.
func TestStartFanOutRefusesForeignProgress(t *testing.T) {
	sess := &Session{
		cfg: &Config{Checkpointer: NewMemoryCheckpointer()}, id: "s",
		fanOut: &FanOutProgress{Done: map[int]json.RawMessage{5: json.RawMessage(`[]`)}}, fanOutAt: "split",
	}
	state := struct{}{}
	_, err := StartFanOut(context.Background(), sess, "split", &state, NewRecords[int](2, 1))
	var bad *SessionError
	require.True(t, errors.As(err, &bad))
	assert.ErrorContains(t, err, "branch 5 of the fan-out at \"split\", which has 2")
}
