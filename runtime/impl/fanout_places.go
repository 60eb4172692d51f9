package impl

import (
	"context"
	"sync"
)

// A stop holds its place. In a session's run a branch or item that stops
// (for a decision or a task token) has not finished: it keeps its place
// in the fan-out's limit until it does, as Step Functions counts a Map
// iteration that waits as running. So the next item starts only when one
// finishes; once every place is held by a stop and nothing runs, the
// items left wait unstarted for a later run, and the fan-out stops with
// the stops it has. A resumed run takes no place for the items its
// checkpoint records as done, and resumes every item it records as
// stopped, whatever the limit: each started already (a checkpoint from
// before this rule may hold more of them than the limit). Items are
// handed out in index order, so the items that started are those the
// checkpoint records as done or stopped (FanOutProgress), and a new item
// starts only while fewer than limit hold a place. CodeMie's fan-outs do
// not take places (FanOutSaved): LangGraph runs every branch of a step up
// to its interrupt.

// Places counts the places of a fan-out's limit that its items hold. A
// Places of a nil *OpenFanOut (a run without a session, whose items
// cannot stop) is a plain bound.
type Places struct {
	stops   *OpenFanOut
	limit   int // <= 0: no bound
	mu      sync.Mutex
	held    int  // by items that run or stopped
	running int  // items started that have not returned
	closed  bool // every place was held by a stop with nothing running: no new item starts
	changed chan struct{}
}

// Places returns the places of limit for the items of f.
func (f *OpenFanOut) Places(limit int) *Places {
	return &Places{stops: f, limit: limit, changed: make(chan struct{}, 1)}
}

// Take waits for a place for item i and returns end, which the item
// calls once it returns. end is nil when i must not start: every place is
// held by a stop and nothing runs, so i waits for a later run. An item the
// checkpoint records as done takes no place, and one it records as stopped
// takes its place at once.
func (p *Places) Take(ctx context.Context, i int) (end func(), err error) {
	if p.stops.restoredDone(i) {
		return func() {}, nil
	}
	resumed := p.stops.restoredStop(i)
	for {
		p.mu.Lock()
		switch {
		case resumed || !p.closed && (p.limit <= 0 || p.held < p.limit):
			p.held++
			p.running++
			p.mu.Unlock()
			return func() { p.end(i) }, nil
		case p.closed || p.running == 0:
			p.closed = true
			p.mu.Unlock()
			return nil, nil
		}
		p.mu.Unlock()
		select {
		case <-p.changed:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// end returns the place of item i unless it stopped.
func (p *Places) end(i int) {
	stopped := p.stops.stoppedNow(i)
	p.mu.Lock()
	p.running--
	if !stopped {
		p.held--
	}
	p.mu.Unlock()
	select {
	case p.changed <- struct{}{}:
	default: // a wake-up is pending already
	}
}

// Closed reports whether no item from i on can start or is to be
// resumed: a reader of the items may stop.
func (p *Places) Closed(i int) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.closed && i > p.stops.lastRestored()
}

// FanOut runs work for every branch or item of f, n of them, as the
// package's FanOut does, except that in a session's run an item that
// stops keeps its place in limit until a later run sees it finish.
func (f *OpenFanOut) FanOut(ctx context.Context, state string, n, limit int, work func(ctx context.Context, i int) error) error {
	if f == nil || limit <= 0 || limit >= n {
		return FanOut(context.WithValue(ctx, holdsPlacesKey{}, true), state, n, limit, work)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	o, places := observerOf(ctx), f.Places(limit)
	var (
		wg    sync.WaitGroup
		once  sync.Once
		first error
	)
	for i := 0; i < n && ctx.Err() == nil && !places.Closed(i); i++ {
		end, err := places.Take(ctx, i)
		if err != nil {
			break
		}
		if end == nil {
			continue // waits for a later run
		}
		wg.Go(func() {
			defer end()
			if err := Protect(ctx, o, state, i, n, work); err != nil {
				once.Do(func() { first = err; cancel() })
			}
		})
	}
	wg.Wait()
	if first != nil {
		return first
	}
	return ctx.Err()
}

// restoredDone reports whether the checkpoint the run resumed from
// records item i as done.
func (f *OpenFanOut) restoredDone(i int) bool {
	if f == nil || f.restored == nil {
		return false
	}
	_, ok := f.restored.Done[i]
	return ok
}

// restoredStop reports whether it records item i as stopped.
func (f *OpenFanOut) restoredStop(i int) bool {
	return f != nil && f.restored != nil && f.restored.Stopped[i] != nil
}

// lastRestored is the highest index the checkpoint records, -1 for none.
func (f *OpenFanOut) lastRestored() int {
	last := -1
	if f == nil || f.restored == nil {
		return last
	}
	for i := range f.restored.Done {
		last = max(last, i)
	}
	for i := range f.restored.Stopped {
		last = max(last, i)
	}
	return last
}

// stoppedNow reports whether item i stopped in this run.
func (f *OpenFanOut) stoppedNow(i int) bool {
	if f == nil {
		return false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.stopped[i] != nil
}

type holdsPlacesKey struct{}

// StopsHoldPlaces tells an Engine's FanOut that its items keep their
// place in its limit while they wait for a decision or a task token (a
// Map's, through OpenFanOut.FanOut), unlike CodeMie's, whose waiting
// branches let the next one start.
func StopsHoldPlaces(ctx context.Context) bool {
	held, _ := ctx.Value(holdsPlacesKey{}).(bool)
	return held
}
