package flowrun

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/flowc-dev/flowc/runtime/impl"
	"github.com/flowc-dev/flowc/runtime/impl/jsonmode"
)

// RespondJSON plays the mock of call.State for a JSON-mode handler. A
// Return is the handler's output text: a JSON string is the text itself,
// any other value its JSON encoding, so that an object's keys reach the
// context store. A Throw is returned as an *impl.Error. A state with no mock
// returns its rendered task, and m.Log says so.
func (m *Mocks) RespondJSON(call jsonmode.JSONCall) (string, error) {
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
		return "", &impl.MockError{State: call.State, Err: err}
	}
	return buf.String(), nil
}

// RespondInterrupt plays the mock of an interrupt_before confirmation:
// the mock of "<state>.interrupt_before" in the test case, a JSON string
// or {"decision": "..."}. Without one the run is interrupted.
func (m *Mocks) RespondInterrupt(ctx context.Context, req impl.ApprovalRequest) (string, error) {
	req.State += ".interrupt_before"
	return m.RespondApproval(ctx, req)
}

// RespondSummary plays the summarizer from the mocks of "summarize": a
// Return is the summary, which replaces the history as one message. With
// no mock the history stays as it is, and m.Log says so.
func (m *Mocks) RespondSummary(history impl.Messages) (impl.Messages, error) {
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
		return nil, &impl.MockError{State: "summarize", Err: fmt.Errorf("must return the summary, a JSON string, got %s", e.Return)}
	}
	return impl.Messages{{Role: "assistant", Content: text}}, nil
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
	return m.RespondJSON(jsonmode.JSONCall{State: state, Task: query})
}
