package approval

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrun "github.com/flowc-dev/flowc/flowrun"
	flowcrt "github.com/flowc-dev/flowc/runtime"
	"github.com/flowc-dev/flowc/session"
)

// author writes drafts; it has no Approve method, so every decision is
// left to a person.
type author struct{ calls []string }

func (a *author) Write(_ context.Context, s PublishState) (PublishUpdate, error) {
	a.calls = append(a.calls, "write")
	return PublishUpdate{}.WithDraft(fmt.Sprintf("draft %d", s.Revisions+1)).WithRevisions(1), nil
}

func (a *author) Publish(_ context.Context, s PublishState) (PublishUpdate, error) {
	a.calls = append(a.calls, "publish")
	return PublishUpdate{}.WithLog([]string{"published " + s.Draft}), nil
}

func (a *author) Discard(_ context.Context, s PublishState) (PublishUpdate, error) {
	a.calls = append(a.calls, "discard")
	return PublishUpdate{}.WithLog([]string{"discarded " + s.Draft}), nil
}

// editor is an author that also answers approvals, in turn.
type editor struct {
	author
	answers []string
	err     error
	asked   []flowcrt.ApprovalRequest
}

func (e *editor) Approve(_ context.Context, req flowcrt.ApprovalRequest) (string, error) {
	e.asked = append(e.asked, req)
	if e.err != nil {
		return "", e.err
	}
	d := e.answers[0]
	e.answers = e.answers[1:]
	return d, nil
}

// With an approver the workflow asks it and routes on its decision.
func TestApproverDecides(t *testing.T) {
	e := &editor{answers: []string{"revise", "approve"}}
	out, err := NewPublish(e).Run(context.Background(), PublishState{})
	require.NoError(t, err)
	assert.Equal(t, PublishState{Draft: "draft 2", Revisions: 2, Log: []string{"published draft 2"}}, out)
	require.Len(t, e.asked, 2)
	assert.Equal(t, "review", e.asked[0].State)
	assert.Equal(t, "Publish the draft?", e.asked[0].Prompt)
	assert.Equal(t, []string{"approve", "revise", "reject"}, e.asked[0].Options)
	assert.Equal(t, PublishState{Draft: "draft 1", Revisions: 1}, e.asked[0].Input)
}

// Without an approver the session stops at the approval, not failing;
// Decide continues it, and may lead to the approval again.
func TestInterruptedSession(t *testing.T) {
	ctx := context.Background()
	store := flowcrt.NewMemoryCheckpointer()
	a := &author{}
	w := NewPublish(a, flowcrt.WithCheckpointer(store))

	out, err := w.Invoke(ctx, "doc-1", nil)
	var wait *flowcrt.Interrupted
	require.ErrorAs(t, err, &wait)
	assert.Equal(t, flowcrt.Interrupted{Session: "doc-1", State: "review", Prompt: "Publish the draft?",
		Options: []string{"approve", "revise", "reject"}}, *wait)
	assert.Equal(t, PublishState{Draft: "draft 1", Revisions: 1}, out)
	cp, err := store.Load(ctx, "doc-1")
	require.NoError(t, err)
	assert.Equal(t, flowcrt.StatusInterrupted, cp.Status)
	assert.Equal(t, &flowcrt.Pending{State: "review", Prompt: "Publish the draft?", Options: []string{"approve", "revise", "reject"}}, cp.Pending)

	_, err = w.Decide(ctx, "doc-1", "revise")
	require.ErrorAs(t, err, &wait, "revising leads to the approval again")
	out, err = w.Decide(ctx, "doc-1", "approve")
	require.NoError(t, err)
	assert.Equal(t, PublishState{Draft: "draft 2", Revisions: 2, Log: []string{"published draft 2"}}, out)
	assert.Equal(t, []string{"write", "write", "publish"}, a.calls)

	_, err = w.Decide(ctx, "doc-1", "approve")
	assert.ErrorIs(t, err, session.ErrAlreadyAnswered, "the run took the answer and finished")
}

// A decision that is not an option is refused, and the session still
// waits.
func TestDecisionNotAnOption(t *testing.T) {
	ctx := context.Background()
	store := flowcrt.NewMemoryCheckpointer()
	w := NewPublish(&author{}, flowcrt.WithCheckpointer(store))
	_, err := w.Invoke(ctx, "doc", nil)
	require.True(t, flowcrt.IsInterrupted(err))
	_, err = w.Decide(ctx, "doc", "maybe")
	var bad *flowcrt.SessionError
	require.ErrorAs(t, err, &bad)
	assert.ErrorContains(t, err, `approval decision "maybe" is not one of the options "approve", "revise", "reject" of state "review"`)
	cp, err := store.Load(ctx, "doc")
	require.NoError(t, err)
	assert.Equal(t, flowcrt.StatusInterrupted, cp.Status)
	out, err := w.Decide(ctx, "doc", "reject")
	require.NoError(t, err)
	assert.Equal(t, []string{"discarded draft 1"}, out.Log)
}

// Run has no session: it stops at the approval all the same.
func TestRunInterrupted(t *testing.T) {
	out, err := NewPublish(&author{}).Run(context.Background(), PublishState{})
	var wait *flowcrt.Interrupted
	require.ErrorAs(t, err, &wait)
	assert.Empty(t, wait.Session)
	assert.Equal(t, "draft 1", out.Draft)
}

// An approver may leave the decision to a person; its timeout is caught
// like a handler's; a decision outside the options fails the state.
func TestApproverOutcomes(t *testing.T) {
	ctx := context.Background()
	_, err := NewPublish(&editor{err: flowcrt.ErrNoDecision}).Run(ctx, PublishState{})
	assert.True(t, flowcrt.IsInterrupted(err))

	out, err := NewPublish(&editor{err: fmt.Errorf("no answer: %w", flowcrt.ErrStateTimeout)}).Run(ctx, PublishState{})
	require.NoError(t, err)
	assert.Equal(t, []string{"discarded draft 1"}, out.Log, "the catch rule took the timeout to discard")

	_, err = NewPublish(&editor{answers: []string{"maybe"}}).Run(ctx, PublishState{})
	assert.Equal(t, "States.Runtime", flowcrt.ErrorName(err))
	var se *flowcrt.StateError
	require.True(t, errors.As(err, &se))
	assert.Equal(t, "review", se.State)
}

// The mock answers an approval from the mock config; without a mock for
// it the run waits.
func TestMockedApproval(t *testing.T) {
	cfg, err := flowcrun.ParseMockConfig([]byte(`{
		"StateMachines": {"Publish": {"TestCases": {"yes": {"review": "Yes", "publish": "Published"}, "none": {}}}},
		"MockedResponses": {
			"Yes": {"0": {"Return": {"decision": "approve"}}},
			"Published": {"0": {"Return": {"log": ["published"]}}}
		}
	}`))
	require.NoError(t, err)
	yes, err := cfg.Case("Publish", "yes")
	require.NoError(t, err)
	out, err := NewPublishMock(yes).Run(context.Background(), PublishState{Draft: "d"})
	require.NoError(t, err)
	assert.Equal(t, PublishState{Draft: "d", Log: []string{"published"}}, out)

	none, err := cfg.Case("Publish", "none")
	require.NoError(t, err)
	_, err = NewPublishMock(none).Run(context.Background(), PublishState{})
	assert.True(t, flowcrt.IsInterrupted(err))
}
