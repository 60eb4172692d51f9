package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"

	"github.com/flowc-dev/flowc/checkpoint/sqlite"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// sessionFlags are the flags of `flowc run` that run a session on a
// checkpoint file. The program flowc builds cannot link the SQLite driver
// (it is built offline, from the runtime alone), so flowc opens the file
// and serves it to the program over the checkpoint protocol.
type sessionFlags struct {
	db       string
	id       string
	decision string
}

func (f *sessionFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.db, "checkpoint-db", "", "run as a session, with its checkpoints in this SQLite `file`")
	fs.StringVar(&f.id, "session", "", "the session `id` (with --checkpoint-db)")
	fs.StringVar(&f.decision, "decision", "", "answer the approval the session waits for with this `option`")
}

func (f *sessionFlags) check(input string) error {
	switch {
	case (f.db == "") != (f.id == ""):
		return errors.New("--checkpoint-db and --session go together")
	case f.decision != "" && f.id == "":
		return errors.New("--decision answers the approval a session waits for: it needs --checkpoint-db and --session")
	case f.decision != "" && input != "":
		return errors.New("--decision continues the session as it is; give new --input in a run of its own")
	}
	return nil
}

// args are the runner's flags for the session.
func (f *sessionFlags) args() []string {
	if f.id == "" {
		return nil
	}
	args := []string{"-session", f.id, "-checkpoint-pipe"}
	if f.decision != "" {
		args = append(args, "-decision", f.decision)
	}
	return args
}

// open opens the checkpoint file, before the workflow is built, so that a
// wrong file fails fast; nil without a session.
func (f *sessionFlags) open() (*sqlite.Store, error) {
	if f.db == "" {
		return nil, nil
	}
	return sqlite.Open(f.db)
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
	go func() { served <- flowcrt.ServeCheckpoints(context.Background(), requests, answers, store) }()
	err = cmd.Wait()
	if serr := <-served; serr != nil {
		fmt.Fprintf(stderr, "flowc run: serving checkpoints: %v\n", serr)
	}
	return err
}
