package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"time"

	"github.com/flowc-dev/flowc/checkpoint/sqlite"
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
	graphs, code := consoleGraphs(defs, stderr)
	if code != exitOK {
		return code
	}
	store, err := sqlite.Open(*db)
	if err != nil {
		fmt.Fprintf(stderr, "flowc console: %v\n", err)
		return exitUsage
	}
	defer store.Close()
	ln, err := console.Listen(*addr, *token)
	if err != nil {
		fmt.Fprintf(stderr, "flowc console: %v\n", err)
		return exitUsage
	}
	h := console.New(console.FromStore(store), console.WithToken(*token), console.WithGraphs(graphs))
	fmt.Fprintf(stdout, "flowc console (read-only) at %s\n", console.URL(ln.Addr()))
	ctx, stop := consoleContext()
	defer stop()
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shut)
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(stderr, "flowc console: %v\n", err)
		return exitFailed
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
