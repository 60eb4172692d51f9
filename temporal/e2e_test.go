package temporal_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.temporal.io/sdk/client"

	flowcrt "github.com/flowc-dev/flowc/runtime"
	"github.com/flowc-dev/flowc/temporal/flowtemporal"
	"github.com/flowc-dev/flowc/temporal/golden/review"
)

// TestWorkerKilled runs golden/review on a Temporal dev server: a worker
// process runs the fan-out and is killed (SIGKILL) while the workflow waits
// for its approval; a second worker takes over, the approval is
// signalled, and the run completes with every page checked once: no
// activity that had completed runs again.
func TestWorkerKilled(t *testing.T) {
	address := devServer(t)
	dir := t.TempDir()
	worker := filepath.Join(dir, "worker")
	build(t, worker, "./e2e/worker")
	logFile := filepath.Join(dir, "activities.log")
	c, err := client.Dial(client.Options{HostPort: address})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()

	first := startWorker(t, worker, address, logFile)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	pages := []string{"intro", "usage", "faq", "changelog", "license"}
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "review-e2e", TaskQueue: "review"}, review.ReviewWorkflowName, review.ReviewState{Pages: pages})
	if err != nil {
		t.Fatal(err)
	}
	waitPending(ctx, t, c, run, "approve")
	kill(t, first)

	startWorker(t, worker, address, logFile) // stopped by the cleanup
	if err := c.SignalWorkflow(ctx, run.GetID(), run.GetRunID(), flowtemporal.SignalDecision, flowtemporal.Decision{Decision: "publish"}); err != nil {
		t.Fatal(err)
	}
	var out review.ReviewState
	if err := run.Get(ctx, &out); err != nil {
		t.Fatal(err)
	}
	if out.Status != "published" || !slices.Equal(out.Checked, pages) || out.Words != 29 {
		t.Errorf("final state %+v: want every page checked in list order, 29 words, published", out)
	}
	ran := activities(t, logFile)
	want := []string{"check changelog", "check faq", "check intro", "check license", "check usage", "load", "publish"}
	if got := names(ran); !slices.Equal(got, want) {
		t.Errorf("activities %q, want each once: %q", got, want)
	}
	if ran["publish"] == ran["load"] {
		t.Errorf("publish ran in the killed worker's process %s too: the kill did not happen mid-run", ran["load"])
	}
	if path := os.Getenv("FLOWC_RECORD_HISTORY"); path != "" {
		recordHistory(t, address, run.GetID(), path)
	}
	t.Run("random values and times", func(t *testing.T) { testRandomOnServer(t, address) })
	t.Run("flowc run --temporal-address", func(t *testing.T) {
		flowc := buildFlowc(t)
		args := []string{"run", "golden/mocked/mocked.flow.yaml", "--mock-config", "golden/mocked/mocks.json", "--test-case", "happy"}
		native, _ := runFlowc(t, flowc, append(args, "--skip-waits")...)
		onServer, _ := runFlowc(t, flowc, append(args, "--engine", "temporal", "--temporal-address", address)...)
		if !bytes.Equal(native, onServer) || len(native) == 0 {
			t.Errorf("native: %s\non the server: %s", native, onServer)
		}
	})
}

// devServer starts `temporal server start-dev` on a free loopback port and
// returns its address; the server stops with the test. A server that
// exits before it answers (its port taken in the meantime by another
// test's server, whose services bind ports of their own) is started again
// on another port.
func devServer(t *testing.T) string {
	bin, err := exec.LookPath("temporal")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("the Temporal CLI is not on PATH (.ci/run installs it)")
		}
		t.Skip("the Temporal CLI is not on PATH: go install github.com/temporalio/cli/cmd/temporal@v1.5.1")
	}
	var errs []error
	for range 3 {
		address, err := startDevServer(t, bin)
		if err == nil {
			return address
		}
		errs = append(errs, err)
	}
	t.Fatalf("the dev server did not come up: %v", errors.Join(errs...))
	return ""
}

// startDevServer starts one dev server and waits until it answers, for a
// minute at most, or until it exits.
func startDevServer(t *testing.T, bin string) (string, error) {
	port := freePort(t)
	address := "127.0.0.1:" + strconv.Itoa(port)
	srv := exec.Command(bin, "server", "start-dev", "--headless", "--ip", "127.0.0.1", "--port", strconv.Itoa(port), "--log-level", "error")
	srv.Stdout, srv.Stderr = os.Stderr, os.Stderr
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- srv.Wait() }()
	t.Cleanup(func() {
		_ = srv.Process.Signal(syscall.SIGTERM)
		<-exited
	})
	deadline := time.Now().Add(time.Minute)
	for {
		c, err := client.Dial(client.Options{HostPort: address})
		if err == nil {
			_, err = c.CheckHealth(context.Background(), &client.CheckHealthRequest{})
			c.Close()
		}
		if err == nil {
			return address, nil
		}
		select {
		case werr := <-exited:
			exited <- werr // for the cleanup
			return "", fmt.Errorf("the server at %s exited: %v", address, werr)
		case <-time.After(200 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return "", fmt.Errorf("no answer at %s: %v", address, err)
		}
	}
}

// freePort is a free loopback port below Linux's ephemeral range
// (32768-60999), where no other server's services get a port of the
// kernel's choosing between this check and the server's bind.
func freePort(t *testing.T) int {
	for port := 20000 + rand.IntN(12000); ; port = 20000 + rand.IntN(12000) {
		l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
		if err == nil {
			l.Close()
			return port
		}
		if !errors.Is(err, syscall.EADDRINUSE) {
			t.Fatal(err)
		}
	}
}

func build(t *testing.T, out, pkg string) {
	cmd := exec.Command("go", "build", "-o", out, pkg)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building %s: %v\n%s", pkg, err, msg)
	}
}

func startWorker(t *testing.T, bin, address, logFile string) *exec.Cmd {
	w := exec.Command(bin, "-address", address, "-log", logFile)
	w.Stderr = os.Stderr
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stop(w) })
	return w
}

// stop ends a process politely, and waits for it.
func stop(cmd *exec.Cmd) {
	if cmd.ProcessState == nil {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		_ = cmd.Wait()
	}
}

func kill(t *testing.T, cmd *exec.Cmd) {
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
}

// waitPending waits until the workflow's query lists the approval state.
func waitPending(ctx context.Context, t *testing.T, c client.Client, run client.WorkflowRun, state string) {
	for {
		v, err := c.QueryWorkflow(ctx, run.GetID(), run.GetRunID(), flowtemporal.QueryPending)
		var pending []flowcrt.Pending
		if err == nil && v.Get(&pending) == nil && len(pending) == 1 && pending[0].State == state {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the workflow never waited at %q: %v", state, errors.Join(err, ctx.Err()))
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// activities reads the log: each activity, and the pids that ran it,
// space-separated.
func activities(t *testing.T, logFile string) map[string]string {
	data, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	ran := map[string]string{}
	for line := range strings.Lines(string(data)) {
		pid, what, _ := strings.Cut(strings.TrimSpace(line), " ")
		ran[what] = strings.TrimSpace(ran[what] + " " + pid)
	}
	return ran
}

// names lists each activity once per run of it, sorted.
func names(ran map[string]string) []string {
	var out []string
	for what, pids := range ran {
		for range strings.Fields(pids) {
			out = append(out, what)
		}
	}
	slices.Sort(out)
	return out
}

// recordHistory writes the run's history as the CLI shows it, the form
// the replay test reads.
func recordHistory(t *testing.T, address, id, path string) {
	out, err := exec.Command("temporal", "workflow", "show", "--address", address, "--workflow-id", id, "--output", "json").Output()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
}
