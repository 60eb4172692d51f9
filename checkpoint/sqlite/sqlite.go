// Package sqlite is flowc's durable checkpoint store: the last checkpoint
// of each session, in one SQLite file, through the pure Go driver
// modernc.org/sqlite (no cgo). Only programs that import this package link
// the driver.
//
//	store, err := sqlite.Open("checkpoints.db")
//	...
//	defer store.Close()
//	wf := NewTriage(handlers, flowcrt.WithCheckpointer(store))
//	out, err := wf.Invoke(ctx, "user-123", &in)
//
// Every save is one SQLite statement, so it is atomic, and it is written
// through the write-ahead log with synchronous=FULL: a checkpoint that Save
// returned survives the process being killed and the machine losing power.
// Several processes may share a file; a busy database is waited for. A
// session runs in one process at a time (see ErrOvertaken).
package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	_ "modernc.org/sqlite" // the "sqlite" database/sql driver

	flowcrt "github.com/flowc-dev/flowc/runtime"
	"github.com/flowc-dev/flowc/session"
)

// format names the layout of the tables below; a file of another format is
// refused rather than misread, except one of previousFormat, which Open
// migrates.
const (
	format         = "flowc-checkpoints/2"
	previousFormat = "flowc-checkpoints/1"
)

var tablesSQL = `
CREATE TABLE IF NOT EXISTS flowc_meta (
	key   TEXT PRIMARY KEY,
	value TEXT NOT NULL
);
INSERT OR IGNORE INTO flowc_meta (key, value) VALUES ('format', '` + format + `');
CREATE TABLE IF NOT EXISTS flowc_checkpoints (
	session  TEXT PRIMARY KEY,
	workflow TEXT NOT NULL,
	schema   TEXT NOT NULL,
	step     INTEGER NOT NULL,
	status   TEXT NOT NULL,
	position TEXT NOT NULL, -- JSON
	state    TEXT NOT NULL, -- JSON
	pending  TEXT,          -- JSON, or NULL unless the status is interrupted
	saved_at TEXT NOT NULL, -- RFC 3339
	` + strings.Join(historyColumns, ",\n\t") + `
);
CREATE INDEX IF NOT EXISTS flowc_checkpoints_saved ON flowc_checkpoints (saved_at, session);` + historyTable

// saveSQL replaces a session's checkpoint with the next one: an update
// applies only to the step before it (see ErrOvertaken). Its last
// argument is the number of events, which history_seq adds up.
const saveSQL = `
		INSERT INTO flowc_checkpoints (session, workflow, schema, step, status, position, state, pending, saved_at, events, history_cap, history_seq)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (session) DO UPDATE SET
			workflow = excluded.workflow, schema = excluded.schema, step = excluded.step,
			status = excluded.status, position = excluded.position, state = excluded.state,
			pending = excluded.pending, saved_at = excluded.saved_at,
			events = excluded.events, history_cap = excluded.history_cap,
			history_seq = flowc_checkpoints.history_seq + excluded.history_seq
		WHERE flowc_checkpoints.step = excluded.step - 1`

// Store is a flowcrt.Checkpointer on a SQLite file, which also keeps each
// session's history and lists its sessions. It is safe for concurrent use.
type Store struct {
	db         *sql.DB
	path       string
	historyCap int
	// save is saveSQL prepared once: through database/sql the driver
	// prepares a statement at every Exec, which was half of what a save
	// costs besides the sync.
	save *sql.Stmt
}

var (
	_ flowcrt.Checkpointer = (*Store)(nil)
	_ session.Lister       = (*Store)(nil)
	_ session.Historian    = (*Store)(nil)
)

// Option changes how a Store works.
type Option func(*Store)

// WithHistoryCap makes the store keep the newest n events of each
// session's history (session.DefaultHistoryCap without it), counting the
// dropped ones; n <= 0 means the default.
func WithHistoryCap(n int) Option {
	return func(s *Store) {
		if n > 0 {
			s.historyCap = n
		}
	}
}

// Open opens the checkpoint store at path, creating the file when it does
// not exist. A file that is not a SQLite database, is damaged, or is a
// SQLite database that flowc did not create is an error that says so.
func Open(path string, opts ...Option) (*Store, error) { return openSync(path, "FULL", opts...) }

// openSync opens the store with the given synchronous setting; only
// BenchmarkSave asks for another than FULL, to measure what it costs.
func openSync(path, synchronous string, opts ...Option) (*Store, error) {
	if err := checkHeader(path); err != nil {
		return nil, err
	}
	// busy_timeout waits for another writer: a minute, as on a loaded
	// machine many processes' saves queue behind each other's syncs, and a
	// save that gave up would fail its run. _txlock=immediate takes the
	// write lock when a transaction begins, so two of them cannot deadlock.
	db, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(60000)&_pragma=journal_mode(WAL)&_pragma=synchronous("+synchronous+")&_txlock=immediate")
	if err != nil {
		return nil, fmt.Errorf("checkpoint store %s: %w", path, err)
	}
	s := &Store{db: db, path: path, historyCap: session.DefaultHistoryCap}
	for _, opt := range opts {
		opt(s)
	}
	if err := s.setup(); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// sqliteHeader starts every SQLite database file.
var sqliteHeader = []byte("SQLite format 3\x00")

// checkHeader refuses an existing, non-empty file that is not a SQLite
// database, before the driver gives it a vaguer name.
func checkHeader(path string) error {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("checkpoint store: %w", err)
	}
	defer f.Close()
	head := make([]byte, len(sqliteHeader))
	n, err := io.ReadFull(f, head)
	switch {
	case n == 0:
		return nil // empty: SQLite makes a database of it
	case err != nil && !errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("checkpoint store: %w", err)
	case !bytes.Equal(head[:n], sqliteHeader):
		return fmt.Errorf("checkpoint store %s: not a SQLite database (the file does not start with the SQLite header); give a new file or one flowc created", path)
	}
	return nil
}

// setup checks that the file is a store (a foreign or damaged database
// fails here), creates or migrates its tables and prepares the save.
func (s *Store) setup() error {
	tables, err := s.tables()
	if err != nil {
		return s.damaged(err)
	}
	if len(tables) > 0 && !slices.Contains(tables, "flowc_meta") {
		return fmt.Errorf("checkpoint store %s: a SQLite database, but not a flowc checkpoint store (it has the tables %s)", s.path, strings.Join(tables, ", "))
	}
	if err := s.createTables(); err != nil {
		return err
	}
	if s.save, err = s.db.Prepare(saveSQL); err != nil {
		return fmt.Errorf("checkpoint store %s: %w", s.path, err)
	}
	return nil
}

// createTables creates the tables of a new store, or migrates those of
// the previous format, in one write transaction: of several processes
// that open a store at once, one does, and the others wait for it. The
// format is read first, so that a store of another format is named as
// such before this one's tables could fail beside its own.
func (s *Store) createTables() error {
	tx, err := s.db.Begin()
	if err != nil {
		return s.damaged(err)
	}
	defer tx.Rollback()
	got, err := storedFormat(tx)
	if err != nil {
		return s.damaged(err)
	}
	switch got {
	case "", format:
		if _, err := tx.Exec(tablesSQL); err != nil {
			return s.damaged(err)
		}
	case previousFormat:
		err = migrate(tx)
	default:
		return fmt.Errorf("checkpoint store %s: holds checkpoints of format %q; this flowc reads %q", s.path, got, format)
	}
	if err == nil {
		_, err = tx.Exec(triggers)
	}
	if err == nil {
		err = tx.Commit()
	}
	if err != nil {
		return fmt.Errorf("checkpoint store %s: %w", s.path, err)
	}
	return nil
}

// storedFormat is the format of the store tx is on, "" for a new one.
func storedFormat(tx *sql.Tx) (string, error) {
	var meta int
	err := tx.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'flowc_meta'`).Scan(&meta)
	if err != nil || meta == 0 {
		return "", err
	}
	return readFormat(tx)
}

// readFormat reads the store's format, through q, a database or a
// transaction.
func readFormat(q interface {
	QueryRow(string, ...any) *sql.Row
}) (string, error) {
	var got string
	err := q.QueryRow(`SELECT value FROM flowc_meta WHERE key = 'format'`).Scan(&got)
	return got, err
}

func (s *Store) tables() ([]string, error) {
	rows, err := s.db.Query(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, err
		}
		out = append(out, name)
	}
	return out, rows.Err()
}

func (s *Store) damaged(err error) error {
	return fmt.Errorf("checkpoint store %s: cannot be read as a SQLite database (damaged?): %w", s.path, err)
}

// Close closes the database.
func (s *Store) Close() error {
	s.save.Close()
	return s.db.Close()
}

// Save stores c as the session's last checkpoint and appends its events
// to the session's history, in one statement (see triggers), so the two
// never disagree.
func (s *Store) Save(ctx context.Context, c *flowcrt.Checkpoint) error {
	args, err := saveArgs(c, s.historyCap)
	if err != nil {
		return fmt.Errorf("checkpoint store %s: saving session %q: %w", s.path, c.Session, err)
	}
	return s.saved(ctx, c)(s.save.ExecContext(ctx, args...))
}

// saved checks the outcome of saveSQL for c.
func (s *Store) saved(ctx context.Context, c *flowcrt.Checkpoint) func(sql.Result, error) error {
	return func(res sql.Result, err error) error {
		if err != nil {
			return fmt.Errorf("checkpoint store %s: saving session %q: %w", s.path, c.Session, err)
		}
		if n, err := res.RowsAffected(); err == nil && n == 0 {
			return s.overtaken(ctx, c)
		}
		return nil
	}
}

// savedAtLayout is RFC 3339 with all nine fractional digits, so that
// saved_at sorts as text: listings are ordered by it.
const savedAtLayout = "2006-01-02T15:04:05.000000000Z07:00"

// saveArgs are the arguments of saveSQL for c, whose history keeps
// historyCap events.
func saveArgs(c *flowcrt.Checkpoint, historyCap int) ([]any, error) {
	position, err := json.Marshal(c.Position)
	if err != nil {
		return nil, err
	}
	var pending any // NULL
	if c.Pending != nil {
		data, err := json.Marshal(c.Pending)
		if err != nil {
			return nil, err
		}
		pending = string(data)
	}
	events, err := eventsArg(c.Events)
	if err != nil {
		return nil, err
	}
	return []any{c.Session, c.Workflow, c.Schema, c.Step, string(c.Status), string(position), string(c.State), pending,
		c.Time.UTC().Format(savedAtLayout), events, historyCap, len(c.Events)}, nil
}

// overtaken is the error of a save that does not follow the stored
// checkpoint: another process runs the session too, and saved first.
func (s *Store) overtaken(ctx context.Context, c *flowcrt.Checkpoint) error {
	var step int
	var savedAt string
	err := s.db.QueryRowContext(ctx, `SELECT step, saved_at FROM flowc_checkpoints WHERE session = ?`, c.Session).Scan(&step, &savedAt)
	if err != nil {
		return fmt.Errorf("checkpoint store %s: saving session %q: %w", s.path, c.Session, err)
	}
	return &flowcrt.SessionError{Session: c.Session, Err: fmt.Errorf(
		"%w: this run saves step %d, but the store holds step %d (saved at %s); another process runs the session too, so this run stops and the other goes on",
		ErrOvertaken, c.Step, step, savedAt)}
}

// ErrOvertaken is wrapped by the error of a Save that another process's
// run of the same session got ahead of. A session runs in one process at a
// time: each save must follow the stored one (step n after step n-1), so
// of two processes that resume one session together, the first to save
// goes on and the other stops with this error before it saves anything.
var ErrOvertaken = session.ErrOvertaken

// Load returns the session's last checkpoint.
func (s *Store) Load(ctx context.Context, id string) (*flowcrt.Checkpoint, error) {
	c := &flowcrt.Checkpoint{Session: id}
	var status, position, state, savedAt string
	var pending sql.NullString
	err := s.db.QueryRowContext(ctx, `
		SELECT workflow, schema, step, status, position, state, pending, saved_at
		FROM flowc_checkpoints WHERE session = ?`, id).
		Scan(&c.Workflow, &c.Schema, &c.Step, &status, &position, &state, &pending, &savedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, &flowcrt.SessionError{Session: id, Err: flowcrt.ErrNoCheckpoint}
	}
	if err != nil {
		return nil, fmt.Errorf("checkpoint store %s: loading session %q: %w", s.path, id, err)
	}
	c.Status, c.State = session.ParseStatus(status), json.RawMessage(state)
	err = s.decode(c, position, pending, savedAt)
	if err == nil && !json.Valid(c.State) {
		err = errors.New("its state is not JSON")
	}
	if err != nil {
		return nil, fmt.Errorf("checkpoint store %s: the checkpoint of session %q is damaged: %w", s.path, id, err)
	}
	return c, nil
}

func (s *Store) decode(c *flowcrt.Checkpoint, position string, pending sql.NullString, savedAt string) error {
	if err := json.Unmarshal([]byte(position), &c.Position); err != nil {
		return err
	}
	if pending.Valid {
		c.Pending = &flowcrt.Pending{}
		if err := json.Unmarshal([]byte(pending.String), c.Pending); err != nil {
			return err
		}
	}
	t, err := time.Parse(time.RFC3339Nano, savedAt)
	c.Time = t
	return err
}

// List returns the sessions that have a checkpoint, sorted.
func (s *Store) List(ctx context.Context) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT session FROM flowc_checkpoints ORDER BY session`)
	if err != nil {
		return nil, fmt.Errorf("checkpoint store %s: %w", s.path, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// Delete removes the session's checkpoint and history.
func (s *Store) Delete(ctx context.Context, session string) error {
	if err := s.deleteSession(ctx, session); err != nil {
		return fmt.Errorf("checkpoint store %s: deleting session %q: %w", s.path, session, err)
	}
	return nil
}
