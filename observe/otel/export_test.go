package flowcotel_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/flowc-dev/flowc/golden/observed"
	flowcotel "github.com/flowc-dev/flowc/observe/otel"
	flowcrt "github.com/flowc-dev/flowc/runtime"
	flowcimpl "github.com/flowc-dev/flowc/runtime/impl"
)

// receiver is an OTLP/HTTP trace receiver on loopback: it decodes the
// protobuf requests and keeps the names of the spans and the services.
type receiver struct {
	mu       sync.Mutex
	spans    []string
	services []string
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	var req coltracepb.ExportTraceServiceRequest
	if err == nil && r.URL.Path == "/v1/traces" && r.Header.Get("Content-Type") == "application/x-protobuf" {
		err = proto.Unmarshal(body, &req)
	} else if err == nil {
		err = io.ErrUnexpectedEOF
	}
	if err != nil {
		http.Error(w, "not an OTLP trace export", http.StatusBadRequest)
		return
	}
	rc.mu.Lock()
	for _, rs := range req.ResourceSpans {
		for _, a := range rs.GetResource().GetAttributes() {
			if a.Key == "service.name" {
				rc.services = append(rc.services, a.GetValue().GetStringValue())
			}
		}
		for _, ss := range rs.ScopeSpans {
			for _, s := range ss.Spans {
				rc.spans = append(rc.spans, s.Name)
			}
		}
	}
	rc.mu.Unlock()
	out, _ := proto.Marshal(&coltracepb.ExportTraceServiceResponse{})
	w.Header().Set("Content-Type", "application/x-protobuf")
	_, _ = w.Write(out)
}

func (rc *receiver) seen() (spans, services []string) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]string(nil), rc.spans...), append([]string(nil), rc.services...)
}

// otlpEnv starts a receiver and points the OTLP variables at it.
func otlpEnv(t *testing.T) *receiver {
	rc := &receiver{}
	srv := httptest.NewServer(rc)
	t.Cleanup(srv.Close)
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", srv.URL)
	t.Setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "")
	t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "")
	t.Setenv("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "")
	t.Setenv("OTEL_SDK_DISABLED", "")
	t.Setenv("OTEL_TRACES_EXPORTER", "")
	t.Setenv("OTEL_SERVICE_NAME", "orders")
	return rc
}

// With OTEL_EXPORTER_OTLP_ENDPOINT set, the spans of a run reach the
// receiver over OTLP/HTTP once shutdown flushes them, under the service
// OTEL_SERVICE_NAME names.
func TestExportFromEnv(t *testing.T) {
	rc := otlpEnv(t)
	t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf")
	obs, shutdown, err := flowcotel.FromEnv(context.Background())
	require.NoError(t, err)
	require.NotNil(t, obs)
	require.NoError(t, observed.Retry(1, flowcrt.WithObserver(obs)))
	require.NoError(t, shutdown(context.Background()))
	spans, services := rc.seen()
	assert.ElementsMatch(t, []string{"run Retry", "state call", "attempt call", "attempt call"}, spans)
	assert.Equal(t, []string{"orders"}, services)
}

// ForBinary on a stderr that is no terminal exports traces but draws no
// progress: nothing is written to stderr.
func TestForBinaryExports(t *testing.T) {
	rc := otlpEnv(t)
	stderr, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	require.NoError(t, err)
	defer stderr.Close()
	opt, done, err := flowcotel.ForBinary(context.Background(), stderr, false)
	require.NoError(t, err)
	require.NoError(t, observed.Map(opt, "a", "b"))
	done()
	spans, _ := rc.seen()
	assert.Len(t, spans, 1+2+2*2, "the run, load, report, and two items each with its state")
	assert.Contains(t, spans, "item load")
	info, err := stderr.Stat()
	require.NoError(t, err)
	assert.Zero(t, info.Size())
}

// Without an endpoint, or when the SDK is disabled, nothing is traced.
func TestNoEndpointNoTracing(t *testing.T) {
	otlpEnv(t)
	for _, env := range [][2]string{{"OTEL_EXPORTER_OTLP_ENDPOINT", ""}, {"OTEL_SDK_DISABLED", "true"}, {"OTEL_TRACES_EXPORTER", "none"}} {
		t.Run(env[0], func(t *testing.T) {
			t.Setenv(env[0], env[1])
			obs, shutdown, err := flowcotel.FromEnv(context.Background())
			require.NoError(t, err)
			assert.Nil(t, obs)
			require.NoError(t, shutdown(context.Background()))
			opt, done, err := flowcotel.ForBinary(context.Background(), os.Stderr, true)
			require.NoError(t, err)
			done()
			cfg := flowcimpl.NewConfig(opt)
			assert.Nil(t, cfg.Observer, "quiet and no tracing: no observer at all")
		})
	}
}

// A protocol the exporters do not speak is an error that names the
// variable, not a silent lack of traces.
func TestUnsupportedProtocol(t *testing.T) {
	otlpEnv(t)
	t.Setenv("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "http/json")
	_, _, err := flowcotel.FromEnv(context.Background())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL=http/json")
	t.Setenv("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "")
	t.Setenv("OTEL_TRACES_EXPORTER", "zipkin")
	_, _, err = flowcotel.ForBinary(context.Background(), os.Stderr, true)
	assert.ErrorContains(t, err, "OTEL_TRACES_EXPORTER=zipkin")
}

// OpenTelemetry is linked only by programs that import this package: not
// by generated code, the runtime or the other observers.
func TestGeneratedCodeDoesNotLinkOpenTelemetry(t *testing.T) {
	deps := func(pkgs ...string) string {
		out, err := exec.Command("go", append([]string{"list", "-deps"}, pkgs...)...).CombinedOutput()
		require.NoError(t, err, "%s", out)
		return string(out)
	}
	const otel = "go.opentelemetry.io/"
	assert.NotContains(t, deps("github.com/flowc-dev/flowc/golden/retry", "github.com/flowc-dev/flowc/golden/aslfanout",
		"github.com/flowc-dev/flowc/runtime", "github.com/flowc-dev/flowc/observe"), otel)
	assert.True(t, strings.Contains(deps("github.com/flowc-dev/flowc/observe/otel"), otel), "the check sees OpenTelemetry where it is")
}

// grpc, the other protocol the specification names, gives an exporter too
// (it connects lazily: nothing listens here).
func TestGRPCProtocol(t *testing.T) {
	otlpEnv(t)
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:1")
	t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc")
	obs, shutdown, err := flowcotel.FromEnv(context.Background())
	require.NoError(t, err)
	assert.NotNil(t, obs)
	require.NoError(t, shutdown(context.Background()))
}
