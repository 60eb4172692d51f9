package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"

	"github.com/flowc-dev/flowc/codegen/graph"
	"github.com/flowc-dev/flowc/compiler"
	"github.com/flowc-dev/flowc/console"
)

// consoleContext is how long `flowc console` serves: until interrupted.
// Tests end it themselves.
var consoleContext = func() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt)
}

// cmdConsole serves the console, read-only, over the sessions of a
// checkpoint file; the definitions given draw their workflows' graphs.
// flowc compiles them and draws the graphs; the checkpoint store's
// program (cmd/flowc/sessionstore) serves the pages, so that flowc links
// no SQLite driver.
func cmdConsole(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("console", stderr)
	db := fs.String("checkpoint-db", "", "the SQLite `file` of the sessions")
	addr := fs.String("addr", console.DefaultAddr, "listen on this `address`; any but loopback needs a token")
	token := fs.String("console-token", os.Getenv(console.TokenEnv), "the `token` every request needs (default $"+console.TokenEnv+")")
	defs, err := parseInterleaved(fs, args)
	if err != nil {
		return exitUsage
	}
	if *db == "" {
		fmt.Fprintln(stderr, "flowc console: give the sessions' --checkpoint-db FILE")
		return exitUsage
	}
	if err := console.CheckAddr(*addr, *token); err != nil {
		fmt.Fprintf(stderr, "flowc console: %v\n", err)
		return exitUsage
	}
	if _, err := os.Stat(*db); err != nil {
		fmt.Fprintf(stderr, "flowc console: %v\n", err) // a typo must not make an empty store
		return exitUsage
	}
	graphs, code := consoleGraphs(defs, stderr)
	if code != exitOK {
		return code
	}
	dir, err := os.MkdirTemp("", "flowc-console-")
	if err != nil {
		fmt.Fprintf(stderr, "flowc console: %v\n", err)
		return exitUsage
	}
	defer os.RemoveAll(dir)
	return serveConsole(dir, *db, *addr, *token, graphs, stdout, stderr)
}

// serveConsole runs the console in the checkpoint store's program, built
// in dir, until interrupted; the graphs go to it in a file, the token in
// its environment, out of sight of ps.
func serveConsole(dir, db, addr, token string, graphs map[string]console.Graph, stdout, stderr io.Writer) int {
	graphsFile := filepath.Join(dir, "graphs.json")
	data, err := json.Marshal(graphs)
	if err == nil {
		err = os.WriteFile(graphsFile, data, 0o600)
	}
	var bin string
	if err == nil {
		bin, err = newBuilder(false, false, stderr).buildStore(dir)
	}
	if err != nil {
		fmt.Fprintf(stderr, "flowc console: %v\n", err)
		return exitUsage
	}
	ctx, stop := consoleContext()
	defer stop()
	cmd := exec.CommandContext(ctx, bin, "console", db, addr, graphsFile)
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
// its sessions carry.
func consoleGraphs(defs []string, stderr io.Writer) (map[string]console.Graph, int) {
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
		graphs[p.Workflow.ID] = console.Graph(graph.Draw(p.Graph())) // the name its checkpoints carry
	}
	return graphs, exitOK
}
