package asl

import (
	"context"
	"errors"
	"fmt"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// engineReadAhead is how many items a distributed Map on an engine holds,
// at most, read but not yet taken by a child: it bounds what the workflow
// holds while the reader streams.
const engineReadAhead = 1000

var errStopMap = errors.New("the Map stops")

// ItemsEngine is the Engine hook of a distributed Map: its children run
// as the items stream in, so that a child that waits (for a person, a
// task token) holds back no item after it, and a stop inside a child is
// keyed by its item's index in the whole list.
type ItemsEngine interface {
	// FanOutItems runs read, which hands the items in order to start,
	// and work for each item started, at most limit at once, taking
	// them in order; start blocks while held items wait for a child.
	// ended(index) runs on the caller, one at a time, for each item
	// whose work returned, in the order they did. The first failure of
	// read, work or ended cancels the others, and is returned once all
	// have returned.
	FanOutItems(ctx context.Context, state string, limit, held int,
		read func(ctx context.Context, start func(index int, input any) error) error,
		work func(ctx context.Context, index int, input any) error,
		ended func(index int) error) error
}

// runOn is run on an engine: the children run as the engine's fan-out of
// the items as they are read, at most r.limit at once, the first failure
// past the tolerated ones stopping the others. The results are kept or
// written on the Map's own coroutine as the children end: a ResultWriter
// call is an activity, during which another child may not write, and
// which a stopping Map must not cancel.
func (r *mapRun) runOn(ctx context.Context, e impl.Engine) (any, error) {
	ie, ok := e.(ItemsEngine)
	if !ok {
		return nil, fmt.Errorf("Map state %q: the engine cannot run a distributed Map", r.state)
	}
	if err := r.writer.open(ctx); err != nil {
		return nil, err
	}
	read := func(ctx context.Context, start func(int, any) error) error {
		err := r.items(ctx, r.batch.feed(start))
		if ferr := r.batch.flush(start); err == nil {
			err = ferr
		}
		return err
	}
	// The engine runs one coroutine at a time, so the counts and the
	// results that ended need no lock.
	ended := map[int]ChildResult{}
	work := func(ctx context.Context, index int, input any) error {
		res, ok := r.runChild(ctx, index, input)
		if !ok {
			return nil
		}
		ended[index] = res
		r.count1(res)
		if r.mustStop() {
			return errStopMap
		}
		return nil
	}
	record := func(index int) error {
		res, ok := ended[index]
		delete(ended, index)
		if !ok || r.firstErr != nil { // stopped, or the writer failed already
			return nil
		}
		if werr := r.record(ctx, res); werr != nil {
			r.firstErr = werr
			return errStopMap
		}
		return nil
	}
	err := ie.FanOutItems(ctx, r.state, r.limit, engineReadAhead, read, work, record)
	if errors.Is(err, errStopMap) {
		err = nil // the results say why
	}
	return r.finish(ctx, err)
}
