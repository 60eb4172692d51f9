package impl

import (
	"context"
	"encoding/json"
	"fmt"
)

// RespondASL plays the mock of the state named by StateFromContext(ctx)
// for a States Language handler. A Return is the raw result, any JSON
// value; a Throw is an error with its Error as name and Cause as cause.
// Without a mock the state's effective input comes back, and m.Log says
// so.
func (m *Mocks) RespondASL(ctx context.Context, in any) (any, error) {
	state := StateFromContext(ctx)
	e, ok := m.Next(state)
	switch {
	case !ok && ctx.Value(mockedCallbackKey{}) != nil:
		m.note("flowc: callback state %q has no mock; the run waits for its task token\n", state)
		return in, nil
	case !ok:
		m.note("flowc: state %q has no mock; it returns its input unchanged\n", state)
		return in, nil
	}
	answerCallback(ctx) // a mocked callback state's response is its result
	if e.Throw != nil {
		return nil, e.Err()
	}
	v, err := decodeJSON(e.Return)
	if err != nil {
		return nil, &MockError{State: state, Err: err}
	}
	return v, nil
}

// RespondApproval plays the mock of an Approval state: a Return is the
// decision, a JSON string or {"decision": "..."}. Without a mock the
// decision is left to a person: it returns ErrNoDecision, which interrupts
// the run, and m.Log says so.
func (m *Mocks) RespondApproval(ctx context.Context, req ApprovalRequest) (string, error) {
	e, ok := m.Next(req.State)
	if !ok {
		m.note("flowc: approval state %q has no mock; the run waits for a decision\n", req.State)
		return "", ErrNoDecision
	}
	if e.Throw != nil {
		return "", e.Err()
	}
	var decision string
	if json.Unmarshal(e.Return, &decision) == nil {
		return decision, nil
	}
	var obj struct {
		Decision *string `json:"decision"`
	}
	if json.Unmarshal(e.Return, &obj) != nil || obj.Decision == nil {
		return "", &MockError{State: req.State, Err: fmt.Errorf(`must return a decision: a JSON string or {"decision": "..."}, got %s`, e.Return)}
	}
	return *obj.Decision, nil
}
