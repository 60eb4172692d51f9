package flowconsole

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"time"

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
	var graphs map[string]console.Graph
	data, err := os.ReadFile(graphsFile)
	if err == nil {
		err = json.Unmarshal(data, &graphs)
	}
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
	return serve(ln, h, stderr)
}

// serve serves h on ln until interrupted.
func serve(ln net.Listener, h http.Handler, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
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
		return 1
	}
	return 0
}
