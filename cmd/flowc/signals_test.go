package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A state machine whose one state waits ten minutes: a run of it is in its
// program until something stops it.
const longWaitASL = `{"StartAt": "Nap", "States": {"Nap": {"Type": "Wait", "Seconds": 600, "End": true}}}`

// TestRunInterruptedCleansUp stops `flowc run` with a termination, as a
// supervisor would, while its program runs: the program gets an interrupt
// and ends its run, and flowc removes its temporary module (tens of
// megabytes each time) before it exits.
func TestRunInterruptedCleansUp(t *testing.T) {
	if testing.Short() || runtime.GOOS == "windows" {
		t.Skip("builds flowc and a workflow with the go tool, and signals them")
	}
	bin := filepath.Join(t.TempDir(), "flowc")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	require.NoError(t, err, "%s", out)
	work, tmp := t.TempDir(), t.TempDir()
	def := writeFile(t, work, "nap.asl.json", longWaitASL)

	// Without the cache, so that the program is built where the test
	// waits for it and the run finds the module it removes.
	cmd := exec.Command(bin, "run", "--no-cache", def)
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Start())
	waitForFile(t, tmp, "flowc-run-*/workflow")
	time.Sleep(time.Second) // the program reaches its wait
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))

	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("flowc run did not end after a termination; stderr:\n%s", stderr.String())
	}
	require.Error(t, err, "an interrupted run does not succeed")
	assert.Contains(t, stdout.String(), "canceled", "the program printed its result line")
	left, _ := filepath.Glob(filepath.Join(tmp, "flowc-run-*"))
	assert.Empty(t, left, "the temporary module is removed")
}

func waitForFile(t *testing.T, dir, pattern string) {
	t.Helper()
	for deadline := time.Now().Add(3 * time.Minute); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if found, _ := filepath.Glob(filepath.Join(dir, pattern)); len(found) > 0 {
			return
		}
	}
	t.Fatalf("no %s in %s", pattern, dir)
}
