package asl

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// Distributed Map, run on one machine: the items stream from a reader into
// at most MaxConcurrency child runs at a time, optionally in batches. Each
// child is a run of its own: its failure is counted, not fatal, until the
// tolerated failures are exceeded. Results go to a ResultWriter as the
// children end, or into the state's result in item order.

// Error names of a distributed Map.
const (
	StatesExceedToleratedFailureThreshold = "States.ExceedToleratedFailureThreshold"
	StatesItemReaderFailed                = "States.ItemReaderFailed"
	StatesResultWriterFailed              = "States.ResultWriterFailed"
)

// defaultDistributedConcurrency bounds the children of a distributed Map
// without MaxConcurrency, as Step Functions does.
const defaultDistributedConcurrency = 10000

// DistributedSpec is what a DISTRIBUTED Map adds to its MapSpec.
type DistributedSpec struct {
	Reader *ItemReaderSpec // nil: the items of ItemsPath
	Writer *ResultWriterSpec
	Label  string

	Batched         bool
	BatchItems      int
	BatchItemsPath  *JSONPath
	BatchBytes      int
	BatchBytesPath  *JSONPath
	BatchInput      *Template
	TolerantPercent float64
	TolerantPctPath *JSONPath
	HasPercent      bool
	TolerantCount   int
	TolerantCntPath *JSONPath
	HasCount        bool
}

// ResultWriterSpec is a distributed Map's ResultWriter.
type ResultWriterSpec struct {
	Resource       string // "": only a WriterConfig, the results are the Map's result
	Parameters     *Template
	OutputType     string // WriterConfig's: JSON ("") or JSONL
	Transformation string // WriterConfig's: NONE (""), COMPACT or FLATTEN
}

// ChildResult is how one child run of a distributed Map ended.
type ChildResult struct {
	Index       int    // of the item, or of the batch
	Input       any    // the child's input
	Output      any    // when it succeeded
	Error       string // when it failed
	Cause       string
	Start, Stop time.Time // by the run's clock
}

// ResultWriteRequest says which ResultWriter a result is for.
type ResultWriteRequest struct {
	State          string
	Resource       string
	Parameters     any    // the ResultWriter's Parameters, evaluated
	MapRunArn      string // the Map run's, whose last part is its id
	OutputType     string // WriterConfig's: JSON ("") or JSONL
	Transformation string // WriterConfig's: NONE (""), COMPACT or FLATTEN
}

// ResultWriter is implemented by handlers that take the results of the
// distributed Maps with a ResultWriter. WriteResult is called once per
// child as it ends (on an engine: on the workflow's coroutine of the Map),
// never twice at once. Handlers that do not implement it
// get the built-in writer of local files.
type ResultWriter interface {
	WriteResult(ctx context.Context, req ResultWriteRequest, r ChildResult) error
}

// DistributedMap is the body of a distributed Map state.
func (x *ASLExec) DistributedMap(state string, spec *MapSpec, d *DistributedSpec, child machineFunc) stateBody {
	return func(ctx context.Context, cx *aslContext, in any) (any, error) {
		r, err := x.newMapRun(state, spec, d, child, in, cx)
		if err != nil {
			return nil, err
		}
		ctx = x.reportData(ctx)
		if r.stops, err = x.openFanOut(ctx, state, cx); err != nil {
			return nil, err
		}
		out, err := r.run(ctx)
		if err == nil {
			err = x.stopped(ctx, r.stops, cx)
		}
		return out, err
	}
}

// mapRun is one execution of a distributed Map state.
type mapRun struct {
	x      *ASLExec
	state  string
	spec   *MapSpec
	d      *DistributedSpec
	child  machineFunc
	in     any
	cx     *aslContext
	limit  int
	batch  batcher
	writer *writerCall
	stops  *impl.OpenFanOut // a session's: children that stop for a decision

	mu       sync.Mutex
	total    int
	failed   int
	percent  float64 // tolerated, -1: not set
	count    int     // tolerated, -1: not set
	outputs  []any   // without a writer, in item order
	firstErr error   // the run's own failure (a writer's, a panic)
}

func (x *ASLExec) newMapRun(state string, spec *MapSpec, d *DistributedSpec, child machineFunc, in any, cx *aslContext) (*mapRun, error) {
	r := &mapRun{x: x, state: state, spec: spec, d: d, child: child, in: in, cx: cx, percent: -1, count: -1}
	var err error
	if r.limit, err = spec.limit(in, cx); err != nil {
		return nil, err
	}
	if r.limit == 0 {
		r.limit = defaultDistributedConcurrency
	}
	if d.HasPercent || d.TolerantPctPath != nil {
		if r.percent, err = numberAt(d.TolerantPctPath, d.TolerantPercent, in, cx, 100); err != nil {
			return nil, err
		}
	}
	if d.HasCount || d.TolerantCntPath != nil {
		c, err := numberAt(d.TolerantCntPath, float64(d.TolerantCount), in, cx, -1)
		if err != nil {
			return nil, err
		}
		r.count = int(c)
	}
	if r.batch, err = d.batcher(in, cx); err != nil {
		return nil, err
	}
	if d.Writer != nil {
		if r.writer, err = x.writerCall(state, d.Label, d.Writer, in, cx); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// numberAt is a whole number (a percentage when most is 100) read at p,
// or v without p.
func numberAt(p *JSONPath, v float64, in any, cx *aslContext, most float64) (float64, error) {
	if p == nil {
		return v, nil
	}
	got, err := p.Get(in, cx)
	if err != nil {
		return 0, err
	}
	n, ok := got.(float64)
	if !ok || n < 0 || (most > 0 && n > most) || (most < 0 && !isInteger(got)) {
		return 0, runtimeErrorf("the path %q must point to a number from 0%s, got %s", p.Src, map[bool]string{true: " to 100", false: ""}[most > 0], impl.JSONText(got))
	}
	return n, nil
}

// run streams the items into child runs and waits for them all.
func (r *mapRun) run(ctx context.Context) (any, error) {
	if e := impl.EngineOf(ctx); e != nil {
		return r.runOn(ctx, e)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	places := r.stops.Places(r.limit)
	var wg sync.WaitGroup
	start := func(index int, input any) error {
		if places.Closed(index) {
			return errAllWait
		}
		end, err := places.Take(ctx, index)
		if err == nil {
			err = ctx.Err() // both were ready: the stop wins
		}
		if err != nil || end == nil {
			if end != nil {
				end()
			}
			return err // nil: the child waits for a later run
		}
		wg.Go(func() {
			defer end()
			r.childRun(ctx, cancel, index, input)
		})
		return nil
	}
	if err := r.writer.open(ctx); err != nil {
		return nil, err
	}
	readErr := r.items(ctx, r.batch.feed(start))
	if err := r.batch.flush(start); readErr == nil {
		readErr = err
	}
	if errors.Is(readErr, errAllWait) {
		readErr = nil
	}
	wg.Wait()
	return r.finish(ctx, readErr)
}

// errAllWait ends the reading of a session's distributed Map once every
// place of MaxConcurrency is held by a child that waits and no child is
// left to resume: the items after wait for a later run (impl.Places).
var errAllWait = errors.New("every child of MaxConcurrency waits")

// finish ends the writer's results and decides how the Map ended.
func (r *mapRun) finish(ctx context.Context, readErr error) (any, error) {
	if err := r.writer.close(ctx); err != nil && r.firstErr == nil {
		r.firstErr = &impl.Error{Name: StatesResultWriterFailed, Cause: fmt.Sprintf("Map state %q: %v", r.state, err)}
	}
	return r.result(ctx, readErr)
}

// childRun runs one child and accounts for how it ended; a failure past
// the tolerated ones stops the Map.
func (r *mapRun) childRun(ctx context.Context, stop context.CancelFunc, index int, input any) {
	res, ok := r.runChild(ctx, index, input)
	if !ok {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.count1(res)
	if werr := r.record(ctx, res); werr != nil && r.firstErr == nil {
		r.firstErr = werr
		stop()
	}
	if r.mustStop() {
		stop()
	}
}

// runChild runs one child; ok is false when the Map stopped it, which
// then does not count.
// A child that stops for a decision does not count either: it is recorded
// as waiting, and one that finished before the run resumed is not run again.
func (r *mapRun) runChild(ctx context.Context, index int, input any) (res ChildResult, ok bool) {
	var out any
	stopped := false
	start := r.x.cfg.Now()
	err := impl.Protect(ctx, r.x.cfg.Observer, r.state, index, -1, func(ctx context.Context, _ int) error {
		if raw, done := r.stops.Finished(index); done {
			return r.x.restoreOutput(raw, &out)
		}
		var err error
		out, err = r.child(r.stops.Branch(ctx, index), r.x, input)
		if impl.IsInterrupted(err) {
			stopped = true
		}
		return r.stops.Settle(ctx, index, out, err)
	})
	if err != nil && ctx.Err() != nil || err == nil && stopped {
		return res, false // stopped by the Map, or waiting: not failed by itself
	}
	res = ChildResult{Index: index, Input: input, Output: out, Start: start, Stop: r.x.cfg.Now()}
	if err != nil {
		res.Output = nil
		res.Error, res.Cause = errorParts(err)
	}
	return res, true
}

// count1 counts a child that ended.
func (r *mapRun) count1(res ChildResult) {
	r.total++
	if res.Error != "" {
		r.failed++
	}
}

// mustStop: the failures are past the tolerated ones already; a
// percentage is only known at the end.
func (r *mapRun) mustStop() bool {
	return r.count >= 0 && r.failed > r.count || r.count < 0 && r.percent < 0 && r.failed > 0
}

// record keeps or writes a child's result; r.mu is held (on an engine,
// the Map's coroutine records), which also keeps writer calls one at a
// time.
func (r *mapRun) record(ctx context.Context, res ChildResult) error {
	if r.writer != nil {
		return r.writer.write(ctx, res)
	}
	for len(r.outputs) <= res.Index {
		r.outputs = append(r.outputs, nil)
	}
	if res.Error != "" {
		r.outputs[res.Index] = Obj("Error", res.Error, "Cause", res.Cause)
	} else {
		r.outputs[res.Index] = res.Output
	}
	return nil
}

// result decides how the Map ended, once every child has.
func (r *mapRun) result(ctx context.Context, readErr error) (any, error) {
	switch {
	case r.firstErr != nil:
		return nil, r.firstErr
	case r.tooManyFailures():
		return nil, &impl.Error{Name: StatesExceedToleratedFailureThreshold, Cause: fmt.Sprintf(
			"Map state %q: %d of %d child runs failed, more than it tolerates", r.state, r.failed, r.total)}
	case readErr != nil && !errors.Is(readErr, context.Canceled):
		var e *impl.Error
		if errors.As(readErr, &e) {
			return nil, readErr
		}
		return nil, &impl.Error{Name: StatesItemReaderFailed, Cause: fmt.Sprintf("Map state %q: %v", r.state, readErr)}
	case ctx.Err() != nil:
		return nil, ctx.Err()
	}
	if r.writer != nil {
		return r.writer.result(), nil
	}
	if r.outputs == nil {
		return []any{}, nil
	}
	return r.outputs, nil
}

func (r *mapRun) tooManyFailures() bool {
	switch {
	case r.failed == 0:
		return false
	case r.count < 0 && r.percent < 0:
		return true
	case r.count >= 0 && r.failed > r.count:
		return true
	}
	return r.percent >= 0 && float64(r.failed)*100 > r.percent*float64(r.total)
}

func errorParts(err error) (string, string) {
	var e *impl.Error
	if errors.As(err, &e) {
		return e.Name, e.Cause
	}
	return statesTaskFailed, err.Error()
}
