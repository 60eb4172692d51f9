package main

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// recorder wraps the team to record the states the run visits.
type recorder struct {
	team
	visited []string
}

func (r *recorder) Decide(ctx context.Context, s SupervisedState) (SupervisedUpdate, string, error) {
	r.visited = append(r.visited, "decide")
	return r.team.Decide(ctx, s)
}

func (r *recorder) Search(ctx context.Context, s SupervisedState) (SupervisedUpdate, error) {
	r.visited = append(r.visited, "search")
	return r.team.Search(ctx, s)
}

func (r *recorder) Answer(ctx context.Context, s SupervisedState) (SupervisedUpdate, error) {
	r.visited = append(r.visited, "answer")
	return r.team.Answer(ctx, s)
}

func (r *recorder) Supervise(ctx context.Context, s SupervisedState) (SupervisedUpdate, string, error) {
	r.visited = append(r.visited, "supervise")
	return r.team.Supervise(ctx, s)
}

// The supervisor rejects the first answer: "retry" runs the agent flow
// again from its start, on the state the first run left.
func TestSupervisorRetriesTheAgentFlow(t *testing.T) {
	r := &recorder{team: team{corpus: corpus}}
	final, err := NewSupervised(r).Run(context.Background(), SupervisedState{Question: "Who designed Go?"})
	require.NoError(t, err)
	assert.Equal(t, []string{"decide", "search", "decide", "answer", "supervise", "decide", "answer", "supervise"}, r.visited)
	assert.Equal(t, corpus["Who designed Go?"], final.Answer)
	assert.Equal(t, 2, final.Attempts)
}

// An accepted first answer goes through the supervisor once; its verdict
// "approve" has no transition and no default, so the run ends.
func TestSupervisorAcceptsAGoodAnswer(t *testing.T) {
	r := &recorder{team: team{corpus: corpus}}
	final, err := NewSupervised(r).Run(context.Background(), SupervisedState{Question: "Q", Context: []string{"known"}, Attempts: 1})
	require.NoError(t, err)
	assert.Equal(t, []string{"decide", "answer", "supervise"}, r.visited)
	assert.Equal(t, "known", final.Answer)
}
