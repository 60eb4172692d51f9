package main

import (
	"bytes"
	_ "embed"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/flowc-dev/flowc"
	flowcimpl "github.com/flowc-dev/flowc/runtime/impl"
)

// sessionFlags are the flags of `flowc run` that run a session: those of
// the programs `flowc build` writes (flowcimpl.SessionFlags), which
// flowc run hands on to the program it builds.
type sessionFlags struct{ flowcimpl.SessionFlags }

// args are the runner's flags for the session.
func (f *sessionFlags) args() []string {
	if f.ID == "" {
		return nil
	}
	args := []string{"-session", f.ID}
	if f.DB != "" {
		args = append(args, "-checkpoint-pipe")
	}
	if f.Decision != "" {
		args = append(args, "-decision", f.Decision)
	}
	if f.At != "" {
		args = append(args, "-at", f.At)
	}
	if f.Redrive {
		args = append(args, "-redrive")
	}
	return append(args, f.Task.Args()...)
}

// The program that serves a session's checkpoint file to the runner; see
// its package comment.
//
//go:embed sessionstore/main.go
var sessionStoreMain []byte

// sessionStore is the running program that serves the checkpoint file:
// the runner gets childFiles as its file descriptors 3 (its requests) and
// 4 (the answers).
type sessionStore struct {
	cmd        *exec.Cmd
	childFiles []*os.File
	// The store's messages wait in errOut until it exits: writing to
	// stderr beside the runner's copy of its own could lose the runner's
	// (a bytes.Buffer reading one pipe truncates what another wrote).
	errOut bytes.Buffer
	stderr io.Writer
}

// startSessionStore builds the store program in dir, or finds it in the
// cache, and starts it on the
// file. It returns once the file is open, or with the exit code when it
// cannot be: the store has said why on stderr.
func startSessionStore(b builder, dir, db string, stderr io.Writer) (*sessionStore, int) {
	bin, err := b.buildStore(dir)
	if err != nil {
		fmt.Fprintf(stderr, "flowc run: building the checkpoint store failed: %v\n", err)
		return nil, exitUsage
	}
	requests, childRequests, err := os.Pipe()
	if err != nil {
		fmt.Fprintf(stderr, "flowc run: %v\n", err)
		return nil, exitUsage
	}
	childAnswers, answers, err := os.Pipe()
	if err != nil {
		requests.Close()
		childRequests.Close()
		fmt.Fprintf(stderr, "flowc run: %v\n", err)
		return nil, exitUsage
	}
	// The store holds its own copies of its ends, so closing ours lets
	// each side see the other's end.
	defer requests.Close()
	defer answers.Close()
	cmd := exec.Command(bin, db)
	s := &sessionStore{cmd: cmd, childFiles: []*os.File{childRequests, childAnswers}, stderr: stderr}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = requests, answers, &s.errOut
	if err := cmd.Start(); err != nil {
		s.closeChildFiles()
		fmt.Fprintf(stderr, "flowc run: %v\n", err)
		return nil, exitUsage
	}
	answers.Close() // before the read below, which must see the end if the store exits
	if err := awaitReady(childAnswers); err != nil {
		if !s.stop() {
			fmt.Fprintf(stderr, "flowc run: the checkpoint store stopped before it was ready: %v\n", err)
		}
		return nil, exitUsage
	}
	return s, exitOK
}

// awaitReady reads the store's ready line and nothing after it: the rest
// of the stream is the runner's.
func awaitReady(answers io.Reader) error {
	line := make([]byte, len("ready\n"))
	if _, err := io.ReadFull(answers, line); err != nil {
		return err
	}
	if string(line) != "ready\n" {
		return fmt.Errorf("checkpoint store: unexpected %q", line)
	}
	return nil
}

func (s *sessionStore) closeChildFiles() {
	for _, f := range s.childFiles {
		f.Close()
	}
}

// stop closes the runner's ends, which ends the store's requests, waits
// for the store and passes its messages on; it reports whether there
// were any.
func (s *sessionStore) stop() (said bool) {
	s.closeChildFiles()
	s.cmd.Wait() // a store that failed has said why
	s.stderr.Write(s.errOut.Bytes())
	return s.errOut.Len() > 0
}

// buildStore builds the checkpoint store's program in dir, or takes it
// from the cache: flowc run, flowc sessions and flowc console all run it.
func (b builder) buildStore(dir string) (string, error) {
	m, err := storeModule()
	if err != nil {
		return "", err
	}
	return b.build(m, filepath.Join(dir, "sessionstore-src"), filepath.Join(dir, "sessionstore"))
}

// storeModule is the store program's module, built as `flowc build`
// builds its programs: with flowc's source and the module versions flowc
// pins, from the module cache or GOPROXY.
func storeModule() (goModule, error) {
	files := map[string][]byte{
		"main.go":                        sessionStoreMain,
		"go.mod":                         []byte(flowc.BuildGoMod("flowcsessionstore", "./flowc")),
		"go.sum":                         flowc.GoSum(),
		filepath.Join("flowc", "go.mod"): []byte(flowc.GoMod()),
	}
	err := addSource(files, "flowc", flowc.RuntimeSource())
	if err == nil {
		err = addSource(files, "flowc", flowc.BuildSource())
	}
	return goModule{files, []string{"GOWORK=off", "GOFLAGS=" + strings.TrimSpace(os.Getenv("GOFLAGS")+" -mod=readonly")}}, err
}
