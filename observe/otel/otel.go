// Package flowcotel traces flowc workflows with OpenTelemetry: New makes
// an observer (flowcrt.Observer) that opens a span per run, state visit,
// handler attempt and fan-out item, FromEnv exports them over OTLP as the
// OTEL_* environment variables say, and ForBinary is what the binaries of
// `flowc build` call. It is a package of its own, so that programs that do
// not import it do not link OpenTelemetry; see docs/observability.md.
package flowcotel

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/flowc-dev/flowc/observe"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// scopeName is the instrumentation scope of the spans.
const scopeName = "github.com/flowc-dev/flowc/observe/otel"

// The attributes of the spans.
const (
	attrWorkflow  = attribute.Key("flowc.workflow")   // run spans: the workflow's Go name
	attrState     = attribute.Key("flowc.state")      // state, attempt and item spans: the state id
	attrAttempt   = attribute.Key("flowc.attempt")    // attempt spans: 1 for the first call
	attrItemIndex = attribute.Key("flowc.item.index") // item spans: from 0
	attrItemTotal = attribute.Key("flowc.item.total") // item spans, when the total is known
	attrErrorName = attribute.Key("flowc.error.name") // failed spans: the name retry and catch rules see
	// attrErrorType is the semantic conventions' error.type, set to the
	// same name, which tracing backends know how to group by.
	attrErrorType = attribute.Key("error.type")
)

// New returns an observer whose spans tp makes: "run <workflow>", then
// "state <id>" for each state visit inside it, "attempt <id>" for each
// call of a state's handler inside its state, and "item <id>" for each
// branch or item of the fan-out of state id, inside that state, holding
// the states the item runs. A span that failed has status Error, the
// error recorded as an event, and the error's name in AttrErrorName.
func New(tp trace.TracerProvider) flowcrt.Observer {
	return observer{t: tp.Tracer(scopeName)}
}

type observer struct{ t trace.Tracer }

func (o observer) Run(ctx context.Context, workflow string) (context.Context, func(error)) {
	return o.start(ctx, "run "+workflow, attrWorkflow.String(workflow))
}

func (o observer) State(ctx context.Context, state string) (context.Context, func(error)) {
	return o.start(ctx, "state "+state, attrState.String(state))
}

func (o observer) Attempt(ctx context.Context, state string, attempt int) (context.Context, func(error)) {
	return o.start(ctx, "attempt "+state, attrState.String(state), attrAttempt.Int(attempt))
}

func (o observer) Item(ctx context.Context, state string, index, total int) (context.Context, func(error)) {
	attrs := []attribute.KeyValue{attrState.String(state), attrItemIndex.Int(index)}
	if total >= 0 {
		attrs = append(attrs, attrItemTotal.Int(total))
	}
	return o.start(ctx, "item "+state, attrs...)
}

func (o observer) start(ctx context.Context, name string, attrs ...attribute.KeyValue) (context.Context, func(error)) {
	ctx, span := o.t.Start(ctx, name, trace.WithAttributes(attrs...))
	return ctx, func(err error) {
		if err != nil {
			errName := flowcrt.ErrorName(err)
			span.SetAttributes(attrErrorName.String(errName), attrErrorType.String(errName))
			span.RecordError(err)
			span.SetStatus(codes.Error, err.Error())
		}
		span.End()
	}
}

// FromEnv returns an observer that exports its spans over OTLP as the
// standard environment variables configure it, and the function that
// flushes them and stops the exporter, to call before the program exits.
// Without OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT,
// with OTEL_SDK_DISABLED=true or with OTEL_TRACES_EXPORTER=none it returns
// a nil observer: nothing is traced. OTEL_EXPORTER_OTLP_TRACES_PROTOCOL or
// OTEL_EXPORTER_OTLP_PROTOCOL picks http/protobuf (the default, as the
// specification says) or grpc; the exporters read the endpoint, headers,
// timeout, compression and certificates from the environment themselves,
// and the SDK reads OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES and the
// sampler's variables.
func FromEnv(ctx context.Context) (flowcrt.Observer, func(context.Context) error, error) {
	none := func(context.Context) error { return nil }
	if !enabled() {
		return nil, none, nil
	}
	if e := os.Getenv("OTEL_TRACES_EXPORTER"); e != "" && e != "otlp" {
		return nil, none, fmt.Errorf("OTEL_TRACES_EXPORTER=%s: only otlp and none are supported", e)
	}
	exp, err := exporter(ctx)
	if err != nil {
		return nil, none, err
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(resource.Default()))
	return New(tp), tp.Shutdown, nil
}

// enabled reports whether the environment asks for traces.
func enabled() bool {
	if strings.EqualFold(os.Getenv("OTEL_SDK_DISABLED"), "true") || os.Getenv("OTEL_TRACES_EXPORTER") == "none" {
		return false
	}
	return os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || os.Getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != ""
}

func exporter(ctx context.Context) (sdktrace.SpanExporter, error) {
	name, protocol := "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", os.Getenv("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL")
	if protocol == "" {
		name, protocol = "OTEL_EXPORTER_OTLP_PROTOCOL", os.Getenv("OTEL_EXPORTER_OTLP_PROTOCOL")
	}
	switch protocol {
	case "", "http/protobuf":
		return otlptracehttp.New(ctx)
	case "grpc":
		return otlptracegrpc.New(ctx)
	}
	return nil, fmt.Errorf("%s=%s: traces are exported over http/protobuf or grpc", name, protocol)
}

// shutdownTimeout bounds how long a finished program waits for its last
// spans to be exported.
const shutdownTimeout = 5 * time.Second

// ForBinary sets up what the binaries of `flowc build` show and export: a
// progress line on stderr when it is a terminal and quiet is false, and
// OTLP traces when the environment asks for them (see FromEnv). It returns
// the option that installs them in the workflow (flowcrt.WithObserver; it
// installs nothing when neither applies), and the function to call once
// the run is over: it clears the progress line and flushes the traces,
// reporting a failed export on stderr. An error means the OTEL_* variables
// are wrong.
func ForBinary(ctx context.Context, stderr *os.File, quiet bool) (flowcrt.Option, func(), error) {
	tracing, shutdown, err := FromEnv(ctx)
	if err != nil {
		return flowcrt.WithObserver(nil), func() {}, err
	}
	var progress *observe.Progress
	if !quiet {
		progress = observe.ForTerminal(stderr)
	}
	obs := []flowcrt.Observer{tracing}
	if progress != nil { // a nil *Progress is not a nil Observer
		obs = append(obs, progress)
	}
	done := func() {
		progress.Close()
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownTimeout)
		defer cancel()
		if err := shutdown(sctx); err != nil {
			fmt.Fprintf(stderr, "%s: exporting traces: %v\n", filepath.Base(os.Args[0]), err)
		}
	}
	return flowcrt.WithObserver(observe.Multi(obs...)), done, nil
}
