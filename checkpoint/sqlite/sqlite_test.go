package sqlite

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrt "github.com/flowc-dev/flowc/runtime"
	flowcimpl "github.com/flowc-dev/flowc/runtime/impl"
	"github.com/flowc-dev/flowc/session"
)

func open(t *testing.T, path string) *Store {
	t.Helper()
	s, err := Open(path)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s
}

func sample(session string, step int) *flowcrt.Checkpoint {
	return &flowcrt.Checkpoint{
		Session: session, Workflow: "W", Schema: "sha256:00", Step: step, Status: flowcrt.StatusInterrupted,
		Position: flowcimpl.Position{State: "review", FanOut: &flowcimpl.FanOutProgress{Done: map[int]json.RawMessage{1: json.RawMessage(`[{"n":1}]`)}}},
		State:    json.RawMessage(`{"n":2}`),
		Pending:  &flowcrt.Pending{State: "review", Prompt: "OK?", Options: []string{"yes", "no"}},
		Time:     time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC),
	}
}

func TestStore(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "c.db")
	s := open(t, path)
	_, err := s.Load(ctx, "s1")
	assert.ErrorIs(t, err, flowcrt.ErrNoCheckpoint)
	require.NoError(t, s.Save(ctx, sample("s1", 1)))
	require.NoError(t, s.Save(ctx, sample("s1", 2)))
	require.NoError(t, s.Save(ctx, &flowcrt.Checkpoint{Session: "s0", Status: flowcrt.StatusFinished, State: json.RawMessage(`{}`)}))
	got, err := s.Load(ctx, "s1")
	require.NoError(t, err)
	assert.Equal(t, sample("s1", 2), got, "the last save replaces the one before")
	ids, err := s.List(ctx)
	require.NoError(t, err)
	assert.Equal(t, []string{"s0", "s1"}, ids)
	require.NoError(t, s.Delete(ctx, "s1"))
	_, err = s.Load(ctx, "s1")
	assert.ErrorIs(t, err, flowcrt.ErrNoCheckpoint)

	reopened := open(t, path)
	_, err = reopened.Load(ctx, "s0")
	assert.NoError(t, err, "a file flowc made opens again")
}

// Saves from many goroutines through two stores on one file, as from two
// processes, all land, with their events numbered in order.
func TestConcurrentSaves(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "c.db")
	stores := []*Store{open(t, path), open(t, path)}
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := range 8 {
		wg.Go(func() {
			for step := 1; step <= 8; step++ {
				if err := stores[i%2].Save(ctx, withEvents(sample(fmt.Sprintf("s%d", i), step), 2)); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for i := range 8 {
		c, err := stores[(i+1)%2].Load(ctx, fmt.Sprintf("s%d", i))
		require.NoError(t, err)
		assert.Equal(t, 8, c.Step)
		events, _, err := stores[(i+1)%2].History(ctx, fmt.Sprintf("s%d", i), 0, 0)
		require.NoError(t, err)
		require.Len(t, events, 16)
		for j, e := range events {
			assert.Equal(t, int64(j+1), e.Seq)
		}
	}
}

func TestRefusedFiles(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "notes.txt")
	require.NoError(t, os.WriteFile(text, []byte("hello\n"), 0o644))
	_, err := Open(text)
	assert.ErrorContains(t, err, "not a SQLite database (the file does not start with the SQLite header)")

	foreign := filepath.Join(dir, "app.db")
	db, err := sql.Open("sqlite", foreign)
	require.NoError(t, err)
	_, err = db.Exec(`CREATE TABLE orders (id INTEGER); CREATE TABLE users (name TEXT)`)
	require.NoError(t, err)
	require.NoError(t, db.Close())
	_, err = Open(foreign)
	assert.ErrorContains(t, err, "a SQLite database, but not a flowc checkpoint store (it has the tables orders, users)")

	other := filepath.Join(dir, "other.db")
	s := open(t, other)
	_, err = s.db.Exec(`UPDATE flowc_meta SET value = 'flowc-checkpoints/9' WHERE key = 'format'`)
	require.NoError(t, err)
	_, err = Open(other)
	assert.ErrorContains(t, err, `holds checkpoints of format "flowc-checkpoints/9"`)

	// A later format whose tables this flowc's could not be made beside
	// (no saved_at to index) is named too, not called damaged.
	future := filepath.Join(dir, "future.db")
	db, err = sql.Open("sqlite", future)
	require.NoError(t, err)
	_, err = db.Exec(`CREATE TABLE flowc_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
		INSERT INTO flowc_meta VALUES ('format', 'flowc-checkpoints/3');
		CREATE TABLE flowc_checkpoints (session TEXT PRIMARY KEY, data TEXT)`)
	require.NoError(t, err)
	require.NoError(t, db.Close())
	_, err = Open(future)
	assert.ErrorContains(t, err, `holds checkpoints of format "flowc-checkpoints/3"; this flowc reads "flowc-checkpoints/2"`)

	damaged := filepath.Join(dir, "damaged.db")
	require.NoError(t, os.WriteFile(damaged, append([]byte("SQLite format 3\x00"), make([]byte, 200)...), 0o644))
	_, err = Open(damaged)
	assert.ErrorContains(t, err, "cannot be read as a SQLite database (damaged?)")

	empty := filepath.Join(dir, "empty.db")
	require.NoError(t, os.WriteFile(empty, nil, 0o644))
	open(t, empty)
}

// TestTwoProcessesOneSession: two processes resume one session from the
// same checkpoint and save their next step at once; the first goes on and
// the other gets ErrOvertaken, whichever of them wins.
func TestTwoProcessesOneSession(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "c.db")
	require.NoError(t, open(t, path).Save(ctx, sample("s1", 1)))
	start := filepath.Join(dir, "start")
	var outs [2][]byte
	var wg sync.WaitGroup
	loaded := make(chan struct{}, len(outs))
	for i := range outs {
		cmd := exec.Command(os.Args[0], "-test.run=^TestSaveProcess$")
		cmd.Env = append(os.Environ(), "FLOWC_SAVE_PROCESS="+path, "FLOWC_SAVE_START="+start)
		stdout, err := cmd.StdoutPipe()
		require.NoError(t, err)
		require.NoError(t, cmd.Start())
		wg.Go(func() {
			r := bufio.NewReader(stdout)
			r.ReadString('\n') // "loaded"
			loaded <- struct{}{}
			outs[i], _ = io.ReadAll(r)
			cmd.Wait()
		})
	}
	<-loaded
	<-loaded
	require.NoError(t, os.WriteFile(start, nil, 0o644))
	wg.Wait()
	results := []string{firstLine(outs[0]), firstLine(outs[1])}
	slices.Sort(results)
	assert.Equal(t, "overtaken", results[0], "one save is refused: %q", outs)
	assert.Equal(t, "saved step 2", results[1], "the other goes on: %q", outs)
	c, err := open(t, path).Load(ctx, "s1")
	require.NoError(t, err)
	assert.Equal(t, 2, c.Step)
}

// TestSaveProcess is one process of TestTwoProcessesOneSession: it loads
// session s1, waits for the start file, then saves the step after.
func TestSaveProcess(t *testing.T) {
	path := os.Getenv("FLOWC_SAVE_PROCESS")
	if path == "" {
		t.Skip("run by TestTwoProcessesOneSession")
	}
	ctx := context.Background()
	s := open(t, path)
	c, err := s.Load(ctx, "s1")
	require.NoError(t, err)
	fmt.Println("loaded")
	for _, err := os.Stat(os.Getenv("FLOWC_SAVE_START")); err != nil; _, err = os.Stat(os.Getenv("FLOWC_SAVE_START")) {
		time.Sleep(time.Millisecond)
	}
	c.Step++
	switch err := s.Save(ctx, c); {
	case errors.Is(err, ErrOvertaken):
		fmt.Println("overtaken")
	case err != nil:
		fmt.Println("error:", err)
	default:
		fmt.Println("saved step", c.Step)
	}
}

func firstLine(b []byte) string {
	line, _, _ := strings.Cut(string(b), "\n")
	return line
}

// BenchmarkSave measures one checkpoint, as a session saves it after each
// state, with the store's synchronous=FULL beside NORMAL (in WAL mode FULL
// syncs the log on every commit, NORMAL only when the log is copied into
// the database, so NORMAL may lose the last commits to a power cut, never
// to a killed process), and beside batches of 16 saves in one transaction
// (one sync for all). Writers run in parallel on the file, as the soak's
// workers do; the figure is per checkpoint.
func BenchmarkSave(b *testing.B) {
	for _, sync := range []string{"FULL", "NORMAL"} {
		for _, batch := range []int{1, 16} {
			b.Run(fmt.Sprintf("synchronous=%s/batch=%d", sync, batch), func(b *testing.B) {
				s, err := openSync(filepath.Join(b.TempDir(), "c.db"), sync)
				require.NoError(b, err)
				defer s.Close()
				var writer atomic.Int64
				b.SetParallelism(4)
				b.RunParallel(func(pb *testing.PB) {
					w := writer.Add(1)
					for step := 1; ; step++ {
						n := 0
						for n < batch && pb.Next() {
							n++
						}
						if n == 0 {
							return
						}
						if err := saveBatch(s, w, step, n); err != nil {
							b.Error(err)
							return
						}
					}
				})
			})
		}
	}
}

// saveBatch saves step of n sessions of writer w in one transaction,
// through the statement Save prepares (unprepared, the statement costs
// more than a save: SQLite compiles its triggers with it).
func saveBatch(s *Store, w int64, step, n int) error {
	tx, err := s.db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	save := tx.Stmt(s.save)
	for i := range n {
		args, err := saveArgs(sample(fmt.Sprintf("w%d-s%d", w, i), step), s.historyCap)
		if err != nil {
			return err
		}
		if _, err := save.Exec(args...); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// BenchmarkSaveHistory measures what keeping history adds to a save as a
// session's run makes it after a state (issue 36 allows 25%): Store.Save
// of one checkpoint alone, and with the events a state records (entered
// with its input, succeeded with its output), with the store's default
// synchronous=FULL. Sessions save one after another, as one run does.
func BenchmarkSaveHistory(b *testing.B) {
	for _, events := range []int{0, 2} {
		b.Run(fmt.Sprintf("events=%d", events), func(b *testing.B) {
			s, err := Open(filepath.Join(b.TempDir(), "c.db"))
			require.NoError(b, err)
			defer s.Close()
			step := 0
			for b.Loop() {
				step++
				if err := s.Save(context.Background(), withEvents(sample("s", step), events)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSaveHistoryPaired measures the same as BenchmarkSaveHistory,
// but alternates the two saves (two sessions of one store) and reports
// the median of each and what the events add, in percent: on a shared
// machine a disk's sync takes from one to several times as long from one
// second to the next, and alternating lets both saves see the same.
// synchronous=NORMAL, which syncs no commit, shows what the events cost
// besides the sync.
func BenchmarkSaveHistoryPaired(b *testing.B) {
	for _, sync := range []string{"FULL", "NORMAL"} {
		b.Run("synchronous="+sync, func(b *testing.B) {
			s, err := openSync(filepath.Join(b.TempDir(), "c.db"), sync)
			require.NoError(b, err)
			defer s.Close()
			var took [2][]time.Duration // without events, with
			step := 0
			for b.Loop() {
				step++
				for i := range 2 {
					k := (i + step) % 2 // the first save alternates too
					c := withEvents(sample(fmt.Sprint("s", k), step), 2*k)
					start := time.Now()
					if err := s.Save(context.Background(), c); err != nil {
						b.Fatal(err)
					}
					took[k] = append(took[k], time.Since(start))
				}
			}
			without, with := median(took[0]), median(took[1])
			b.ReportMetric(float64(without.Microseconds()), "µs/save")
			b.ReportMetric(float64(with.Microseconds()), "µs/save+events")
			b.ReportMetric(100*(float64(with)/float64(without)-1), "%added")
		})
	}
}

// withEvents gives c the events a state records: entered with its input,
// succeeded with its output, n in all.
func withEvents(c *flowcrt.Checkpoint, n int) *flowcrt.Checkpoint {
	kinds := []session.EventKind{session.KindStateEntered, session.KindStateSucceeded}
	for i := range n {
		c.Events = append(c.Events, session.NewEvent(c.Time, kinds[i%2], "review", map[string]json.RawMessage{"input": c.State}))
	}
	return c
}

func median(d []time.Duration) time.Duration {
	slices.Sort(d)
	return d[len(d)/2]
}

// A save of many events numbers them all in order.
func TestSaveManyEvents(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "c.db"))
	c := sample("s", 1)
	at := time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)
	for i := range 2005 {
		c.Events = append(c.Events, session.NewEvent(at, session.KindStateEntered, fmt.Sprint("s", i), nil))
	}
	require.NoError(t, s.Save(ctx, c))
	got, dropped, err := s.History(ctx, "s", 0, 3000)
	require.NoError(t, err)
	assert.Zero(t, dropped)
	require.Len(t, got, 2005)
	for i, e := range got {
		assert.Equal(t, int64(i+1), e.Seq)
		assert.Equal(t, fmt.Sprint("s", i), e.State)
	}
}
