package impl

import (
	"bytes"
	"encoding/json"
)

// RespondJSON plays the mock of call.State for a JSON-mode handler. A
// Return is the handler's output text: a JSON string is the text itself,
// any other value its JSON encoding, so that an object's keys reach the
// context store. A Throw is returned as an *Error. A state with no mock
// returns its rendered task, and m.Log says so.
func (m *Mocks) RespondJSON(call JSONCall) (string, error) {
	e, ok := m.Next(call.State)
	if !ok {
		m.note("flowc: state %q has no mock; it returns its rendered task\n", call.State)
		return call.Task, nil
	}
	if e.Throw != nil {
		return "", e.Err()
	}
	// Unmarshal leaves a string alone on null, hence the check of the
	// first byte.
	var text string
	if ret := bytes.TrimSpace(e.Return); len(ret) > 0 && ret[0] == '"' && json.Unmarshal(ret, &text) == nil {
		return text, nil
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, e.Return); err != nil {
		return "", &MockError{State: call.State, Err: err}
	}
	return buf.String(), nil
}
