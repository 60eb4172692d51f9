package impl

import "encoding/json"

// What the States Language machinery (package asl) reads and writes of a
// session: its variables, where a run resumes inside compiled-in children
// and fan-outs, and the task token it waits for.

// Vars are the States Language variables the session restored, or saves
// with its next checkpoint.
func (s *Session) Vars() json.RawMessage { return s.vars }

// SetVars sets the variables the next checkpoint saves.
func (s *Session) SetVars(data json.RawMessage) { s.vars = data }

// ResumesInside is where a States Language run resumes inside the
// compiled-in children of state at; nil inside when it does not.
func (s *Session) ResumesInside() (at string, inside []ChildPosition) {
	return s.insideAt, s.inside
}

// WaitingCallback is the task token that the checkpoint the run goes on
// from waits for; nil when it waits for none.
func (s *Session) WaitingCallback() *CallbackWait { return s.at.Callback }

// RestoreFanOut hands fanOut, the unfinished fan-out of state, to the
// state, which takes it when it opens its stops (OpenStops).
func (s *Session) RestoreFanOut(state string, fanOut *FanOutProgress) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fanOut, s.fanOutAt = fanOut, state
}

// Stopped reports whether branches of the fan-out stopped.
func (f *OpenFanOut) Stopped() bool { return f != nil && len(f.stopped) > 0 }
