package main

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/internal/sessiontest"
	"github.com/flowc-dev/flowc/internal/sessiontest/sqlitetest"
)

// flowc console serves a store read-only and prints its URL; the
// definitions it is given draw the graphs of their sessions.
func TestConsole(t *testing.T) {
	db := sqlitetest.File(t, sessiontest.Waiting("s1", "release"))

	ctx, cancel := context.WithCancel(context.Background())
	consoleContext = func() (context.Context, context.CancelFunc) { return ctx, cancel }
	t.Cleanup(func() { consoleContext = nil })
	out, w := io.Pipe()
	done := make(chan int)
	go func() {
		done <- run([]string{"console", "--checkpoint-db", db, "--addr", "127.0.0.1:0", "../../golden/aslmapapproval/release.asl.json"}, nil, w, io.Discard)
	}()
	line, err := bufio.NewReader(out).ReadString('\n')
	require.NoError(t, err)
	go io.Copy(io.Discard, out) //nolint:errcheck // nothing else is printed
	url := strings.TrimSpace(strings.TrimPrefix(line, "flowc console (read-only) at "))
	require.True(t, strings.HasPrefix(url, "http://127.0.0.1:"), line)

	resp, err := http.Get(url + "sessions/s1")
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Contains(t, string(body), "Ship it?")
	assert.Contains(t, string(body), `<g class="node waiting here"`[:len(`<g class="node `)], "the graph is drawn")
	assert.Contains(t, string(body), `data-state="Approve"`)
	assert.NotContains(t, string(body), "<form", "read-only")

	resp, err = http.Post(url+"sessions/s1/decide", "application/x-www-form-urlencoded", strings.NewReader("option=yes"))
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode)

	cancel()
	assert.Equal(t, exitOK, <-done)
}

// Beyond loopback the console needs a token.
func TestConsoleNeedsToken(t *testing.T) {
	t.Setenv("FLOWC_CONSOLE_TOKEN", "")
	db := filepath.Join(t.TempDir(), "s.db")
	code, _, stderr := cli(t, "", "console", "--checkpoint-db", db, "--addr", "0.0.0.0:0")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "give it a token")
}

// On Temporal the console needs a server that answers, and a token
// beyond loopback as over a file; both are checked before anything is
// built, with one store only.
func TestConsoleTemporalFlags(t *testing.T) {
	t.Setenv("FLOWC_CONSOLE_TOKEN", "")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	closed := ln.Addr().String() // nothing listens once closed
	require.NoError(t, ln.Close())

	code, _, stderr := cli(t, "", "console", "--temporal-address", closed)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "no Temporal server answers at "+closed)

	code, _, stderr = cli(t, "", "console", "--temporal-address", closed, "--addr", "0.0.0.0:0")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "give it a token")

	code, _, stderr = cli(t, "", "console", "--temporal-address", closed, "--checkpoint-db", "s.db")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "--checkpoint-db FILE or --temporal-address HOST:PORT")
}
