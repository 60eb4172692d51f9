package main

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// recorder wraps the agent to record the states the loop visits.
type recorder struct {
	agent
	visited []string
}

func (r *recorder) Decide(ctx context.Context, s ResearchState) (ResearchUpdate, string, error) {
	r.visited = append(r.visited, "decide")
	return r.agent.Decide(ctx, s)
}

func (r *recorder) Search(ctx context.Context, s ResearchState) (ResearchUpdate, error) {
	r.visited = append(r.visited, "search")
	return r.agent.Search(ctx, s)
}

func (r *recorder) Answer(ctx context.Context, s ResearchState) (ResearchUpdate, error) {
	r.visited = append(r.visited, "answer")
	return r.agent.Answer(ctx, s)
}

func TestResearchLoopsUntilItHasContext(t *testing.T) {
	r := &recorder{agent: agent{corpus: corpus, minContext: 2}}
	final, err := NewResearch(r).Run(context.Background(), ResearchState{Question: "Who designed Go?"})
	require.NoError(t, err)
	assert.Equal(t, []string{"decide", "search", "decide", "search", "decide", "answer"}, r.visited)
	assert.Equal(t, 2, final.Searches)
	assert.Equal(t, corpus["Who designed Go?"]+" "+corpus["Who designed Go? history"], final.Answer)
}

func TestResearchAnswersAtOnceWithEnoughContext(t *testing.T) {
	r := &recorder{agent: agent{corpus: corpus, minContext: 1}}
	final, err := NewResearch(r).Run(context.Background(), ResearchState{Question: "Q", Context: []string{"known"}})
	require.NoError(t, err)
	assert.Equal(t, []string{"decide", "answer"}, r.visited)
	assert.Equal(t, "known", final.Answer)
}

// An action with no transition and no default ends the run, as in PocketFlow.
func TestResearchUnknownActionEndsTheRun(t *testing.T) {
	final, err := NewResearch(stubborn{}).Run(context.Background(), ResearchState{Question: "Q"})
	require.NoError(t, err)
	assert.Equal(t, "thinking", final.Query)
	assert.Empty(t, final.Answer)
}

type stubborn struct{ agent }

func (stubborn) Decide(context.Context, ResearchState) (ResearchUpdate, string, error) {
	return ResearchUpdate{}.WithQuery("thinking"), "ponder", nil
}
