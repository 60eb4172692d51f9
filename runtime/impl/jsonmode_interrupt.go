package impl

import (
	"context"
	"encoding/json"
	"fmt"
)

// interrupt_before: before a state with it runs, a person confirms that
// the run goes on, through the approval machinery (Approver). The request
// names the state and offers "continue" and "cancel"; "cancel" stops the
// run with an error named ErrCancelled. Handlers that are no Approver, or
// answer ErrNoDecision, stop the run with an *Interrupted error, whose
// result line is INTERRUPTED; a session saves its checkpoint there, and
// Decide continues it.

// Interruption options.
const (
	OptionContinue = "continue"
	OptionCancel   = "cancel"
)

// ErrCancelled names the error of a run a person cancelled at an
// interrupt_before state.
const ErrCancelled = "Cancelled"

func (s *JSONState) confirm(ctx context.Context, t *JSONTask, handlers any) error {
	if !t.InterruptBefore {
		return nil
	}
	req := &ApprovalRequest{
		State:   t.State,
		Prompt:  "continue with state " + t.State + "?",
		Options: []string{OptionContinue, OptionCancel},
	}
	d, err := Approve(ctx, s.session, handlers, req, s.Input)
	switch {
	case err != nil:
		return err
	case d == OptionCancel:
		return &Error{Name: ErrCancelled, Cause: "cancelled before state " + t.State}
	}
	return nil
}

// RespondInterrupt plays the mock of an interrupt_before confirmation:
// the mock of "<state>.interrupt_before" in the test case, a JSON string
// or {"decision": "..."}. Without one the run is interrupted.
func (m *Mocks) RespondInterrupt(ctx context.Context, req ApprovalRequest) (string, error) {
	req.State += ".interrupt_before"
	return m.RespondApproval(ctx, req)
}

// RespondSummary plays the summarizer from the mocks of "summarize": a
// Return is the summary, which replaces the history as one message. With
// no mock the history stays as it is, and m.Log says so.
func (m *Mocks) RespondSummary(history Messages) (Messages, error) {
	e, ok := m.Next("summarize")
	switch {
	case !ok:
		m.note("flowc: the history crossed the summarization limits, and \"summarize\" has no mock; it stays as it is\n")
		return history, nil
	case e.Throw != nil:
		return nil, e.Err()
	}
	var text string
	if err := json.Unmarshal(e.Return, &text); err != nil {
		return nil, &MockError{State: "summarize", Err: fmt.Errorf("must return the summary, a JSON string, got %s", e.Return)}
	}
	return Messages{{Role: "assistant", Content: text}}, nil
}

// RespondDatasource plays a datasource search from the mocks of
// "datasource:<id>": the answer is the mock's output text, as a handler's
// is. With no mock the search finds nothing (""), and m.Log says so.
func (m *Mocks) RespondDatasource(id, query string) (string, error) {
	state := "datasource:" + id
	m.mu.Lock()
	_, ok := m.spans[state]
	m.mu.Unlock()
	if !ok {
		m.note("flowc: %q has no mock; the search for %q finds nothing\n", state, query)
		return "", nil
	}
	return m.RespondJSON(JSONCall{State: state, Task: query})
}
