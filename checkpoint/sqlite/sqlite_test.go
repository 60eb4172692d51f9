package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrt "github.com/flowc-dev/flowc/runtime"
	flowcimpl "github.com/flowc-dev/flowc/runtime/impl"
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
// processes, all land.
func TestConcurrentSaves(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "c.db")
	stores := []*Store{open(t, path), open(t, path)}
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := range 8 {
		wg.Go(func() {
			for step := 1; step <= 8; step++ {
				if err := stores[i%2].Save(ctx, sample(fmt.Sprintf("s%d", i), step)); err != nil {
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

	damaged := filepath.Join(dir, "damaged.db")
	require.NoError(t, os.WriteFile(damaged, append([]byte("SQLite format 3\x00"), make([]byte, 200)...), 0o644))
	_, err = Open(damaged)
	assert.ErrorContains(t, err, "cannot be read as a SQLite database (damaged?)")

	empty := filepath.Join(dir, "empty.db")
	require.NoError(t, os.WriteFile(empty, nil, 0o644))
	open(t, empty)
}
