package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"time"

	"github.com/flowc-dev/flowc/codegen/graph"
	"github.com/flowc-dev/flowc/compiler"
	"github.com/flowc-dev/flowc/console"
)

// consoleContext is how long `flowc console` serves: until interrupted.
// Tests end it themselves.
var consoleContext = func() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt)
}

// cmdConsole serves the console: read-only over the sessions of a
// checkpoint file, or answering over those of a Temporal server; the
// definitions given draw their workflows' graphs. flowc compiles them and
// draws the graphs; a program serves the pages: the checkpoint store's
// (cmd/flowc/sessionstore), or the Temporal module's cmd/sessions, so
// that flowc links neither a SQLite driver nor the Temporal SDK.
func cmdConsole(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("console", stderr)
	db := fs.String("checkpoint-db", "", "the SQLite `file` of the sessions")
	temporal := fs.String("temporal-address", "", "serve the sessions of the Temporal server at `host:port`, and answer them")
	addr := fs.String("addr", console.DefaultAddr, "listen on this `address`; any but loopback needs a token")
	token := fs.String("console-token", os.Getenv(console.TokenEnv), "the `token` every request needs (default $"+console.TokenEnv+")")
	defs, err := parseInterleaved(fs, args)
	if err != nil {
		return exitUsage
	}
	if (*db == "") == (*temporal == "") {
		fmt.Fprintln(stderr, "flowc console: give the sessions' store: --checkpoint-db FILE or --temporal-address HOST:PORT")
		return exitUsage
	}
	if err := console.CheckAddr(*addr, *token); err != nil {
		fmt.Fprintf(stderr, "flowc console: %v\n", err)
		return exitUsage
	}
	if err := consoleStore(*db, *temporal); err != nil {
		fmt.Fprintf(stderr, "flowc console: %v\n", err)
		return exitUsage
	}
	graphs, code := consoleGraphs(defs, *temporal != "", stderr)
	if code != exitOK {
		return code
	}
	dir, err := os.MkdirTemp("", "flowc-console-")
	if err != nil {
		fmt.Fprintf(stderr, "flowc console: %v\n", err)
		return exitUsage
	}
	defer os.RemoveAll(dir)
	return serveConsole(dir, *db, *temporal, *addr, *token, graphs, stdout, stderr)
}

// consoleStore checks that the store is there before anything is built:
// a typo must not make an empty store, nor a server that is not up a
// build that then fails.
func consoleStore(db, temporal string) error {
	if db != "" {
		_, err := os.Stat(db)
		return err
	}
	conn, err := net.DialTimeout("tcp", temporal, 5*time.Second)
	if err != nil {
		return fmt.Errorf("no Temporal server answers at %s: %w", temporal, err)
	}
	return conn.Close()
}

// serveConsole runs the console in the store's program, built in dir,
// until interrupted; the graphs go to it in a file, the token in its
// environment, out of sight of ps.
func serveConsole(dir, db, temporal, addr, token string, graphs map[string]console.Graph, stdout, stderr io.Writer) int {
	graphsFile := filepath.Join(dir, "graphs.json")
	data, err := json.Marshal(graphs)
	if err == nil {
		err = os.WriteFile(graphsFile, data, 0o600)
	}
	var bin string
	var args []string
	if err == nil && temporal != "" {
		bin, err = buildTemporalSessions(dir)
		args = []string{temporal, "console", addr, graphsFile}
	} else if err == nil {
		bin, err = newBuilder(false, false, stderr).buildStore(dir)
		args = []string{"console", db, addr, graphsFile}
	}
	if err != nil {
		fmt.Fprintf(stderr, "flowc console: %v\n", err)
		return exitUsage
	}
	ctx, stop := consoleContext()
	defer stop()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.Env = append(os.Environ(), console.TokenEnv+"="+token)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	err = cmd.Run()
	if ctx.Err() != nil {
		return exitOK // interrupted: the way it ends
	}
	if exit, ok := errors.AsType[*exec.ExitError](err); ok {
		return exit.ExitCode()
	}
	if err != nil {
		fmt.Fprintf(stderr, "flowc console: %v\n", err)
		return exitUsage
	}
	return exitOK
}

// consoleGraphs compiles each definition and draws its graph, by the name
// its sessions carry: its id in a checkpoint, its Go name (the workflow
// type) on Temporal.
func consoleGraphs(defs []string, temporal bool, stderr io.Writer) (map[string]console.Graph, int) {
	graphs := map[string]console.Graph{}
	for _, def := range defs {
		src, err := os.ReadFile(def)
		if err != nil {
			fmt.Fprintf(stderr, "flowc console: %v\n", err)
			return nil, exitUsage
		}
		p, ds := compiler.Compile(def, src, compiler.Options{})
		printDiags(stderr, ds)
		if p == nil {
			return nil, exitFailed
		}
		name := p.Workflow.ID
		if temporal {
			name = p.Workflow.Name
		}
		graphs[name] = console.Graph(graph.Draw(p.Graph()))
	}
	return graphs, exitOK
}
