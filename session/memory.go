package session

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
)

// ErrOvertaken is wrapped by the error of a Save that another run or
// answer of the same session got ahead of: each save must follow the
// stored one (step n after step n-1), so of two that start from one
// checkpoint, the first to save goes on and the other stops.
var ErrOvertaken = errors.New("session overtaken by another run")

// MemoryCheckpointer is a Checkpointer that keeps checkpoints and their
// history in memory, for tests and for sessions that need not outlive the
// process. The zero value is ready to use.
type MemoryCheckpointer struct {
	// HistoryCap is how many events each session keeps; <= 0 means
	// DefaultHistoryCap.
	HistoryCap int

	mu      sync.Mutex
	last    map[string]*Checkpoint
	history map[string]*memHistory
}

type memHistory struct {
	events  []Event
	dropped int64
}

// NewMemoryCheckpointer returns an empty MemoryCheckpointer.
func NewMemoryCheckpointer() *MemoryCheckpointer { return &MemoryCheckpointer{} }

var (
	_ Lister    = (*MemoryCheckpointer)(nil)
	_ Historian = (*MemoryCheckpointer)(nil)
)

// Save stores a copy of c and appends its events, refusing a step that
// does not follow the stored one.
func (m *MemoryCheckpointer) Save(_ context.Context, c *Checkpoint) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.last == nil {
		m.last, m.history = map[string]*Checkpoint{}, map[string]*memHistory{}
	}
	if old := m.last[c.Session]; old != nil && c.Step != old.Step+1 {
		return Err(c.Session, fmt.Errorf("%w: this run saves step %d, but the store holds step %d", ErrOvertaken, c.Step, old.Step))
	}
	cp := c.Clone()
	cp.Events = nil
	m.last[c.Session] = cp
	m.append(c.Session, c.Events)
	return nil
}

// append adds events to the session's history, numbering them and
// dropping the oldest beyond the cap.
func (m *MemoryCheckpointer) append(id string, events []Event) {
	if len(events) == 0 {
		return
	}
	h := m.history[id]
	if h == nil {
		h = &memHistory{}
		m.history[id] = h
	}
	seq := h.dropped + int64(len(h.events))
	for _, e := range events {
		seq++
		e.Seq = seq
		h.events = append(h.events, e)
	}
	capacity := cmp.Or(max(m.HistoryCap, 0), DefaultHistoryCap)
	if over := len(h.events) - capacity; over > 0 {
		h.events = slices.Delete(h.events, 0, over)
		h.dropped += int64(over)
	}
}

// Load returns a copy of the session's last checkpoint.
func (m *MemoryCheckpointer) Load(_ context.Context, session string) (*Checkpoint, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	c, ok := m.last[session]
	if !ok {
		return nil, Err(session, ErrNoCheckpoint)
	}
	return c.Clone(), nil
}

// List returns the sessions with a checkpoint, sorted.
func (m *MemoryCheckpointer) List(context.Context) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Sorted(maps.Keys(m.last)), nil
}

// Delete forgets the session and its history.
func (m *MemoryCheckpointer) Delete(_ context.Context, session string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.last, session)
	delete(m.history, session)
	return nil
}

// History returns the session's events after seq after.
func (m *MemoryCheckpointer) History(_ context.Context, id string, after int64, limit int) ([]Event, int64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.last[id]; !ok {
		return nil, 0, Err(id, ErrNoCheckpoint)
	}
	h := m.history[id]
	if h == nil {
		return nil, 0, nil
	}
	var out []Event
	for _, e := range h.events {
		if e.Seq > after && (limit <= 0 || len(out) < limit) {
			out = append(out, e)
		}
	}
	return out, h.dropped, nil
}

// Sessions lists the sessions q selects, newest first.
func (m *MemoryCheckpointer) Sessions(_ context.Context, q Query) (Page, error) {
	m.mu.Lock()
	all := make([]Summary, 0, len(m.last))
	for _, cp := range m.last {
		all = append(all, Summarize(cp))
	}
	m.mu.Unlock()
	slices.SortFunc(all, newestFirst)
	page := Page{Counts: map[Status]int{}}
	for _, s := range all {
		page.Counts[s.Status]++
	}
	for _, s := range all {
		if !q.Selects(s) || (q.Before != "" && Cursor(s) >= q.Before) {
			continue
		}
		if q.Limit > 0 && len(page.Sessions) == q.Limit {
			page.Next = Cursor(page.Sessions[len(page.Sessions)-1])
			break
		}
		page.Sessions = append(page.Sessions, s)
	}
	return page, nil
}

// newestFirst orders summaries by Cursor, descending.
func newestFirst(a, b Summary) int { return strings.Compare(Cursor(b), Cursor(a)) }

// Selects reports whether s is one of the sessions q asks for, its
// cursor aside.
func (q Query) Selects(s Summary) bool {
	return (q.Status == "" || q.Status == s.Status) && (q.Workflow == "" || q.Workflow == s.Workflow)
}

// Cursor is where a listing stands after s: its update time (UTC, fixed
// width, so that cursors sort as times) and its id. Listings are ordered
// by cursor, descending.
func Cursor(s Summary) string {
	return s.Updated.UTC().Format(cursorTime) + " " + s.ID
}

// cursorTime is RFC 3339 with a fixed number of fractional digits.
const cursorTime = "2006-01-02T15:04:05.000000000Z07:00"
