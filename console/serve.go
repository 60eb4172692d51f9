package console

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"os"
	"time"
)

// Serve serves h on ln until ctx is done, then lets the requests in
// flight finish (up to 5 s) before it returns, so that its caller may
// close what they use. It returns nil once it has shut down.
func Serve(ctx context.Context, ln net.Listener, h http.Handler) error {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	drained := make(chan struct{})
	stopped := context.AfterFunc(ctx, func() {
		defer close(drained)
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shut)
	})
	err := srv.Serve(ln)
	if !errors.Is(err, http.ErrServerClosed) {
		stopped()
		return err
	}
	<-drained // Serve returns as Shutdown begins, not when it ends
	return nil
}

// ReadGraphs reads the graphs `flowc console` drew for a program that
// serves the console: a JSON object of Graphs by workflow name.
func ReadGraphs(file string) (map[string]Graph, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var graphs map[string]Graph
	if err := json.Unmarshal(data, &graphs); err != nil {
		return nil, err
	}
	return graphs, nil
}
