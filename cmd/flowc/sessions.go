package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
)

// sessionsUsage is `flowc sessions`'s: package session/cli holds the
// command, which runs inside the checkpoint store's program (see
// buildSessionStore), so that flowc links no SQLite driver.
const sessionsUsage = `usage: flowc sessions --checkpoint-db FILE COMMAND
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
	case temporal != "":
		fmt.Fprintf(stderr, "flowc sessions: --temporal-address is not supported yet: use `temporal workflow list/show --address %s`\n", temporal)
		return exitUsage
	}
	dir, err := os.MkdirTemp("", "flowc-sessions-")
	if err != nil {
		fmt.Fprintf(stderr, "flowc sessions: %v\n", err)
		return exitUsage
	}
	defer os.RemoveAll(dir)
	bin, err := newBuilder(false, false, stderr).buildStore(dir)
	if err != nil {
		fmt.Fprintf(stderr, "flowc sessions: building the checkpoint store failed: %v\n", err)
		return exitUsage
	}
	cmd := exec.Command(bin, append([]string{"sessions", db}, rest...)...)
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
		return "", "", nil, errors.New("give the store: --checkpoint-db FILE")
	case len(rest) == 0:
		return "", "", nil, errors.New("give a command: list, show, history or stop")
	}
	return db, temporal, rest, nil
}
