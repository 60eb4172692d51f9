package observe

import (
	"context"
	"log/slog"
	"time"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// Slog returns an observer that logs each run, state visit, handler
// attempt and fan-out item to l as structured events: "run started" and
// "run finished" (workflow, and duration at the end), "state started" and
// "state finished" (state), "attempt started" and "attempt finished"
// (state, attempt), "item started" and "item finished" (state, index,
// total). An end event that failed also has error and error_name, the name
// retry and catch rules see. Starts and items log at Debug, ends at Info,
// a failed attempt or item at Warn, a failed state or run at Error. Every event
// carries the workflow, and is logged with the context of what it
// describes, so that a handler can read trace ids from it.
func Slog(l *slog.Logger) flowcrt.Observer {
	return slogObserver{l: l}
}

type slogObserver struct{ l *slog.Logger }

type workflowKey struct{}

func (o slogObserver) Run(ctx context.Context, workflow string) (context.Context, func(error)) {
	ctx = context.WithValue(ctx, workflowKey{}, workflow)
	start := time.Now()
	o.log(ctx, slog.LevelDebug, "run started")
	return ctx, func(err error) {
		o.end(ctx, "run finished", slog.LevelInfo, slog.LevelError, err, slog.Duration("duration", time.Since(start)))
	}
}

func (o slogObserver) State(ctx context.Context, state string) (context.Context, func(error)) {
	id := slog.String("state", state)
	o.log(ctx, slog.LevelDebug, "state started", id)
	return ctx, func(err error) { o.end(ctx, "state finished", slog.LevelInfo, slog.LevelError, err, id) }
}

func (o slogObserver) Attempt(ctx context.Context, state string, attempt int) (context.Context, func(error)) {
	attrs := []slog.Attr{slog.String("state", state), slog.Int("attempt", attempt)}
	o.log(ctx, slog.LevelDebug, "attempt started", attrs...)
	return ctx, func(err error) { o.end(ctx, "attempt finished", slog.LevelInfo, slog.LevelWarn, err, attrs...) }
}

func (o slogObserver) Item(ctx context.Context, state string, index, total int) (context.Context, func(error)) {
	attrs := []slog.Attr{slog.String("state", state), slog.Int("index", index), slog.Int("total", total)}
	o.log(ctx, slog.LevelDebug, "item started", attrs...)
	return ctx, func(err error) { o.end(ctx, "item finished", slog.LevelDebug, slog.LevelWarn, err, attrs...) }
}

// end logs the end of something at level done, or at failed when err is
// not nil.
func (o slogObserver) end(ctx context.Context, msg string, done, failed slog.Level, err error, attrs ...slog.Attr) {
	level := done
	if err != nil {
		level = failed
		attrs = append(attrs[:len(attrs):len(attrs)], slog.String("error", err.Error()), slog.String("error_name", flowcrt.ErrorName(err)))
	}
	o.log(ctx, level, msg, attrs...)
}

func (o slogObserver) log(ctx context.Context, level slog.Level, msg string, attrs ...slog.Attr) {
	if !o.l.Enabled(ctx, level) {
		return
	}
	if wf, ok := ctx.Value(workflowKey{}).(string); ok {
		attrs = append([]slog.Attr{slog.String("workflow", wf)}, attrs...)
	}
	o.l.LogAttrs(ctx, level, msg, attrs...)
}
