package sqlite

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrt "github.com/flowc-dev/flowc/runtime"
	"github.com/flowc-dev/flowc/session"
)

var at = time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)

// Events of saves of 0 to 3 events are numbered 1, 2, 3... without a gap,
// read back oldest first with their fields as written, and paged by seq
// across the saves' rows.
func TestHistoryNumbering(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "c.db"))
	var want []session.Event
	for step := 1; step <= 11; step++ { // the last with events
		c := sample("s", step)
		for i := range step % 4 {
			c.Events = append(c.Events, session.NewEvent(at, session.KindStateEntered, fmt.Sprintf("s%d-%d", step, i),
				map[string]any{"input": map[string]any{"html": "<b>é</b>", "n": 1.5}}))
		}
		want = append(want, c.Events...)
		require.NoError(t, s.Save(ctx, c))
	}
	var left int
	require.NoError(t, s.db.QueryRow(`SELECT count(*) FROM flowc_checkpoints WHERE events IS NOT NULL`).Scan(&left))
	assert.Zero(t, left, "filed events leave the checkpoint's row")
	got, dropped, err := s.History(ctx, "s", 0, 0)
	require.NoError(t, err)
	assert.Zero(t, dropped)
	require.Len(t, got, len(want))
	for i, e := range got {
		want[i].Seq = int64(i + 1)
		assert.Equal(t, want[i], e, "numbered, fields byte for byte")
	}
	for after := range int64(len(want)) {
		page, _, err := s.History(ctx, "s", after, 4)
		require.NoError(t, err)
		require.NotEmpty(t, page)
		assert.Equal(t, after+1, page[0].Seq, "the page starts after %d", after)
		assert.Len(t, page, min(4, len(want)-int(after)))
	}
}

// States and kinds of any text, events without fields, and fields with
// space around them read back as saved; fields that are not JSON fail the
// save, which keeps nothing.
func TestHistoryOddEvents(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "c.db"))
	c := sample("s", 1)
	c.Events = []session.Event{
		session.NewEvent(at, session.KindRedriven, "", nil),
		session.NewEvent(at, "kind \"quoted\"", "Map/2/Ré\\view\n\t<x>", map[string]string{"a": "\u2028"}),
		{Time: at, Kind: session.KindStateSucceeded, State: "x", Fields: json.RawMessage(" \n{\"output\": [1, \"]\"]}\t ")},
	}
	require.NoError(t, s.Save(ctx, c))
	got, _, err := s.History(ctx, "s", 0, 0)
	require.NoError(t, err)
	for i := range c.Events {
		c.Events[i].Seq = int64(i + 1)
	}
	assert.Equal(t, c.Events, got)

	bad := sample("s", 2)
	bad.Events = []session.Event{{Time: at, Kind: session.KindStateSucceeded, Fields: json.RawMessage(`{"output":`)}}
	require.ErrorContains(t, s.Save(ctx, bad), "the fields of its state_succeeded event are not JSON")
	cp, err := s.Load(ctx, "s")
	require.NoError(t, err)
	assert.Equal(t, 1, cp.Step)
}

// The cap keeps the newest events whatever rows still hold older ones
// (they are deleted trimEvery at a time), counts the dropped, and bounds
// what the file holds.
func TestHistoryCapOverManySaves(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "c.db")
	s, err := Open(path, WithHistoryCap(5))
	require.NoError(t, err)
	defer s.Close()
	last := 0
	for step := 1; step <= 150; step++ {
		c := sample("s", step)
		for range step % 3 {
			last++
			c.Events = append(c.Events, session.NewEvent(at, session.KindStateSucceeded, fmt.Sprint(last), nil))
		}
		require.NoError(t, s.Save(ctx, c))
		got, dropped, err := s.History(ctx, "s", 0, 0)
		require.NoError(t, err)
		require.Len(t, got, min(last, 5))
		assert.Equal(t, int64(max(last-5, 0)), dropped, "after step %d", step)
		for i, e := range got {
			assert.Equal(t, dropped+int64(i)+1, e.Seq)
			assert.Equal(t, fmt.Sprint(e.Seq), e.State, "the newest are kept")
		}
	}
	var stored int
	require.NoError(t, s.db.QueryRow(`SELECT sum(json_array_length(events)) FROM flowc_history`).Scan(&stored))
	assert.LessOrEqual(t, stored, 5+trimEvery+2, "rows past the cap are deleted")
}

// A history read while another store on the file saves is one moment's:
// the cap's newest events, numbered from the dropped count on, even when
// a save (and its trim) lands between reading the count and the rows.
func TestHistoryReadWhileSaving(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "c.db")
	reader := open(t, path)
	// synchronous OFF: saves as fast as they go, so that many land
	// inside a read.
	writer, err := openSync(path, "OFF", WithHistoryCap(5))
	require.NoError(t, err)
	defer writer.Close()
	require.NoError(t, writer.Save(ctx, withEvents(sample("s", 1), 1)))

	// The read's transaction does not wait for a writer's lock.
	locked, err := writer.db.Begin()
	require.NoError(t, err)
	short, cancel := context.WithTimeout(ctx, 5*time.Second)
	_, _, err = reader.History(short, "s", 0, 0)
	cancel()
	require.NoError(t, err, "read while another connection holds the write lock")
	require.NoError(t, locked.Rollback())

	saving, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for step := 2; step <= 400 && saving.Err() == nil; step++ {
			if err := writer.Save(saving, withEvents(sample("s", step), 1)); saving.Err() == nil && !assert.NoError(t, err) {
				return
			}
		}
	}()
	defer func() { stop(); <-done }() // before the writer closes, should a read fail
	for reads := 0; ; reads++ {
		select {
		case <-done:
			t.Logf("%d reads", reads)
			return
		default:
		}
		got, dropped, err := reader.History(ctx, "s", 0, 0)
		require.NoError(t, err)
		require.NotEmpty(t, got)
		require.LessOrEqual(t, len(got), 5, "the cap's newest, %d dropped", dropped)
		for i, e := range got {
			require.Equal(t, dropped+int64(i)+1, e.Seq, "numbered on from the %d dropped", dropped)
		}
	}
}

// A store opened with a larger cap than the one that dropped events still
// counts those as dropped.
func TestHistoryCapRaised(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "c.db")
	s, err := Open(path, WithHistoryCap(10))
	require.NoError(t, err)
	for step := 1; step <= 100; step++ {
		require.NoError(t, s.Save(ctx, withEvents(sample("s", step), 2)))
	}
	require.NoError(t, s.Close())
	var kept int64
	s, err = Open(path, WithHistoryCap(1000))
	require.NoError(t, err)
	defer s.Close()
	require.NoError(t, s.Save(ctx, withEvents(sample("s", 101), 2)))
	require.NoError(t, s.db.QueryRow(`SELECT sum(json_array_length(events)) FROM flowc_history`).Scan(&kept))
	got, dropped, err := s.History(ctx, "s", 0, 0)
	require.NoError(t, err)
	assert.Equal(t, 202-kept, dropped)
	assert.Len(t, got, int(kept))
	assert.Equal(t, dropped+1, got[0].Seq)
	assert.Equal(t, int64(202), got[len(got)-1].Seq)
}

// A save whose events cannot be filed keeps neither them nor its
// checkpoint: the two are one statement. The row in the way is one a bug
// or a hand could leave; a crash mid-statement is undone by SQLite alike.
func TestFailedSaveKeepsNeither(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "c.db"))
	require.NoError(t, s.Save(ctx, withEvents(sample("s", 1), 2)))
	_, err := s.db.Exec(`INSERT INTO flowc_history (session, seq, events) VALUES ('s', 4, '[]')`)
	require.NoError(t, err)

	err = s.Save(ctx, withEvents(sample("s", 2), 2))
	require.ErrorContains(t, err, "UNIQUE constraint failed")
	c, err := s.Load(ctx, "s")
	require.NoError(t, err)
	assert.Equal(t, 1, c.Step, "the checkpoint was not saved")
	var seq int64
	require.NoError(t, s.db.QueryRow(`SELECT history_seq FROM flowc_checkpoints`).Scan(&seq))
	assert.Equal(t, int64(2), seq)
	_, err = s.db.Exec(`DELETE FROM flowc_history WHERE seq = 4`)
	require.NoError(t, err)
	got, _, err := s.History(ctx, "s", 0, 0)
	require.NoError(t, err)
	assert.Len(t, got, 2, "nor its events")

	require.NoError(t, s.Save(ctx, withEvents(sample("s", 2), 2)), "the same save goes through once nothing is in the way")
	got, _, err = s.History(ctx, "s", 0, 0)
	require.NoError(t, err)
	assert.Len(t, got, 4)
}

// A store's triggers are always those of the binary that opens it: one
// whose triggers an older flowc (here: one that files nothing) made gets
// this one's.
func TestTriggersReplaced(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "c.db")
	s, err := Open(path)
	require.NoError(t, err)
	_, err = s.db.Exec(`DROP TRIGGER flowc_history_inserted;
		CREATE TRIGGER flowc_history_inserted AFTER INSERT ON flowc_checkpoints BEGIN SELECT 1; END`)
	require.NoError(t, err)
	require.NoError(t, s.Close())

	s = open(t, path)
	require.NoError(t, s.Save(ctx, withEvents(sample("s", 1), 2)))
	got, _, err := s.History(ctx, "s", 0, 0)
	require.NoError(t, err)
	assert.Len(t, got, 2, "the first save's events are filed")
}

// formatOneDDL is the layout flowc-checkpoints/1 stores were made with:
// one row per event, no history columns on the checkpoints.
const formatOneDDL = `
CREATE TABLE flowc_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO flowc_meta (key, value) VALUES ('format', 'flowc-checkpoints/1');
CREATE TABLE flowc_checkpoints (
	session TEXT PRIMARY KEY, workflow TEXT NOT NULL, schema TEXT NOT NULL, step INTEGER NOT NULL,
	status TEXT NOT NULL, position TEXT NOT NULL, state TEXT NOT NULL, pending TEXT, saved_at TEXT NOT NULL
);
CREATE INDEX flowc_checkpoints_saved ON flowc_checkpoints (saved_at, session);
CREATE TABLE flowc_history (
	session TEXT NOT NULL, seq INTEGER NOT NULL, time TEXT NOT NULL, kind TEXT NOT NULL,
	state TEXT NOT NULL, fields TEXT, PRIMARY KEY (session, seq)
) WITHOUT ROWID;
INSERT INTO flowc_checkpoints VALUES ('old', 'W', 'sha256:00', 3, 'running', '{"state":"review"}', '{"n":2}', NULL,
	'2026-01-02T03:04:05.000000006Z');
INSERT INTO flowc_checkpoints VALUES ('quiet', 'W', 'sha256:00', 1, 'succeeded', '{"state":"end"}', '{}', NULL,
	'2026-01-02T03:04:06.000000000Z');
-- a cap of 3 dropped seq 1 and 2
INSERT INTO flowc_history VALUES ('old', 3, '2026-01-02T03:04:05.000000006Z', 'state_entered', 'review', '{"input":{"html":"<b>"}}');
INSERT INTO flowc_history VALUES ('old', 4, '2026-01-02T03:04:05.000000006Z', 'redriven', '', NULL);
INSERT INTO flowc_history VALUES ('old', 5, '2026-01-02T03:04:05.000000006Z', 'state_succeeded', 'review', '{"output":{"n":2}}');
-- format 1 stored a caller's fields unchecked
INSERT INTO flowc_checkpoints VALUES ('odd', 'W', 'sha256:00', 1, 'running', '{"state":"a"}', '{}', NULL,
	'2026-01-02T03:04:07.000000000Z');
INSERT INTO flowc_history VALUES ('odd', 1, '2026-01-02T03:04:05.000000006Z', 'state_entered', 'a', 'not {json');`

// A store of format 1 opens (by two processes at once), keeps its
// checkpoints and history, even fields that are not JSON, and numbers new
// events after the old.
func TestFormatOneMigrated(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "c.db")
	db, err := sql.Open("sqlite", path+"?_pragma=journal_mode(WAL)") // as flowc made them
	require.NoError(t, err)
	_, err = db.Exec(formatOneDDL)
	require.NoError(t, err)
	require.NoError(t, db.Close())

	stores := make([]*Store, 2)
	var wg sync.WaitGroup
	for i := range stores {
		wg.Go(func() {
			s, err := Open(path)
			assert.NoError(t, err)
			stores[i] = s
		})
	}
	wg.Wait()
	for _, s := range stores {
		require.NotNil(t, s)
		t.Cleanup(func() { s.Close() })
	}
	s := stores[0]
	format, err := readFormat(s.db)
	require.NoError(t, err)
	assert.Equal(t, "flowc-checkpoints/2", format)

	c, err := s.Load(ctx, "old")
	require.NoError(t, err)
	assert.Equal(t, 3, c.Step)
	got, dropped, err := s.History(ctx, "old", 0, 0)
	require.NoError(t, err)
	assert.Equal(t, int64(2), dropped)
	require.Len(t, got, 3)
	assert.Equal(t, session.Event{Seq: 3, Time: at, Kind: session.KindStateEntered, State: "review",
		Fields: json.RawMessage(`{"input":{"html":"<b>"}}`)}, got[0])
	assert.Equal(t, session.Event{Seq: 4, Time: at, Kind: session.KindRedriven}, got[1])
	assert.Equal(t, `{"output":{"n":2}}`, string(got[2].Fields))
	got, dropped, err = s.History(ctx, "quiet", 0, 0)
	require.NoError(t, err)
	assert.Empty(t, got)
	assert.Zero(t, dropped)
	got, _, err = s.History(ctx, "odd", 0, 0)
	require.NoError(t, err)
	require.Len(t, got, 1)
	assert.Equal(t, `"not {json"`, string(got[0].Fields), "fields that are not JSON are kept as a JSON string of their text")

	next := &flowcrt.Checkpoint{Session: "old", Workflow: "W", Schema: "sha256:00", Step: 4, Status: flowcrt.StatusRunning,
		State: json.RawMessage(`{}`), Time: at, Events: []session.Event{session.NewEvent(at, session.KindRunSucceeded, "", nil)}}
	require.NoError(t, stores[1].Save(ctx, next))
	got, _, err = s.History(ctx, "old", 4, 0)
	require.NoError(t, err)
	require.Len(t, got, 2)
	assert.Equal(t, int64(6), got[1].Seq)
	assert.Equal(t, session.KindRunSucceeded, got[1].Kind)
}

// A row of events that is not what a save writes fails the read with an
// error that says so, whatever its text; no prefix of a good row reads.
func TestHistoryDamagedRows(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "c.db"))
	require.NoError(t, s.Save(ctx, sample("s", 1)))
	good := `[["2026-01-02T03:04:05Z","state_entered","a\"b",{"input":[1,"]"]}],["2026-01-02T03:04:05Z","redriven",""]]`
	row, err := (&rowReader{b: []byte(good)}).events()
	require.NoError(t, err)
	assert.Len(t, row, 2)
	for _, bad := range []string{`not json`, `[["t","k"]]`, `[["t","k","s","f","x"]]`, `[["t","k","s"],]`, `{}`,
		`[["t","k","s"]]trailing`, `[["t","k","s"]] ]`, `[["t","k","s",{]]]`, `[["t","k","s",1 2]]`, `[["t","k","s",]]`,
		`[["t","k","s",{"a"}]]`, `[["t","k","s" "x"]]`} {
		_, err := s.db.Exec(`INSERT OR REPLACE INTO flowc_history (session, seq, events) VALUES ('s', 1, ?)`, bad)
		require.NoError(t, err)
		_, _, err = s.History(ctx, "s", 0, 0)
		assert.ErrorContains(t, err, `the history of session "s" is damaged`, bad)
	}
	for n := range len(good) {
		_, err := (&rowReader{b: []byte(good[:n])}).events()
		assert.Error(t, err, good[:n])
	}
}

// A process killed while it saves leaves the checkpoint and the history
// agreeing: the last checkpoint's step has exactly its events and those of
// the steps before it.
func TestKilledWhileSaving(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestSaveLoopProcess$")
	cmd.Env = append(os.Environ(), "FLOWC_SAVE_LOOP="+path)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	line, _ := bufio.NewReader(stdout).ReadString('\n') // "saving", after the first save
	require.Equal(t, "saving\n", line)
	time.Sleep(300 * time.Millisecond)
	require.NoError(t, cmd.Process.Kill())
	cmd.Wait()

	ctx := context.Background()
	s := open(t, path)
	c, err := s.Load(ctx, "s")
	require.NoError(t, err)
	got, dropped, err := s.History(ctx, "s", 0, 0)
	require.NoError(t, err)
	assert.Zero(t, dropped)
	require.Len(t, got, 2*c.Step, "two events a step, up to step %d", c.Step)
	assert.Equal(t, fmt.Sprint(c.Step), got[len(got)-1].State)
	t.Logf("killed after step %d", c.Step)
}

// TestSaveLoopProcess is the process TestKilledWhileSaving kills: it saves
// steps of session s, two events each, until it is.
func TestSaveLoopProcess(t *testing.T) {
	path := os.Getenv("FLOWC_SAVE_LOOP")
	if path == "" {
		t.Skip("run by TestKilledWhileSaving")
	}
	s := open(t, path)
	for step := 1; ; step++ {
		c := sample("s", step)
		for _, kind := range []session.EventKind{session.KindStateEntered, session.KindStateSucceeded} {
			c.Events = append(c.Events, session.NewEvent(at, kind, fmt.Sprint(step), map[string]json.RawMessage{"input": c.State}))
		}
		require.NoError(t, s.Save(context.Background(), c))
		if step == 1 {
			fmt.Println("saving")
		}
	}
}
