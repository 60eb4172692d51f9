package console_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/checkpoint/sqlite"
	"github.com/flowc-dev/flowc/console"
	"github.com/flowc-dev/flowc/session"
)

// sqliteStore saves n sessions of one state each in a SQLite store, the
// last of them with events of history, and returns the console over it.
func sqliteStore(b *testing.B, n, events int) http.Handler {
	store, err := sqlite.Open(filepath.Join(b.TempDir(), "s.db"), sqlite.WithHistoryCap(events))
	require.NoError(b, err)
	b.Cleanup(func() { store.Close() })
	ctx := context.Background()
	statuses := []session.Status{session.StatusSucceeded, session.StatusInterrupted, session.StatusFailed, session.StatusRunning}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		cp := &session.Checkpoint{Session: fmt.Sprintf("s%06d", i), Workflow: "release", Schema: "json", Step: 1,
			Status: statuses[i%len(statuses)], Position: session.Position{State: "Review"}, State: json.RawMessage(`{"items":[1,2,3]}`),
			Time: t0.Add(time.Duration(i) * time.Second)}
		if i == n-1 {
			for j := range events {
				cp.Events = append(cp.Events, session.NewEvent(cp.Time, session.KindStateSucceeded, fmt.Sprintf("Review/%d/Check", j),
					map[string]any{"output": map[string]any{"id": j, "risky": j%2 == 0}}))
			}
		}
		require.NoError(b, store.Save(ctx, cp))
	}
	return console.New(console.FromStore(store), console.WithGraphs(map[string]console.Graph{"release": drawing}))
}

func benchPage(b *testing.B, h http.Handler, path string) {
	b.ReportAllocs()
	for b.Loop() {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
		if w.Code != http.StatusOK {
			b.Fatalf("%s: %d", path, w.Code)
		}
	}
}

// The first page of a store of 100,000 sessions, with the counts of all
// of them (issue 36: under 200 ms).
func BenchmarkListPage100k(b *testing.B) {
	benchPage(b, sqliteStore(b, 100_000, 0), "/")
}

// The page of a session with 10,000 events of history (issue 36: under
// 200 ms): the graph marked from all of them, the first page of the table.
func BenchmarkSessionPage10kEvents(b *testing.B) {
	benchPage(b, sqliteStore(b, 1, 10_000), "/sessions/s000000")
}
