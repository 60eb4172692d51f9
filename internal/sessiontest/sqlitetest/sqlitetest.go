// Package sqlitetest makes SQLite checkpoint files for tests of the
// programs that read them (`flowc console`, built programs' --console).
package sqlitetest

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/flowc-dev/flowc/checkpoint/sqlite"
	"github.com/flowc-dev/flowc/session"
)

// File returns the path of a new SQLite checkpoint file, in tb's
// temporary directory, that holds cps.
func File(tb testing.TB, cps ...*session.Checkpoint) string {
	tb.Helper()
	db := filepath.Join(tb.TempDir(), "s.db")
	store, err := sqlite.Open(db)
	if err != nil {
		tb.Fatal(err)
	}
	for _, cp := range cps {
		if err := store.Save(context.Background(), cp); err != nil {
			tb.Fatal(err)
		}
	}
	if err := store.Close(); err != nil {
		tb.Fatal(err)
	}
	return db
}
