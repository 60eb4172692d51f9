package actionloop

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// agent searches until it has enough context, then answers; the actions of
// answer are scripted.
type agent struct {
	enough  int      // searches needed before answering
	decide  string   // action decide returns once it has enough context
	reviews []string // actions of answer, one per call
}

func (a *agent) Decide(ctx context.Context, s AgentState) (AgentUpdate, string, error) {
	u := AgentUpdate{}.WithTrail([]string{"decide"})
	if len(s.Context) < a.enough {
		return u, "search", nil
	}
	return u, a.decide, nil
}

func (a *agent) Search(ctx context.Context, s AgentState) (AgentUpdate, error) {
	return AgentUpdate{}.WithTrail([]string{"search"}).WithContext([]string{"result for " + s.Question}), nil
}

func (a *agent) Answer(ctx context.Context, s AgentState) (AgentUpdate, string, error) {
	action := ""
	if len(a.reviews) > 0 {
		action, a.reviews = a.reviews[0], a.reviews[1:]
	}
	return AgentUpdate{}.WithTrail([]string{"answer"}).WithAnswer("based on " + s.Context[0]), action, nil
}

func (a *agent) Publish(ctx context.Context, s AgentState) (AgentUpdate, error) {
	return AgentUpdate{}.WithTrail([]string{"publish"}), nil
}

func run(t *testing.T, a *agent) AgentState {
	t.Helper()
	out, err := NewAgent(a).Run(context.Background(), AgentState{Question: "go"})
	require.NoError(t, err)
	return out
}

func TestSearchThenAnswer(t *testing.T) {
	out := run(t, &agent{enough: 1, decide: "answer"})
	assert.Equal(t, []string{"decide", "search", "decide", "answer", "publish"}, out.Trail)
	assert.Equal(t, []string{"result for go"}, out.Context)
	assert.Equal(t, "based on result for go", out.Answer)
}

func TestSearchesLoopBackToDecide(t *testing.T) {
	out := run(t, &agent{enough: 2, decide: "answer"})
	assert.Equal(t, []string{"decide", "search", "decide", "search", "decide", "answer", "publish"}, out.Trail)
	assert.Len(t, out.Context, 2)
}

// An action with no transition and no default ends the run (PocketFlow);
// the update of the state that returned it is applied.
func TestUnmatchedActionEnds(t *testing.T) {
	for _, action := range []string{"give_up", "", "Search"} {
		out := run(t, &agent{enough: 0, decide: action})
		assert.Equal(t, []string{"decide"}, out.Trail, "action %q", action)
		assert.Empty(t, out.Answer)
	}
}

// answer's unmatched actions, the empty one included, take the default.
func TestDefaultAction(t *testing.T) {
	for _, action := range []string{"", "done", "publish"} {
		out := run(t, &agent{enough: 1, decide: "answer", reviews: []string{action}})
		assert.Equal(t, []string{"decide", "search", "decide", "answer", "publish"}, out.Trail, "action %q", action)
	}
	out := run(t, &agent{enough: 1, decide: "answer", reviews: []string{"revise"}})
	assert.Equal(t, []string{"decide", "search", "decide", "answer", "decide", "answer", "publish"}, out.Trail)
}
