package aslhttp

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/flowc-dev/flowc/builtin"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// The state machine's HTTP tasks run through builtin.HTTPInvoke, as in a
// `flowc build` binary, against a shop API on loopback: Retry and Catch
// see the status codes by their Step Functions names.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

type handlers struct{ client *http.Client }

func (h handlers) Invoke(ctx context.Context, in any) (any, error) {
	return builtin.HTTPInvoke(ctx, h.client, in)
}

// shop is the loopback API: /quotes fails with 503 `unavailable` times
// first, knows only the SKU A1, and /orders echoes the form it got.
type shop struct {
	mu          sync.Mutex
	unavailable int
	quotes      []string // the query of every /quotes call
	accept      []string // its Accept header
	orders      []string // the body of every /orders call
	orderType   string
}

func (s *shop) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	switch r.URL.Path {
	case "/quotes":
		s.quotes = append(s.quotes, r.URL.RawQuery)
		s.accept = append(s.accept, r.Header.Get("Accept"))
		switch {
		case s.unavailable > 0:
			s.unavailable--
			w.WriteHeader(http.StatusServiceUnavailable)
			io.WriteString(w, `{"message": "try later"}`)
		case r.URL.Query().Get("sku") != "A1":
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, `{"message": "no such sku"}`)
		default:
			io.WriteString(w, `{"price": 9.5, "currency": "EUR"}`)
		}
	case "/orders":
		body, _ := io.ReadAll(r.Body)
		s.orders = append(s.orders, string(body))
		s.orderType = r.Header.Get("Content-Type")
		w.WriteHeader(http.StatusCreated)
		json.NewEncoder(w).Encode(map[string]any{"id": "o-1", "form": string(body)})
	default:
		http.NotFound(w, r)
	}
}

func run(t *testing.T, api, sku string) (any, error) {
	t.Helper()
	clock := flowcrt.NewFakeClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	in := map[string]any{"api": api, "sku": sku, "qty": 2}
	return NewOrder(handlers{}, flowcrt.WithClock(clock)).Run(t.Context(), in)
}

func serve(t *testing.T, s *shop) string {
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestRetriedQuoteThenOrder(t *testing.T) {
	s := &shop{unavailable: 2}
	out, err := run(t, serve(t, s), "A1")
	require.NoError(t, err)
	form := "price=9.5&sku=A1&tags%5B%5D=new&tags%5B%5D=web"
	assert.Equal(t, map[string]any{"receipt": map[string]any{"id": "o-1", "form": form}, "status": "Created"}, out)
	assert.Equal(t, []string{"qty=2&sku=A1", "qty=2&sku=A1", "qty=2&sku=A1"}, s.quotes, "two 503s retried")
	assert.Equal(t, []string{"application/json", "application/json", "application/json"}, s.accept)
	assert.Equal(t, []string{form}, s.orders)
	assert.Equal(t, "application/x-www-form-urlencoded", s.orderType)
}

func TestUnavailableTooLong(t *testing.T) {
	s := &shop{unavailable: 5}
	_, err := run(t, serve(t, s), "A1")
	assert.Equal(t, "States.Http.StatusCode.503", flowcrt.ErrorName(err))
	assert.Len(t, s.quotes, 3, "MaxAttempts 2: one call and two retries")
	assert.Empty(t, s.orders)
}

func TestUnknownSKUCaught(t *testing.T) {
	s := &shop{}
	out, err := run(t, serve(t, s), "Z9")
	require.NoError(t, err)
	res := out.(map[string]any)
	assert.Equal(t, "Z9", res["unknown"])
	assert.Equal(t, "States.Http.StatusCode.404", res["error"])
	assert.Equal(t, "Not Found", res["cause"], "the cause is the status text, as in AWS")
	assert.Len(t, s.quotes, 1, "a 404 is not retried")
}

func TestNoServer(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	api := "http://" + l.Addr().String()
	require.NoError(t, l.Close())
	_, err = run(t, api, "A1")
	assert.Equal(t, builtin.ErrHTTPSocket, flowcrt.ErrorName(err))
}
