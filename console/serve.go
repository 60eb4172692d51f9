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
// flight finish (up to 5 s). It returns nil once it has shut down.
func Serve(ctx context.Context, ln net.Listener, h http.Handler) error {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	stopped := context.AfterFunc(ctx, func() {
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shut)
	})
	defer stopped()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
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
	return graphs, json.Unmarshal(data, &graphs)
}
