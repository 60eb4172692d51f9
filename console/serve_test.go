package console_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/console"
)

// Serve answers until its context ends, then returns nil, as the three
// programs that serve the console (flowc console over a file or a
// Temporal server, a built program's --console) expect when interrupted.
func TestServeUntilCancelled(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- console.Serve(ctx, ln, console.New(store())) }()
	resp, err := http.Get(console.URL(ln.Addr()))
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Contains(t, string(body), "map-1")
	cancel()
	assert.NoError(t, <-done)
	_, err = http.Get(console.URL(ln.Addr()))
	assert.Error(t, err, "still serving after its context ended")
}

// ReadGraphs reads the graphs flowc drew, and says so when they are not.
func TestReadGraphs(t *testing.T) {
	file := filepath.Join(t.TempDir(), "graphs.json")
	require.NoError(t, os.WriteFile(file, []byte(`{"release":{"SVG":"<svg></svg>","Nodes":{"Prepare":"s0"}}}`), 0o600))
	graphs, err := console.ReadGraphs(file)
	require.NoError(t, err)
	assert.Equal(t, "s0", graphs["release"].Nodes["Prepare"])
	require.NoError(t, os.WriteFile(file, []byte(`{nope`), 0o600))
	_, err = console.ReadGraphs(file)
	assert.Error(t, err)
}

// Serve returns only once the requests in flight have been answered: its
// callers close the store or client the handler uses right after it.
func TestServeWaitsForRequestsInFlight(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	started, finished := make(chan struct{}), make(chan struct{})
	slow := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(started)
		time.Sleep(300 * time.Millisecond)
		close(finished)
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- console.Serve(ctx, ln, slow) }()
	go func() {
		if resp, err := http.Get(console.URL(ln.Addr())); err == nil {
			resp.Body.Close()
		}
	}()
	<-started
	cancel()
	require.NoError(t, <-done)
	select {
	case <-finished:
	default:
		t.Fatal("Serve returned while a request was still being answered")
	}
}
