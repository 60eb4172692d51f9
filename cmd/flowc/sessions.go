package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// sessionsUsage is `flowc sessions`'s: package session/cli holds the
// command, which runs inside the checkpoint store's program (see
// buildStore), or on Temporal inside a program of the Temporal module (see
// buildTemporalSessions), so that flowc links neither SQLite nor the
// Temporal SDK.
const sessionsUsage = `usage: flowc sessions (--checkpoint-db FILE | --temporal-address HOST:PORT) COMMAND
  list [--status S] [--workflow W] [--limit N] [--json]
  show ID [--json]
  history ID [--json]
  stop ID [--error E] [--cause C]
`

func cmdSessions(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	db, temporal, rest, err := sessionsStore(args)
	switch {
	case err != nil:
		fmt.Fprintf(stderr, "flowc sessions: %v\n%s", err, sessionsUsage)
		return exitUsage
	case db != "" && temporal != "":
		fmt.Fprintf(stderr, "flowc sessions: give one store: --checkpoint-db or --temporal-address\n%s", sessionsUsage)
		return exitUsage
	}
	dir, err := os.MkdirTemp("", "flowc-sessions-")
	if err != nil {
		fmt.Fprintf(stderr, "flowc sessions: %v\n", err)
		return exitUsage
	}
	defer os.RemoveAll(dir)
	bin, cmdArgs, err := sessionsProgram(dir, db, temporal, rest, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "flowc sessions: %v\n", err)
		return exitUsage
	}
	cmd := exec.Command(bin, cmdArgs...)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	err = cmd.Run()
	if exit, ok := errors.AsType[*exec.ExitError](err); ok {
		return exit.ExitCode()
	}
	if err != nil {
		fmt.Fprintf(stderr, "flowc sessions: %v\n", err)
		return exitUsage
	}
	return exitOK
}

// sessionsStore takes the store's flag (--checkpoint-db FILE or
// --temporal-address HOST:PORT, as --flag=value too) from args, wherever it
// is, and returns the other arguments.
func sessionsStore(args []string) (db, temporal string, rest []string, err error) {
	for i := 0; i < len(args); i++ {
		name, value, inline := strings.Cut(strings.TrimLeft(args[i], "-"), "=")
		if !strings.HasPrefix(args[i], "-") || (name != "checkpoint-db" && name != "temporal-address") {
			rest = append(rest, args[i])
			continue
		}
		if !inline {
			if i+1 == len(args) {
				return "", "", nil, fmt.Errorf("flag --%s needs a value", name)
			}
			i++
			value = args[i]
		}
		if name == "checkpoint-db" {
			db = value
		} else {
			temporal = value
		}
	}
	switch {
	case db == "" && temporal == "":
		return "", "", nil, errors.New("give the store: --checkpoint-db FILE or --temporal-address HOST:PORT")
	case len(rest) == 0:
		return "", "", nil, errors.New("give a command: list, show, history or stop")
	}
	return db, temporal, rest, nil
}

// sessionsProgram builds the program that runs the command on the store,
// in dir, and returns it with its arguments.
func sessionsProgram(dir, db, temporal string, rest []string, stderr io.Writer) (string, []string, error) {
	if temporal != "" {
		bin, err := buildTemporalSessions(dir)
		return bin, append([]string{temporal}, rest...), err
	}
	bin, err := newBuilder(false, false, stderr).buildStore(dir)
	if err != nil {
		return "", nil, fmt.Errorf("building the checkpoint store failed: %w", err)
	}
	return bin, append([]string{"sessions", db}, rest...), nil
}

// buildTemporalSessions builds the program of `flowc sessions
// --temporal-address` from the Temporal module's source (its cmd/sessions)
// in dir. The go command's cache keeps what it compiled: a build after the
// first only links.
func buildTemporalSessions(dir string) (string, error) {
	support, err := temporalModule()
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "sessions")
	build := exec.Command("go", "build", "-o", bin, "./cmd/sessions")
	build.Dir = support
	build.Env = append(os.Environ(), "GOWORK=off", "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building the Temporal sessions program failed: %v\n%s", err, out)
	}
	return bin, nil
}
