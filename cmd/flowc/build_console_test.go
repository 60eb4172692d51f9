package main

import (
	"bufio"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gateASL waits for a person after a Pass state (Agent State Language's
// Approval), so that a built program needs no handler.
const gateASL = `{
  "StartAt": "Prepare",
  "States": {
    "Prepare": {"Type": "Pass", "Result": {"ready": true}, "Next": "Review"},
    "Review": {"Type": "Approval", "Prompt": "Ship it?", "Options": ["yes", "no"], "Next": "Done"},
    "Done": {"Type": "Succeed"}
  }
}`

// A built program's --console shows the workflow's graph on a session's
// page, drawn from the graph the program carries (graph.svg, embedded in
// its main): the state the run went through marked done, the approval
// it waits at marked waiting (issue 36: the session page shows the
// workflow's graph with the path taken and the waiting states).
func TestBuildConsoleGraph(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	def := filepath.Join(t.TempDir(), "gate.asl.json")
	require.NoError(t, os.WriteFile(def, []byte(gateASL), 0o600))
	bin := buildProgram(t, def)
	db := filepath.Join(t.TempDir(), "s.db")
	_, stderr, code := runProgram(t, bin, nil, "", "--checkpoint-db", db, "--session", "s1", "--quiet")
	require.Equal(t, 0, code, stderr)

	cmd := exec.Command(bin, "--checkpoint-db", db, "--console", "127.0.0.1:0")
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	defer func() {
		assert.NoError(t, cmd.Process.Signal(os.Interrupt))
		assert.NoError(t, cmd.Wait(), "the console ends when interrupted")
	}()
	line, err := bufio.NewReader(out).ReadString('\n')
	require.NoError(t, err)
	go io.Copy(io.Discard, out) //nolint:errcheck // nothing else is printed
	base := strings.TrimSpace(strings.TrimPrefix(line, "flowc console at "))

	resp, err := http.Get(base + "sessions/s1")
	require.NoError(t, err)
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Contains(t, string(page), "<svg", "the page draws the graph")
	assert.Regexp(t, regexp.MustCompile(`<g class="node done" id="node-s\d+" data-state="Prepare">`), string(page))
	assert.Regexp(t, regexp.MustCompile(`<g class="node waiting" id="node-s\d+" data-state="Review">`), string(page))
	assert.Regexp(t, regexp.MustCompile(`<g class="node" id="node-s\d+" data-state="Done">`), string(page), "not reached")
}
