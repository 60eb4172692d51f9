package flowtemporal

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// Register registers a workflow and its activities with a worker.
type Register func(r worker.Registry)

// RunWorkflow runs the workflow registered as name on input in and
// decodes its result into out. With address "" it runs in Temporal's test
// environment, where timers fire at once, however far ahead; otherwise it
// runs on the server at address, with a worker of its own on a task queue
// of its own, and waits and retry intervals are timers of the server,
// unless $FLOWC_SKIP_WAITS (which `flowc run --engine temporal
// --skip-waits` sets) says that they take no time.
// Errors come back as the workflow's steps returned them (name, cause);
// an approval left to a person in the test environment ends the run with
// an *flowcrt.Interrupted, and a task token handed out with a
// *flowcrt.TaskTokenWait, as a native run without a session does.
func RunWorkflow(ctx context.Context, address string, register Register, name string, in, out any, stderr io.Writer) error {
	if address == "" {
		return runTest(register, name, in, out)
	}
	opts := client.StartWorkflowOptions{}
	if skipWaitsRequested() {
		opts.Memo = skipWaitsMemo
	}
	return runServer(ctx, address, register, name, opts, in, out, stderr)
}

// envSkipWaits is the environment variable that makes the runs of
// RunWorkflow on a server skip their waits.
const envSkipWaits = "FLOWC_SKIP_WAITS"

func skipWaitsRequested() bool { return os.Getenv(envSkipWaits) != "" }

func quietLogger() log.Logger { return log.NewStructuredLogger(slog.New(slog.DiscardHandler)) }

func runTest(register Register, name string, in, out any) error {
	var suite testsuite.WorkflowTestSuite
	suite.SetLogger(quietLogger())
	env := suite.NewTestWorkflowEnvironment()
	// The mock clock jumps to each timer; no run timeout (the test
	// environment's is ten years) cuts a Wait until a far timestamp short,
	// as none does on a server by default.
	env.SetWorkflowRunTimeout(0)
	register(env)
	var waits error
	// An approval left to a person, or a task token handed out: the
	// workflow would wait for a signal no one sends. Once it waits, report
	// what it waits for and stop it.
	//
	// One look is scheduled at a time, for every activity that ended since
	// the last: the test environment's queue of callbacks holds 1,000, and a
	// look per activity deadlocks it once more end at once (a large Map).
	var looking, noDecision, ended bool
	var look func(tries int)
	look = func(tries int) {
		if noDecision {
			wait, unsettled := pendingOf(env, tries >= settleTries)
			if unsettled {
				env.RegisterDelayedCallback(func() { look(tries + 1) }, time.Nanosecond)
				return
			}
			if wait != nil {
				waits = wait
			}
		}
		if wait := tokenWaitOf(env); waits == nil && ended && wait != nil {
			waits = wait
		}
		looking, noDecision, ended = false, false, false
		if waits != nil {
			env.CancelWorkflow()
		}
	}
	env.SetOnActivityCompletedListener(func(_ *activity.Info, _ converter.EncodedValue, err error) {
		waitsForDecision := errors.Is(decode(err), flowcrt.ErrNoDecision)
		if err != nil && !waitsForDecision {
			return
		}
		noDecision = noDecision || waitsForDecision
		ended = ended || !waitsForDecision
		if !looking {
			looking = true
			env.RegisterDelayedCallback(func() { look(0) }, time.Nanosecond)
		}
	})
	env.ExecuteWorkflow(name, in)
	if waits != nil {
		return waits
	}
	if err := env.GetWorkflowError(); err != nil {
		return decode(err)
	}
	return env.GetWorkflowResult(out)
}

// settleTries bounds how often, a nanosecond of the test clock apart, a
// run with an approval waiting is asked again whether its other branches
// have settled: one blocked on something else (a typed join, a task
// token) never does, and the run then stops with the approvals that wait.
const settleTries = 100

// pendingOf returns the approvals the workflow waits for, as the
// *flowcrt.Interrupted a native run without a session stops with: the
// first, by its key; nil when none waits.
// Unless force, unsettled says to look again: none waits yet, or some
// wait while other branches still run, which may come to wait too.
func pendingOf(env *testsuite.TestWorkflowEnvironment, force bool) (wait *flowcrt.Interrupted, unsettled bool) {
	v, err := env.QueryWorkflow(QueryPending)
	var pending []flowcrt.Pending
	if err != nil || v.Get(&pending) != nil || len(pending) == 0 {
		return nil, !force // the workflow may not have taken the activity's end yet
	}
	var settled bool
	if v, err := env.QueryWorkflow(querySettled); !force && (err != nil || v.Get(&settled) != nil || !settled) {
		return nil, true
	}
	p := pending[0]
	wait = &flowcrt.Interrupted{State: p.State, Prompt: p.Prompt, Options: p.Options, Key: p.Key}
	return wait, false
}

// tokenWaitOf returns the first task token the workflow waits for, as
// the *flowcrt.TaskTokenWait a native run stops with, or nil.
func tokenWaitOf(env *testsuite.TestWorkflowEnvironment) error {
	v, err := env.QueryWorkflow(QueryTaskTokens)
	var pending []PendingTaskToken
	if err != nil || v.Get(&pending) != nil || len(pending) == 0 {
		return nil
	}
	return &flowcrt.TaskTokenWait{State: pending[0].State, Token: pending[0].Token}
}

func runServer(ctx context.Context, address string, register Register, name string, opts client.StartWorkflowOptions, in, out any, stderr io.Writer) error {
	c, err := client.Dial(client.Options{HostPort: address, Logger: quietLogger()})
	if err != nil {
		return fmt.Errorf("connecting to Temporal at %s: %w", address, err)
	}
	defer c.Close()
	id := name + "-" + randomID()
	w := worker.New(c, id, worker.Options{})
	register(w)
	if err := w.Start(); err != nil {
		return err
	}
	defer w.Stop()
	opts.ID, opts.TaskQueue = id, id
	run, err := c.ExecuteWorkflow(ctx, opts, name, in)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "flowc: workflow %s started on %s; signal %q to answer its approvals, %q its task tokens\n", id, address, SignalDecision, SignalTaskToken)
	if err := run.Get(ctx, out); err != nil {
		return decode(err)
	}
	return nil
}

func randomID() string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return hex.EncodeToString(b[:])
}
