package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"

	"github.com/flowc-dev/flowc/binmain"
	flowcrt "github.com/flowc-dev/flowc/runtime"
	flowcimpl "github.com/flowc-dev/flowc/runtime/impl"
)

// sessionFlags are the flags of `flowc run` that run a session on a
// checkpoint file, shared with the programs `flowc build` writes. The
// program `flowc run` builds does not link the SQLite driver (it is built
// offline, from the runtime alone), so flowc opens the file and serves it
// to the program over the checkpoint protocol.
type sessionFlags struct{ binmain.SessionFlags }

// args are the runner's flags for the session.
func (f *sessionFlags) args() []string {
	if f.ID == "" {
		return nil
	}
	args := []string{"-session", f.ID, "-checkpoint-pipe"}
	if f.Decision != "" {
		args = append(args, "-decision", f.Decision)
	}
	return args
}

// runServing runs cmd with the checkpoint protocol on its file descriptors
// 3 (its requests) and 4 (the answers), answered from store until cmd
// exits. It returns cmd's error.
func runServing(cmd *exec.Cmd, store flowcrt.Checkpointer, stderr io.Writer) error {
	requests, childRequests, err := os.Pipe()
	if err != nil {
		return err
	}
	childAnswers, answers, err := os.Pipe()
	if err != nil {
		requests.Close()
		childRequests.Close()
		return err
	}
	defer requests.Close()
	defer answers.Close()
	cmd.ExtraFiles = []*os.File{childRequests, childAnswers}
	err = cmd.Start()
	// The child has its own copies: closing these lets the server see the
	// end of the requests when the child exits.
	childRequests.Close()
	childAnswers.Close()
	if err != nil {
		return err
	}
	served := make(chan error, 1)
	go func() { served <- flowcimpl.ServeCheckpoints(context.Background(), requests, answers, store) }()
	err = cmd.Wait()
	if serr := <-served; serr != nil {
		fmt.Fprintf(stderr, "flowc run: serving checkpoints: %v\n", serr)
	}
	return err
}
