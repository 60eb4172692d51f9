package impl

import (
	"bytes"
	"encoding/json"
)

// JSON-mode sessions. Between top-level states a run is its JSONState:
// the context store, history, task input and step count, saved as JSON at
// every checkpoint, so that an interrupt_before can wait for a person and
// the session go on when Decide answers it.

// FreshJSONState is the state of a new session before its input is merged.
func FreshJSONState() JSONState { return JSONState{Context: map[string]any{}} }

// DecodeJSONState reads a saved JSONState, numbers as json.Number,
// refusing fields it does not know.
func DecodeJSONState(data []byte) (JSONState, error) {
	var s JSONState
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return JSONState{}, err
	}
	if s.Context == nil {
		s.Context = map[string]any{}
	}
	return s, nil
}

// MergeJSONInput merges the input given to a session's run into its state
// as a run takes its input: an object's keys (text is parsed first) into
// the context store; the input becomes the task input.
func MergeJSONInput(s *JSONState, input any) {
	fresh, err := NewJSONState(input)
	if err != nil {
		return // decoded JSON, as sessions get, always converts
	}
	for k, v := range fresh.Context {
		s.set(k, v)
	}
	s.Input, s.UserInput = fresh.Input, fresh.UserInput
}

// Attach makes s ask for decisions through sess, which holds the one
// Decide gave a resumed session.
func (s *JSONState) Attach(sess *Session) { s.session = sess }
