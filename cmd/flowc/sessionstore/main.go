// Command sessionstore serves a flowc checkpoint file over the checkpoint
// protocol: requests on standard input, answers on standard output. It is
// not for users: `flowc run --checkpoint-db` builds it from the source
// flowc carries, so that the SQLite driver links only into the runs that
// use it and not into flowc itself.
//
//	sessionstore FILE
//	sessionstore sessions FILE COMMAND ARGS...
//
// Once the file is open it writes the line "ready" before any answer; a
// file that cannot be opened is reported on standard error, exit code 2.
// With "sessions" it runs `flowc sessions COMMAND ARGS...` on the file
// instead (package session/cli).
package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"

	"github.com/flowc-dev/flowc/checkpoint/sqlite"
	"github.com/flowc-dev/flowc/console"
	"github.com/flowc-dev/flowc/flowrun"
	"github.com/flowc-dev/flowc/session/cli"
)

// ready is the line that says the file is open; flowc reads it before it
// builds the workflow, so that a bad file fails first.
const ready = "ready\n"

func main() {
	os.Exit(serve(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func serve(args []string, requests io.Reader, answers, stderr io.Writer) int {
	if len(args) >= 2 && args[0] == "sessions" {
		return sessions(args[1], args[2:], answers, stderr)
	}
	if len(args) == 4 && args[0] == "console" {
		return serveConsole(args[1], args[2], args[3], answers, stderr)
	}
	if len(args) != 1 {
		fmt.Fprintln(stderr, "usage: sessionstore FILE")
		return 2
	}
	store, err := sqlite.Open(args[0])
	if err != nil {
		fmt.Fprintf(stderr, "flowc run: %v\n", err)
		return 2
	}
	defer store.Close()
	if _, err := io.WriteString(answers, ready); err != nil {
		fmt.Fprintf(stderr, "flowc run: %v\n", err)
		return 1
	}
	if err := flowrun.ServeCheckpoints(context.Background(), requests, answers, store); err != nil {
		fmt.Fprintf(stderr, "flowc run: serving checkpoints: %v\n", err)
		return 1
	}
	return 0
}

// sessions runs `flowc sessions` on the file.
func sessions(file string, args []string, stdout, stderr io.Writer) int {
	if _, err := os.Stat(file); err != nil {
		fmt.Fprintf(stderr, "flowc sessions: %v\n", err) // not created: a typo must not make an empty store
		return 2
	}
	store, err := sqlite.Open(file)
	if err != nil {
		fmt.Fprintf(stderr, "flowc sessions: %v\n", err)
		return 2
	}
	defer store.Close()
	return cli.Main(context.Background(), store, args, stdout, stderr)
}

// serveConsole serves `flowc console`: read-only, over the file, at addr,
// with the graphs flowc drew (a JSON file) and the token of the
// environment, until interrupted.
func serveConsole(file, addr, graphsFile string, stdout, stderr io.Writer) int {
	store, err := sqlite.Open(file)
	if err != nil {
		fmt.Fprintf(stderr, "flowc console: %v\n", err)
		return 2
	}
	defer store.Close()
	graphs, err := console.ReadGraphs(graphsFile)
	token := os.Getenv(console.TokenEnv)
	var ln net.Listener
	if err == nil {
		ln, err = console.Listen(addr, token)
	}
	if err != nil {
		fmt.Fprintf(stderr, "flowc console: %v\n", err)
		return 2
	}
	fmt.Fprintf(stdout, "flowc console (read-only) at %s\n", console.URL(ln.Addr()))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := console.Serve(ctx, ln, console.New(console.FromStore(store), console.WithToken(token), console.WithGraphs(graphs))); err != nil {
		fmt.Fprintf(stderr, "flowc console: %v\n", err)
		return 1
	}
	return 0
}
