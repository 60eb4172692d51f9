package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/flowc-dev/flowc/session"
)

// historyTable holds each save's events in one row: a save's single
// statement then writes one row more than without history, not one per
// event parsed out of JSON, and a run records a few events per save.
// Reads number the events of a row from its seq back.
const historyTable = `
CREATE TABLE IF NOT EXISTS flowc_history (
	session TEXT NOT NULL,
	seq     INTEGER NOT NULL, -- of the row's last event: 1-based, per session
	events  TEXT NOT NULL,    -- JSON [[time, kind, state, fields?], ...], numbered up to seq
	PRIMARY KEY (session, seq)
) WITHOUT ROWID;`

// historyColumns of flowc_checkpoints carry a save's events to the
// triggers below, which file them within the save's one statement: a
// statement is atomic, and an explicit transaction costs more than the
// history itself (docs/benchmarks.md).
var historyColumns = []string{
	"events TEXT",                            // JSON of a save's events (see historyTable) until filed, then NULL
	"history_cap INTEGER",                    // how many events of the session its last save keeps
	"history_seq INTEGER NOT NULL DEFAULT 0", // the seq of the session's last event
}

// trimEvery is how many events past the cap a session's history may hold
// before the oldest rows are deleted, in one go: deleting at every save
// would write the session's oldest page every time. Reads leave out what
// the cap drops either way.
const trimEvery = 64

// triggers file a save's events, numbered after the session's last, and
// delete rows dropped by the cap. An update that does not apply
// (ErrOvertaken) fires none. Open replaces those of the file, so that
// they are always this binary's, whichever flowc made them.
var triggers = `
DROP TRIGGER IF EXISTS flowc_history_inserted;
DROP TRIGGER IF EXISTS flowc_history_updated;
CREATE TRIGGER flowc_history_inserted AFTER INSERT ON flowc_checkpoints
WHEN new.events IS NOT NULL BEGIN
	INSERT INTO flowc_history (session, seq, events) VALUES (new.session, new.history_seq, new.events);` + forgetEvents + `
END;
CREATE TRIGGER flowc_history_updated AFTER UPDATE OF events ON flowc_checkpoints
WHEN new.events IS NOT NULL BEGIN
	INSERT INTO flowc_history (session, seq, events) VALUES (new.session, new.history_seq, new.events);
	DELETE FROM flowc_history WHERE session = new.session AND seq <= new.history_seq - new.history_cap
		AND (new.history_seq - new.history_cap) / ` + fmt.Sprint(trimEvery) + ` > (old.history_seq - new.history_cap) / ` + fmt.Sprint(trimEvery) + `;` + forgetEvents + `
END;`

// forgetEvents empties the checkpoint's events column once they are filed:
// a session's last events (its state's input and output) would otherwise
// stay in its row and make the table that listings count several times
// as large, for a few microseconds a save.
const forgetEvents = `
	UPDATE flowc_checkpoints SET events = NULL WHERE rowid = new.rowid;`

// migrate brings a store of the previous format, which kept one row per
// event and no history columns, to this one. Format 1 stored a caller's
// fields unchecked: those that are not JSON are kept as a JSON string of
// their text rather than dropped, and rather than failing the migration,
// which would refuse the file for good.
func migrate(tx *sql.Tx) error {
	steps := []string{`ALTER TABLE flowc_history RENAME TO flowc_history_1`, historyTable,
		`INSERT INTO flowc_history (session, seq, events) SELECT session, seq, json_array(CASE
			WHEN fields IS NULL THEN json_array(time, kind, state)
			WHEN json_valid(fields) THEN json_array(time, kind, state, json(fields))
			ELSE json_array(time, kind, state, json_quote(fields)) END) FROM flowc_history_1`,
		`DROP TABLE flowc_history_1`}
	for _, column := range historyColumns {
		steps = append(steps, `ALTER TABLE flowc_checkpoints ADD COLUMN `+column)
	}
	steps = append(steps, `UPDATE flowc_checkpoints SET history_seq = coalesce(
			(SELECT max(seq) FROM flowc_history WHERE flowc_history.session = flowc_checkpoints.session), 0)`,
		`UPDATE flowc_meta SET value = '`+format+`' WHERE key = 'format'`)
	for _, step := range steps {
		if _, err := tx.Exec(step); err != nil {
			return fmt.Errorf("migrating from %s: %w", previousFormat, err)
		}
	}
	return nil
}

// eventsArg is the events column of a save: a JSON array of [time, kind,
// state, fields], fields left out when empty, or NULL without events.
// Fields go in as they are, and read back so, after a check that they are
// JSON, since one bad row would fail the session's every read. Written by
// hand: encoding/json took a tenth of what history adds to a save.
func eventsArg(events []session.Event) (any, error) {
	if len(events) == 0 {
		return nil, nil
	}
	buf := append(make([]byte, 0, 128*len(events)), '[')
	for i, e := range events {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(e.Time.UTC().AppendFormat(append(buf, `["`...), time.RFC3339Nano), '"')
		buf = appendString(append(buf, ','), string(e.Kind))
		buf = appendString(append(buf, ','), e.State)
		if len(e.Fields) > 0 {
			if !json.Valid(e.Fields) {
				return nil, fmt.Errorf("the fields of its %s event are not JSON", e.Kind)
			}
			buf = append(append(buf, ','), e.Fields...)
		}
		buf = append(buf, ']')
	}
	return string(append(buf, ']')), nil
}

// appendString appends s as a JSON string: as it is when it holds only
// printable ASCII without quotes or backslashes, as ids and kinds do.
func appendString(buf []byte, s string) []byte {
	for i := range len(s) {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			quoted, _ := json.Marshal(s) // a string always marshals
			return append(buf, quoted...)
		}
	}
	return append(append(append(buf, '"'), s...), '"')
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
// and how many of its oldest were dropped. Both are read in one
// transaction, one moment's: a save between the count and the rows would
// otherwise return more than the cap or start after a gap. The
// transaction is read-only, which the driver begins deferred despite
// _txlock=immediate, so a read never takes the write lock.
func (s *Store) History(ctx context.Context, id string, after int64, limit int) ([]session.Event, int64, error) {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, 0, fmt.Errorf("checkpoint store %s: the history of session %q: %w", s.path, id, err)
	}
	defer tx.Rollback()
	dropped, err := s.dropped(ctx, tx, id)
	if err != nil {
		return nil, 0, err
	}
	from := max(after, dropped)
	rows, err := tx.QueryContext(ctx, `SELECT seq, events FROM flowc_history WHERE session = ? AND seq > ? ORDER BY seq`, id, from)
	if err != nil {
		return nil, 0, fmt.Errorf("checkpoint store %s: the history of session %q: %w", s.path, id, err)
	}
	defer rows.Close()
	var out []session.Event
	for (limit <= 0 || len(out) < limit) && rows.Next() {
		var last int64
		var events sql.RawBytes
		err := rows.Scan(&last, &events)
		if err == nil {
			out, err = appendEvents(out, last, events, from, limit)
		}
		if err != nil {
			return nil, 0, fmt.Errorf("checkpoint store %s: the history of session %q is damaged: %w", s.path, id, err)
		}
	}
	return out, dropped, rows.Err()
}

// dropped counts the session's events that the cap leaves out, or that
// come before its oldest row, whichever are more.
func (s *Store) dropped(ctx context.Context, tx *sql.Tx, id string) (int64, error) {
	var beyondCap, oldest sql.NullInt64
	var events []byte
	err := tx.QueryRowContext(ctx, `SELECT history_seq - history_cap, h.seq, h.events FROM flowc_checkpoints
		LEFT JOIN (SELECT seq, events FROM flowc_history WHERE session = ?1 ORDER BY seq LIMIT 1) h
		WHERE session = ?1`, id).Scan(&beyondCap, &oldest, &events)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, session.Err(id, session.ErrNoCheckpoint)
	}
	if err != nil {
		return 0, fmt.Errorf("checkpoint store %s: the history of session %q: %w", s.path, id, err)
	}
	dropped := max(beyondCap.Int64, 0)
	if oldest.Valid {
		row, err := (&rowReader{b: events}).events()
		if err != nil {
			return 0, fmt.Errorf("checkpoint store %s: the history of session %q is damaged: %w", s.path, id, err)
		}
		dropped = max(dropped, oldest.Int64-int64(len(row)))
	}
	return dropped, nil
}

// appendEvents appends the events of a row of flowc_history, the last
// numbered last, that come after from, until out holds limit (<= 0: all).
func appendEvents(out []session.Event, last int64, events []byte, from int64, limit int) ([]session.Event, error) {
	row, err := (&rowReader{b: events}).events()
	if err != nil {
		return out, err
	}
	for i, ev := range row {
		seq := last - int64(len(row)-i) + 1
		if seq <= from {
			continue
		}
		if limit > 0 && len(out) == limit {
			break
		}
		e := session.Event{Seq: seq}
		var at, kind string
		for j, into := range []*string{&at, &kind, &e.State} {
			if *into, err = jsonString(ev[j]); err != nil {
				return out, err
			}
		}
		e.Kind, e.Time = session.EventKind(kind), parseTime(at)
		if len(ev) > 3 {
			e.Fields = bytes.Clone(ev[3])
		}
		out = append(out, e)
	}
	return out, nil
}

// rowReader splits a row of flowc_history, [[time, kind, state, fields?],
// ...], into its events' values, as they are: with encoding/json,
// reading a session of 10,000 events took half as long again as reading
// format 1's rows, with SQLite's json_each three times as long.
type rowReader struct {
	b []byte
	i int
}

var errNotEvents = errors.New("a row of its events is not the JSON a save writes")

// events reads the whole row: each event's three or four values. The
// reader only splits values; fields are checked with json.Valid, and
// the three strings by jsonString as they are decoded.
func (r *rowReader) events() (row [][][]byte, err error) {
	err = r.list(func() error {
		ev := make([][]byte, 0, 4)
		err := r.list(func() error {
			v, err := r.value()
			ev = append(ev, v)
			return err
		})
		if err == nil && (len(ev) < 3 || len(ev) > 4 || len(ev) == 4 && !json.Valid(ev[3])) {
			err = errNotEvents
		}
		row = append(row, ev)
		return err
	})
	if err == nil && r.skipSpace() < len(r.b) {
		err = errNotEvents
	}
	return row, err
}

// list reads a JSON array, calling item to read each element.
func (r *rowReader) list(item func() error) error {
	if !r.next('[') {
		return errNotEvents
	}
	if r.next(']') {
		return nil
	}
	for {
		if err := item(); err != nil {
			return err
		}
		if r.next(']') {
			return nil
		}
		if !r.next(',') {
			return errNotEvents
		}
	}
}

// next reads c if it comes next but for spaces, and says whether it did.
func (r *rowReader) next(c byte) bool {
	if r.skipSpace() < len(r.b) && r.b[r.i] == c {
		r.i++
		return true
	}
	return false
}

// skipSpace reads JSON's spaces and returns where they end.
func (r *rowReader) skipSpace() int {
	for r.i < len(r.b) && strings.IndexByte(" \t\r\n", r.b[r.i]) >= 0 {
		r.i++
	}
	return r.i
}

// value reads a JSON value, up to the comma or bracket after it, with the
// spaces around it: fields read back byte for byte as a save wrote them.
func (r *rowReader) value() ([]byte, error) {
	start, depth := r.i, 0
	for ; r.i < len(r.b); r.i++ {
		switch c := r.b[r.i]; c {
		case '"':
			for r.i++; r.i < len(r.b) && r.b[r.i] != '"'; r.i++ {
				if r.b[r.i] == '\\' {
					r.i++
				}
			}
		case '{', '[':
			depth++
		case '}', ']', ',':
			if depth == 0 {
				return r.b[start:r.i], nil
			}
			if c != ',' {
				depth--
			}
		}
	}
	return nil, errNotEvents
}

// jsonString decodes a JSON string, without encoding/json when it has no
// escapes, as ids, kinds and times have none: a session's history holds
// three an event.
func jsonString(raw json.RawMessage) (s string, err error) {
	if len(raw) >= 2 && raw[0] == '"' && !bytes.ContainsAny(raw[1:len(raw)-1], `"\\`) {
		return string(raw[1 : len(raw)-1]), nil
	}
	err = json.Unmarshal(raw, &s)
	return s, err
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
