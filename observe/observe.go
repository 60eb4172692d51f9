// Package observe holds observers of flowc workflows (flowcrt.Observer):
// a progress display for terminals, structured log/slog events, and Multi,
// which combines them. Install one with flowcrt.WithObserver; the
// OpenTelemetry observer is in observe/otel, a package of its own so that
// programs without it do not link OpenTelemetry.
package observe

import (
	"context"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// Multi returns an observer that reports to each of obs in order, nil ones
// left out; it returns nil when none is left. Each observer gets the
// context the previous one returned, and the end functions run in the
// reverse order, so that spans close before what encloses them. When one
// of obs takes the states' data (flowcrt.StateData), so does the result,
// and passes it to those that take it.
func Multi(obs ...flowcrt.Observer) flowcrt.Observer {
	var list multi
	for _, o := range obs {
		switch o := o.(type) {
		case nil:
		case multi:
			list = append(list, o...)
		case multiData:
			list = append(list, o.multi...)
		default:
			list = append(list, o)
		}
	}
	switch len(list) {
	case 0:
		return nil
	case 1:
		return list[0]
	}
	for _, o := range list {
		if _, ok := o.(flowcrt.StateData); ok {
			return multiData{list}
		}
	}
	return list
}

type multi []flowcrt.Observer

// multiData is a multi with an observer that takes the states' data: a
// multi without one does not take it, so that executors do not produce
// it for nothing.
type multiData struct{ multi }

func (m multiData) Entered(ctx context.Context, input any) {
	for _, o := range m.multi {
		if d, ok := o.(flowcrt.StateData); ok {
			d.Entered(ctx, input)
		}
	}
}

func (m multiData) Succeeded(ctx context.Context, output any) {
	for _, o := range m.multi {
		if d, ok := o.(flowcrt.StateData); ok {
			d.Succeeded(ctx, output)
		}
	}
}

type starter func(o flowcrt.Observer, ctx context.Context) (context.Context, func(error))

func (m multi) each(ctx context.Context, start starter) (context.Context, func(error)) {
	ends := make([]func(error), 0, len(m))
	for _, o := range m {
		var end func(error)
		if ctx, end = start(o, ctx); end != nil {
			ends = append(ends, end)
		}
	}
	return ctx, func(err error) {
		for i := len(ends) - 1; i >= 0; i-- {
			ends[i](err)
		}
	}
}

func (m multi) Run(ctx context.Context, workflow string) (context.Context, func(error)) {
	return m.each(ctx, func(o flowcrt.Observer, ctx context.Context) (context.Context, func(error)) {
		return o.Run(ctx, workflow)
	})
}

func (m multi) State(ctx context.Context, state string) (context.Context, func(error)) {
	return m.each(ctx, func(o flowcrt.Observer, ctx context.Context) (context.Context, func(error)) {
		return o.State(ctx, state)
	})
}

func (m multi) Attempt(ctx context.Context, state string, attempt int) (context.Context, func(error)) {
	return m.each(ctx, func(o flowcrt.Observer, ctx context.Context) (context.Context, func(error)) {
		return o.Attempt(ctx, state, attempt)
	})
}

func (m multi) Item(ctx context.Context, state string, index, total int) (context.Context, func(error)) {
	return m.each(ctx, func(o flowcrt.Observer, ctx context.Context) (context.Context, func(error)) {
		return o.Item(ctx, state, index, total)
	})
}
