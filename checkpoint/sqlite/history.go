package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/flowc-dev/flowc/session"
)

// eventsArg is the events column of a save (see triggers): a JSON array
// of [time, kind, state, fields], fields left out when empty, or NULL
// without events. Fields go in as they are (not HTML-escaped), and SQLite
// gives back the compact JSON text of each, so they read as written.
func eventsArg(events []session.Event) (any, error) {
	if len(events) == 0 {
		return nil, nil
	}
	rows := make([][]any, len(events))
	for i, e := range events {
		rows[i] = []any{e.Time.UTC().Format(time.RFC3339Nano), string(e.Kind), e.State}
		if len(e.Fields) > 0 {
			rows[i] = append(rows[i], e.Fields)
		}
	}
	var buf strings.Builder
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(rows); err != nil {
		return nil, fmt.Errorf("its events: %w", err)
	}
	return buf.String(), nil
}

// deleteSession removes a session's checkpoint and history together.
func (s *Store) deleteSession(ctx context.Context, id string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, q := range []string{`DELETE FROM flowc_checkpoints WHERE session = ?`, `DELETE FROM flowc_history WHERE session = ?`} {
		if _, err := tx.ExecContext(ctx, q, id); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// History returns the session's events with seq > after, oldest first,
// and how many of its oldest were dropped.
func (s *Store) History(ctx context.Context, id string, after int64, limit int) ([]session.Event, int64, error) {
	var exists int
	err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM flowc_checkpoints WHERE session = ?`, id).Scan(&exists)
	if err == nil && exists == 0 {
		return nil, 0, session.Err(id, session.ErrNoCheckpoint)
	}
	var least sql.NullInt64
	if err == nil {
		err = s.db.QueryRowContext(ctx, `SELECT min(seq) FROM flowc_history WHERE session = ?`, id).Scan(&least)
	}
	if err != nil {
		return nil, 0, fmt.Errorf("checkpoint store %s: the history of session %q: %w", s.path, id, err)
	}
	if limit <= 0 {
		limit = -1 // SQLite: no limit
	}
	rows, err := s.db.QueryContext(ctx, `SELECT seq, time, kind, state, fields FROM flowc_history
		WHERE session = ? AND seq > ? ORDER BY seq LIMIT ?`, id, after, limit)
	if err != nil {
		return nil, 0, fmt.Errorf("checkpoint store %s: the history of session %q: %w", s.path, id, err)
	}
	defer rows.Close()
	var out []session.Event
	for rows.Next() {
		var e session.Event
		var at, kind string
		var fields sql.NullString
		if err := rows.Scan(&e.Seq, &at, &kind, &e.State, &fields); err != nil {
			return nil, 0, err
		}
		e.Kind, e.Time = session.EventKind(kind), parseTime(at)
		if fields.Valid {
			e.Fields = json.RawMessage(fields.String)
		}
		out = append(out, e)
	}
	return out, max(least.Int64-1, 0), rows.Err()
}

func parseTime(s string) time.Time {
	t, _ := time.Parse(time.RFC3339Nano, s) // written by Save
	return t
}

// Sessions lists the sessions q selects, newest first, reading only the
// page's rows and the counts by status.
func (s *Store) Sessions(ctx context.Context, q session.Query) (session.Page, error) {
	page := session.Page{Counts: map[session.Status]int{}}
	if err := s.counts(ctx, page.Counts); err != nil {
		return page, err
	}
	where, args := listFilter(q)
	limit := q.Limit
	if limit <= 0 {
		limit = -2 // SQLite: no limit once one is added
	}
	rows, err := s.db.QueryContext(ctx, `SELECT session, workflow, status, position, pending, saved_at FROM flowc_checkpoints`+
		where+` ORDER BY saved_at DESC, session DESC LIMIT ?`, append(args, limit+1)...)
	if err != nil {
		return page, fmt.Errorf("checkpoint store %s: listing sessions: %w", s.path, err)
	}
	defer rows.Close()
	for rows.Next() {
		cp := &session.Checkpoint{}
		var status, position, savedAt string
		var pending sql.NullString
		if err := rows.Scan(&cp.Session, &cp.Workflow, &status, &position, &pending, &savedAt); err != nil {
			return page, err
		}
		cp.Status = session.ParseStatus(status)
		if err := s.decode(cp, position, pending, savedAt); err != nil {
			return page, fmt.Errorf("checkpoint store %s: the checkpoint of session %q is damaged: %w", s.path, cp.Session, err)
		}
		if q.Limit > 0 && len(page.Sessions) == q.Limit {
			page.Next = session.Cursor(page.Sessions[len(page.Sessions)-1])
			break
		}
		page.Sessions = append(page.Sessions, session.Summarize(cp))
	}
	return page, rows.Err()
}

// listFilter is the WHERE clause of a listing and its arguments. A
// cursor holds the time as saved_at does (savedAtLayout), so the two
// compare as text.
func listFilter(q session.Query) (string, []any) {
	var conds []string
	var args []any
	switch q.Status {
	case "":
	case session.StatusSucceeded:
		conds = append(conds, `status IN ('succeeded', 'finished')`)
	default:
		conds, args = append(conds, `status = ?`), append(args, string(q.Status))
	}
	if q.Workflow != "" {
		conds, args = append(conds, `workflow = ?`), append(args, q.Workflow)
	}
	if t, id, ok := strings.Cut(q.Before, " "); ok {
		conds = append(conds, `(saved_at < ? OR (saved_at = ? AND session < ?))`)
		args = append(args, t, t, id)
	}
	if len(conds) == 0 {
		return "", args
	}
	return " WHERE " + strings.Join(conds, " AND "), args
}

// counts counts the store's sessions by status.
func (s *Store) counts(ctx context.Context, into map[session.Status]int) error {
	rows, err := s.db.QueryContext(ctx, `SELECT status, count(*) FROM flowc_checkpoints GROUP BY status`)
	if err != nil {
		return fmt.Errorf("checkpoint store %s: counting sessions: %w", s.path, err)
	}
	defer rows.Close()
	for rows.Next() {
		var status string
		var n int
		if err := rows.Scan(&status, &n); err != nil {
			return err
		}
		into[session.ParseStatus(status)] += n
	}
	return rows.Err()
}
