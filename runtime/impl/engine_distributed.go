package impl

import (
	"context"
	"errors"
)

// engineWindow is how many items a distributed Map on an engine gathers,
// at least, before it runs their children: the window bounds what the
// workflow holds while the reader streams.
const engineWindow = 1000

var errStopMap = errors.New("the Map stops")

// windowItem is an item waiting in the window, as its child's input.
type windowItem struct {
	index int
	input any
}

// runOn is run on an engine: a window of items at a time, each window's
// children run as the engine's fan-out, at most r.limit at once, the first
// failure past the tolerated ones stopping the others. The results are
// kept or written in item order when the window is done: a ResultWriter
// call is an activity, during which another child may not write.
func (r *mapRun) runOn(ctx context.Context, e Engine) (any, error) {
	if err := r.writer.open(ctx); err != nil {
		return nil, err
	}
	var window []windowItem
	run := func() error {
		err := r.runWindow(ctx, e, window)
		window = window[:0]
		return err
	}
	start := func(index int, input any) error {
		window = append(window, windowItem{index, input})
		if len(window) >= max(r.limit, engineWindow) {
			return run()
		}
		return nil
	}
	readErr := r.items(ctx, r.batch.feed(start))
	if err := r.batch.flush(start); readErr == nil {
		readErr = err
	}
	if readErr == nil {
		readErr = run()
	}
	if errors.Is(readErr, errStopMap) {
		readErr = nil // the results say why
	}
	return r.finish(ctx, readErr)
}

// runWindow runs the children of window and records their results;
// errStopMap says that the Map stops.
func (r *mapRun) runWindow(ctx context.Context, e Engine, window []windowItem) error {
	if len(window) == 0 {
		return nil
	}
	// The engine runs one coroutine at a time, so the counts need no lock.
	ended := make([]*ChildResult, len(window))
	err := e.FanOut(ctx, r.state, len(window), r.limit, func(ctx context.Context, i int) error {
		res, ok := r.runChild(ctx, window[i].index, window[i].input)
		if !ok {
			return nil
		}
		ended[i] = &res
		r.count1(res)
		if r.mustStop() {
			return errStopMap
		}
		return nil
	})
	for _, res := range ended {
		if res == nil {
			continue
		}
		if werr := r.record(ctx, *res); werr != nil {
			r.firstErr = werr
			return errStopMap
		}
	}
	return err
}
