package subflow

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrun "github.com/flowc-dev/flowc/flowrun"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// team implements the parent's handlers, the child agent's included: the
// agent's states run on the supervisor's state. Actions are scripted.
type team struct {
	decides  []string // decide's actions, one per call; "answer" once they run out
	answers  []string // answer's actions, one per call; "" once they run out
	verdicts []string // supervise's actions, one per call; "" once they run out
	failOnce string   // a state whose first call fails
}

func pop(list *[]string, fallback string) string {
	if len(*list) == 0 {
		return fallback
	}
	v := (*list)[0]
	*list = (*list)[1:]
	return v
}

func (h *team) fail(state string) error {
	if h.failOnce != state {
		return nil
	}
	h.failOnce = ""
	return flowcrt.NewError("Unavailable", state+" is down")
}

func (h *team) Decide(ctx context.Context, s SupervisedState) (SupervisedUpdate, string, error) {
	return SupervisedUpdate{}.WithTrail([]string{"decide"}), pop(&h.decides, "answer"), nil
}

func (h *team) Search(ctx context.Context, s SupervisedState) (SupervisedUpdate, error) {
	if err := h.fail("search"); err != nil {
		return SupervisedUpdate{}, err
	}
	return SupervisedUpdate{}.WithTrail([]string{"search"}).WithContext([]string{"found " + s.Question}), nil
}

func (h *team) Answer(ctx context.Context, s SupervisedState) (SupervisedUpdate, string, error) {
	return SupervisedUpdate{}.WithTrail([]string{"answer"}).WithAnswer("answer to " + s.Question), pop(&h.answers, ""), nil
}

func (h *team) Supervise(ctx context.Context, s SupervisedState) (SupervisedUpdate, string, error) {
	return SupervisedUpdate{}.WithTrail([]string{"supervise"}).WithReviews(1), pop(&h.verdicts, ""), nil
}

func (h *team) Human(ctx context.Context, s SupervisedState) (SupervisedUpdate, error) {
	return SupervisedUpdate{}.WithTrail([]string{"human"}), nil
}

func run(t *testing.T, h *team) SupervisedState {
	t.Helper()
	out, err := NewSupervised(h).Run(context.Background(), SupervisedState{Question: "go"})
	require.NoError(t, err)
	return out
}

// The agent ends on answer's action "done", which the parent does not
// route: its default sends the run to the supervisor, whose "" ends it.
func TestChildRunsAsOneStep(t *testing.T) {
	out := run(t, &team{decides: []string{"search", "answer"}, answers: []string{"done"}})
	assert.Equal(t, []string{"decide", "search", "decide", "answer", "supervise"}, out.Trail)
	assert.Equal(t, []string{"found go"}, out.Context, "the child's updates fold through the parent's reducers")
	assert.Equal(t, 1, out.Reviews)
}

// decide's "escalate" is not one of the child's actions, so it ends the
// child with that action, and the parent's actions route it to human.
func TestParentRoutesOnChildsLastAction(t *testing.T) {
	out := run(t, &team{decides: []string{"search", "escalate"}})
	assert.Equal(t, []string{"decide", "search", "decide", "human"}, out.Trail)

	out = run(t, &team{answers: []string{"escalate"}})
	assert.Equal(t, []string{"decide", "answer", "human"}, out.Trail, "an action that the child routes nowhere ends it")
}

// The supervisor's "retry" goes back into the child, at its start.
func TestRetryLoopsBackIntoChild(t *testing.T) {
	out := run(t, &team{decides: []string{"answer", "search", "answer"}, verdicts: []string{"retry", "retry"}})
	assert.Equal(t, []string{
		"decide", "answer", "supervise",
		"decide", "search", "decide", "answer", "supervise",
		"decide", "answer", "supervise",
	}, out.Trail)
	assert.Equal(t, 3, out.Reviews)
}

// A run that fails inside the child resumes inside it: the child's states
// already done are not run again.
func TestResumeInsideChild(t *testing.T) {
	ctx := context.Background()
	h := &team{decides: []string{"search", "answer"}, failOnce: "search"}
	w := NewSupervised(h, flowcrt.WithCheckpointer(flowcrt.NewMemoryCheckpointer()))
	_, err := w.Invoke(ctx, "s", &SupervisedState{Question: "go"})
	var se *flowcrt.StateError
	require.True(t, errors.As(err, &se), "%v", err)
	assert.Equal(t, "search", se.State, "the child's state is named by its own id")

	out, err := w.Resume(ctx, "s")
	require.NoError(t, err)
	assert.Equal(t, []string{"decide", "search", "decide", "answer", "supervise"}, out.Trail)
}

// A mock config names the child's states by their own ids.
func TestMocksNameChildStates(t *testing.T) {
	cfg, err := flowcrun.ParseMockConfig([]byte(`{
	  "StateMachines": {"Supervised": {"TestCases": {"escalated": {"decide": "Escalate"}}}},
	  "MockedResponses": {"Escalate": {"0": {"Return": {"Action": "escalate", "trail": ["mocked decide"]}}}}
	}`))
	require.NoError(t, err)
	mocks, err := cfg.Case("Supervised", "escalated")
	require.NoError(t, err)
	out, err := NewSupervisedMock(mocks).Run(context.Background(), SupervisedState{})
	require.NoError(t, err)
	assert.Equal(t, []string{"mocked decide"}, out.Trail)
}
