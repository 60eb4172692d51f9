package binmain

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"

	"github.com/flowc-dev/flowc/builtin"
	"github.com/flowc-dev/flowc/checkpoint/sqlite"
	"github.com/flowc-dev/flowc/console"
	flowcrt "github.com/flowc-dev/flowc/runtime"
	flowcimpl "github.com/flowc-dev/flowc/runtime/impl"
	flowcasl "github.com/flowc-dev/flowc/runtime/impl/asl"
)

// consoleContext is how long --console serves: until interrupted. Tests
// end it themselves.
var consoleContext = func() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt)
}

// serveConsole serves the web console over the sessions of the SQLite
// file db at addr, and runs in this process what it answers: each answer
// is recorded in the file, then the session goes on, so that no answer
// builds or starts anything. graphs are the workflows' graphs by name.
func serveConsole(prog, db, addr, token string, graphs map[string]console.Graph, session sessionFunc, stdout, stderr io.Writer) int {
	fail := func(code int, err error) int {
		fmt.Fprintf(stderr, "%s: %v\n", prog, err)
		return code
	}
	if session == nil {
		return fail(2, errors.New("this kind of workflow has no sessions"))
	}
	if db == "" {
		return fail(2, errors.New("--console serves the sessions of a --checkpoint-db file"))
	}
	llm, err := builtin.FromEnv()
	if err != nil {
		return fail(2, err)
	}
	env := &Env{LLM: llm, HTTP: &http.Client{}}
	store, err := sqlite.Open(db)
	if err != nil {
		return fail(2, err)
	}
	defer store.Close()
	ln, err := console.Listen(addr, token)
	if err != nil {
		return fail(2, err)
	}
	ctx, stop := consoleContext()
	defer stop()
	runner := &console.Runner{Store: store, Ctx: ctx, Resume: func(ctx context.Context, id string) error {
		// A token is answered through the console and the file, never by a
		// wait in this process.
		ctx = flowcasl.StopAtTaskTokens(flowcimpl.WithDoor(ctx, "console"))
		_, err := session(ctx, id, nil, "", env, flowcrt.WithCheckpointer(store))
		return err
	}}
	h := console.New(console.FromStore(store), console.WithActor(runner), console.WithToken(token), console.WithGraphs(graphs))
	fmt.Fprintf(stdout, "flowc console at %s\n", console.URL(ln.Addr()))
	err = console.Serve(ctx, ln, h)
	runner.Wait()
	if err != nil {
		return fail(1, err)
	}
	return 0
}
