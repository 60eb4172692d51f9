package flowconsole

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/log"

	"github.com/flowc-dev/flowc/console"
)

// Main serves `flowc console --temporal-address`: the console over the
// server at address, answering, at addr, with the graphs of graphsFile
// (JSON, by workflow name, as flowc draws them) and the token of the
// environment (console.TokenEnv), until interrupted. It returns the exit
// code.
func Main(address, addr, graphsFile string, stdout, stderr io.Writer) int {
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
	c, err := client.Dial(client.Options{HostPort: address, Logger: log.NewStructuredLogger(slog.New(slog.DiscardHandler))})
	if err != nil {
		ln.Close()
		fmt.Fprintf(stderr, "flowc console: connecting to Temporal at %s: %v\n", address, err)
		return 2
	}
	defer c.Close()
	s := New(c)
	h := console.New(s, console.WithActor(s), console.WithToken(token), console.WithGraphs(graphs))
	fmt.Fprintf(stdout, "flowc console of Temporal at %s: %s\n", address, console.URL(ln.Addr()))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := console.Serve(ctx, ln, h); err != nil {
		fmt.Fprintf(stderr, "flowc console: %v\n", err)
		return 1
	}
	return 0
}
