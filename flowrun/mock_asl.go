package flowrun

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/flowc-dev/flowc/runtime/impl"
	"github.com/flowc-dev/flowc/runtime/impl/asl"
)

// RespondASL plays the mock of the state named by impl.StateFromContext(ctx)
// for a States Language handler. A Return is the raw result, any JSON
// value; a Throw is an error with its impl.Error as name and Cause as cause.
// Without a mock the state's effective input comes back, and m.Log says
// so.
func (m *Mocks) RespondASL(ctx context.Context, in any) (any, error) {
	state := impl.StateFromContext(ctx)
	e, ok := m.Next(state)
	answer, callback := asl.MockedCallback(ctx)
	switch {
	case !ok && callback:
		m.note("flowc: callback state %q has no mock; the run waits for its task token\n", state)
		return in, nil
	case !ok:
		m.note("flowc: state %q has no mock; it returns its input unchanged\n", state)
		return in, nil
	case callback:
		answer() // a mocked callback state's response is its result
	}
	if e.Throw != nil {
		return nil, e.Err()
	}
	v, err := asl.DecodeASLInput(e.Return)
	if err != nil {
		return nil, &impl.MockError{State: state, Err: err}
	}
	return v, nil
}

// RespondApproval plays the mock of an Approval state: a Return is the
// decision, a JSON string or {"decision": "..."}. Without a mock the
// decision is left to a person: it returns impl.ErrNoDecision, which interrupts
// the run, and m.Log says so.
func (m *Mocks) RespondApproval(ctx context.Context, req impl.ApprovalRequest) (string, error) {
	e, ok := m.Next(req.State)
	if !ok {
		m.note("flowc: approval state %q has no mock; the run waits for a decision\n", req.State)
		return "", impl.ErrNoDecision
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
		return "", &impl.MockError{State: req.State, Err: fmt.Errorf(`must return a decision: a JSON string or {"decision": "..."}, got %s`, e.Return)}
	}
	return *obj.Decision, nil
}
