package flowcotel_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/flowc-dev/flowc/golden/observed"
	flowcotel "github.com/flowc-dev/flowc/observe/otel"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// recorded runs run under an observer whose spans a recorder keeps.
func recorded(t *testing.T, run func(flowcrt.Option) error) ([]sdktrace.ReadOnlySpan, error) {
	t.Helper()
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	err := run(flowcrt.WithObserver(flowcotel.New(tp)))
	require.NoError(t, tp.Shutdown(context.Background()))
	assert.Empty(t, rec.Started()[len(rec.Ended()):], "every span started has ended")
	return rec.Ended(), err
}

// paths lists each span as the spans from the root down, each with its
// attributes and status; every span is in the root's trace.
func paths(t *testing.T, spans []sdktrace.ReadOnlySpan) []string {
	t.Helper()
	byID := map[[8]byte]sdktrace.ReadOnlySpan{}
	for _, s := range spans {
		byID[s.SpanContext().SpanID()] = s
	}
	var out []string
	for _, s := range spans {
		path := describe(s)
		for p := s; p.Parent().IsValid(); {
			parent, ok := byID[p.Parent().SpanID()]
			require.True(t, ok, "the parent of %s is a span of the run", s.Name())
			assert.Equal(t, parent.SpanContext().TraceID(), s.SpanContext().TraceID())
			path = describe(parent) + " > " + path
			p = parent
		}
		out = append(out, path)
	}
	return out
}

// describe is a span's name, attributes and status.
func describe(s sdktrace.ReadOnlySpan) string {
	var attrs []string
	for _, a := range s.Attributes() {
		attrs = append(attrs, fmt.Sprintf("%s=%s", a.Key, a.Value.Emit()))
	}
	text := s.Name() + " {" + strings.Join(attrs, " ") + "}"
	if s.Status().Code == codes.Error {
		text += " ERROR " + s.Status().Description
	}
	return text
}

// A retried state: one span per attempt under the state's, the failed
// ones with status Error, the error's name and the error as an event.
func TestSpansOfARetriedState(t *testing.T) {
	spans, err := recorded(t, func(opt flowcrt.Option) error { return observed.Retry(2, opt) })
	require.NoError(t, err)
	const call = "run Retry {flowc.workflow=Retry} > state call {flowc.state=call}"
	assert.ElementsMatch(t, []string{
		"run Retry {flowc.workflow=Retry}",
		call,
		call + " > attempt call {flowc.state=call flowc.attempt=1 flowc.error.name=RateLimited error.type=RateLimited} ERROR RateLimited: slow down",
		call + " > attempt call {flowc.state=call flowc.attempt=2 flowc.error.name=RateLimited error.type=RateLimited} ERROR RateLimited: slow down",
		call + " > attempt call {flowc.state=call flowc.attempt=3}",
	}, paths(t, spans))
	for _, s := range spans {
		if s.Status().Code == codes.Error {
			require.Len(t, s.Events(), 1)
			assert.Equal(t, "exception", s.Events()[0].Name)
		}
	}
}

// The items of a fan-out, run two at a time, are child spans of the state
// that fans out, and the states of each item's chain are its children.
func TestSpansOfAFanOut(t *testing.T) {
	spans, err := recorded(t, func(opt flowcrt.Option) error { return observed.Map(opt, "a", "b", "c") })
	require.NoError(t, err)
	const run = "run MapReduce {flowc.workflow=MapReduce}"
	const load = run + " > state load {flowc.state=load}"
	want := []string{run, load, run + " > state report {flowc.state=report}"}
	for i := range 3 {
		item := fmt.Sprintf("%s > item load {flowc.state=load flowc.item.index=%d flowc.item.total=3}", load, i)
		want = append(want, item, item+" > state score {flowc.state=score}")
	}
	assert.ElementsMatch(t, want, paths(t, spans))
}

// A failing item fails its span, its state's and the run's.
func TestSpansOfAFailingItem(t *testing.T) {
	spans, err := recorded(t, func(opt flowcrt.Option) error { return observed.Map(opt, "bad") })
	require.Error(t, err)
	failed := 0
	for _, s := range spans {
		assert.Equal(t, codes.Error, s.Status().Code, s.Name())
		assert.Contains(t, s.Attributes(), attribute.String("flowc.error.name", "Unscorable"), s.Name())
		failed++
	}
	assert.Equal(t, 4, failed, "run, state load, item, state score")
}
