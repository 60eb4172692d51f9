// Package fake is an in-memory store of sessions for the console's tests:
// a console.Reader and console.Actor whose answers take effect at once,
// as a run that goes on would leave them.
package fake

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/flowc-dev/flowc/console"
)

// Store holds sessions and their histories.
type Store struct {
	mu       sync.Mutex
	sessions map[string]*console.Session
	history  map[string][]console.Event
	// Answers records each change made, in order, as "id action key value".
	Answers []string
}

// New returns an empty store.
func New() *Store {
	return &Store{sessions: map[string]*console.Session{}, history: map[string][]console.Event{}}
}

// Put adds or replaces a session.
func (s *Store) Put(sess console.Session, events ...console.Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sessions[sess.ID] = &sess
	for i := range events {
		events[i].Seq = int64(len(s.history[sess.ID]) + 1)
		s.history[sess.ID] = append(s.history[sess.ID], events[i])
	}
}

// Sessions lists newest first; the cursor is the index to go on from.
func (s *Store) Sessions(_ context.Context, q console.Query) (console.Page, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	all := make([]*console.Session, 0, len(s.sessions))
	counts := map[string]int{}
	for _, sess := range s.sessions {
		counts[sess.Status]++
		if (q.Status == "" || sess.Status == q.Status) && (q.Workflow == "" || sess.Workflow == q.Workflow) {
			all = append(all, sess)
		}
	}
	slices.SortFunc(all, func(a, b *console.Session) int {
		return cmp.Or(b.Updated.Compare(a.Updated), cmp.Compare(b.ID, a.ID))
	})
	from, _ := strconv.Atoi(q.Before)
	from = min(from, len(all))
	to := min(len(all), from+q.Limit)
	page := console.Page{Counts: counts}
	for _, sess := range all[from:to] {
		page.Sessions = append(page.Sessions, console.Summary{ID: sess.ID, Workflow: sess.Workflow, Status: sess.Status,
			State: sess.State, Updated: sess.Updated, Stops: len(sess.Stops)})
	}
	if to < len(all) {
		page.Next = strconv.Itoa(to)
	}
	return page, nil
}

// Session returns a copy of session id.
func (s *Store) Session(_ context.Context, id string) (*console.Session, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sess, ok := s.sessions[id]
	if !ok {
		return nil, fmt.Errorf("session %q: %w", id, console.ErrNotFound)
	}
	out := *sess
	out.Stops = slices.Clone(sess.Stops)
	return &out, nil
}

// History returns the events after seq after.
func (s *Store) History(_ context.Context, id string, after int64, limit int) ([]console.Event, int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []console.Event
	for _, e := range s.history[id] {
		if e.Seq > after && len(out) < limit {
			out = append(out, e)
		}
	}
	return out, 0, nil
}

// answer takes the stop key of session id away, as a run that consumed
// its answer does, or fails with ErrConflict when it no longer waits.
func (s *Store) answer(id, key, action, value string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	sess, ok := s.sessions[id]
	if !ok {
		return console.ErrNotFound
	}
	i := slices.IndexFunc(sess.Stops, func(st console.Stop) bool { return st.Key == key })
	if i < 0 || sess.Status == "stopped" {
		return fmt.Errorf("%w: stop %q of session %q was answered already", console.ErrConflict, key, id)
	}
	s.Answers = append(s.Answers, fmt.Sprintf("%s %s %s %s", id, action, key, value))
	state := sess.Stops[i].State
	sess.Stops = slices.Delete(sess.Stops, i, i+1)
	if len(sess.Stops) == 0 {
		sess.Status = "running"
	}
	fields, _ := json.Marshal(map[string]string{"key": key, action: value, "door": "console"})
	s.history[id] = append(s.history[id], console.Event{Seq: int64(len(s.history[id]) + 1), Time: time.Now(),
		Kind: "answer_received", State: state, Fields: fields})
	return nil
}

// Decide answers an approval.
func (s *Store) Decide(_ context.Context, id, key, option string) error {
	return s.answer(id, key, "decision", option)
}

// TaskSucceed answers a task token with a success.
func (s *Store) TaskSucceed(_ context.Context, id, key string, output json.RawMessage) error {
	return s.answer(id, key, "output", string(output))
}

// TaskFail answers a task token with a failure.
func (s *Store) TaskFail(_ context.Context, id, key, errName, cause string) error {
	return s.answer(id, key, "error", errName+": "+cause)
}

// Stop ends a session as stopped.
func (s *Store) Stop(_ context.Context, id, errName, cause string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	sess, ok := s.sessions[id]
	switch {
	case !ok:
		return console.ErrNotFound
	case sess.Status == "stopped" || sess.Status == "succeeded":
		return fmt.Errorf("%w: the session is %s", console.ErrConflict, sess.Status)
	}
	sess.Status, sess.Stops = "stopped", nil
	s.Answers = append(s.Answers, fmt.Sprintf("%s stop %s %s", id, errName, cause))
	return nil
}

// Redrive runs a failed session again: it goes on running.
func (s *Store) Redrive(_ context.Context, id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	sess, ok := s.sessions[id]
	switch {
	case !ok:
		return console.ErrNotFound
	case sess.Status != "failed":
		return fmt.Errorf("%w: the session is %s, not failed", console.ErrConflict, sess.Status)
	}
	sess.Status = "running"
	s.Answers = append(s.Answers, id+" redrive")
	return nil
}
