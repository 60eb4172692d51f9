package flowtemporal

import (
	"context"
	"encoding/json"
	"errors"

	"go.temporal.io/sdk/workflow"

	flowcrt "github.com/flowc-dev/flowc/runtime"
	flowcimpl "github.com/flowc-dev/flowc/runtime/impl"
	flowcasl "github.com/flowc-dev/flowc/runtime/impl/asl"
)

// A distributed Map's reader runs as activities, one page of items each,
// so that neither the workflow nor one activity result holds them all
// (Temporal bounds a payload to a few MB). ReadItems has no cursor: the
// activity of page p reads again from the start and skips the items of
// the pages before, so that any worker can serve it. A reader of N items
// therefore reads about N²/(2·page) items in all; a large input wants big
// pages, which the byte bound keeps under the payload limit.
const (
	ItemPageItems = 1000    // items in one page, at most
	itemPageBytes = 1 << 20 // of their JSON, at most (a bigger item has a page of its own)
)

// ItemPage is one page of a reader's items.
type ItemPage struct {
	Items []json.RawMessage
	More  bool // the reader has items after these
}

var errPageFull = errors.New("page full")

// ReadItems is the workflow side of flowcasl.ItemReader: it runs the
// reader's activity page by page, handing the items to yield in order,
// and stops at yield's first error, which it returns.
func ReadItems(ctx context.Context, activity string, req flowcasl.ItemReadRequest, yield func(item any) error) error {
	for from := 0; ; {
		var page ItemPage
		if err := Execute(ctx, activity, &page, req, from); err != nil {
			return err
		}
		for _, raw := range page.Items {
			item, err := flowcrt.DecodeASLInput(raw)
			if err != nil {
				return err
			}
			if err := yield(item); err != nil {
				return err
			}
		}
		if !page.More {
			return nil
		}
		from += len(page.Items)
	}
}

// ReadItemsActivity is the activity of ReadItems: the page of items from
// index from on, read by h when it implements flowcasl.ItemReader and by
// the built-in reader of local files otherwise.
func ReadItemsActivity(ctx context.Context, h any, req flowcasl.ItemReadRequest, from int) (page ItemPage, err error) {
	ctx = ActivityContext(ctx)
	defer Finish(ctx, &err)
	read := flowcasl.ReadLocalItems
	if r, ok := h.(flowcasl.ItemReader); ok {
		read = r.ReadItems
	}
	n, size := 0, 0
	err = read(ctx, req, func(item any) error {
		if n < from {
			n++
			return nil
		}
		raw, err := flowcasl.ItemJSON(n, item)
		if err != nil {
			return err
		}
		if len(page.Items) > 0 && (len(page.Items) >= ItemPageItems || size+len(raw) > itemPageBytes) {
			page.More = true
			return errPageFull
		}
		page.Items = append(page.Items, raw)
		n, size = n+1, size+len(raw)
		return nil
	})
	if errors.Is(err, errPageFull) {
		err = nil
	}
	return page, err
}

// HandlerValue is v, decoded from an activity's JSON input, as the native
// engine hands it to h: its objects plain maps unless h takes them
// ordered (flowcasl.OrderedHandlers).
func HandlerValue(h any, v any) any {
	if _, ok := h.(flowcasl.OrderedHandlers); ok {
		return v
	}
	return flowcasl.Plain(v)
}

// FanOutItems runs a distributed Map's children as its items are read
// (flowcasl.ItemsEngine): the reader on a coroutine of its own, holding
// at most held items that no child has taken; each child on a coroutine
// of its own, at most limit at once, started in item order by the
// caller's coroutine, which also hands ended each child that returned.
// A child that waits for a decision or a task token holds its place in
// limit but not the items after it, and its stops are keyed by its item's
// index in the whole list, as a native session keys them. Over mocks
// (InOrder) the next child starts once the one before has ended or
// nothing in the run can move but a decision, and fewer than limit have
// started and not returned, as in fanOutInOrder.
func (engine) FanOutItems(ctx context.Context, state string, limit, held int,
	read func(ctx context.Context, start func(index int, input any) error) error,
	work func(ctx context.Context, index int, input any) error,
	ended func(index int) error) error {
	s := &itemFanOut{r: runOf(ctx), ctx: ctx, state: state, limit: limit, held: held, work: work}
	s.wctx, s.cancel = workflow.WithCancel(workflowContext(ctx))
	defer s.cancel()
	s.r.busy++
	workflow.Go(s.wctx, func(c workflow.Context) {
		defer func() { s.readDone = true; s.finished++ }()
		if err := s.runReader(on(ctx, c), read); err != nil {
			s.fail(err)
		}
	})
	s.dispatch(ended)
	if s.first != nil {
		return s.first
	}
	return ctx.Err()
}

// itemFanOut is one run of FanOutItems. Its coroutines run one at a time,
// so its fields need no lock.
type itemFanOut struct {
	r      *runState
	ctx    context.Context
	wctx   workflow.Context    // cancelled by the first failure
	cancel workflow.CancelFunc // cancels wctx
	state  string
	limit  int
	held   int
	work   func(ctx context.Context, index int, input any) error

	queue    []heldItem // read, not yet taken by a child
	readDone bool
	running  int   // children started, not yet returned
	ended    []int // children returned, not yet handed to ended
	// finished counts the coroutines (reader, children) that returned and
	// whose busy count the caller has not released yet; see itemWaiter.
	finished int
	first    error
}

type heldItem struct {
	index int
	input any
}

// fail keeps the first failure and cancels the reader and the children.
func (s *itemFanOut) fail(err error) {
	if s.first == nil {
		s.first = err
		s.cancel()
	}
}

// runReader runs read, its panic an error naming the state, as on the
// Map's own coroutine, where the run's recover would catch it.
func (s *itemFanOut) runReader(ctx context.Context, read func(context.Context, func(int, any) error) error) (err error) {
	defer flowcimpl.Recover(s.state, &err)
	return read(ctx, s.put(ctx))
}

// put is the reader's start: it holds the item for a child, waiting while
// held items wait already.
func (s *itemFanOut) put(ctx context.Context) func(int, any) error {
	c := workflowContext(ctx)
	return func(index int, input any) error {
		var err error
		s.r.idle(ctx, func() { err = workflow.Await(c, func() bool { return len(s.queue) < s.held }) })
		if err != nil {
			return context.Canceled
		}
		s.queue = append(s.queue, heldItem{index, input})
		return nil
	}
}

// dispatch starts the children and hands over those that returned, until
// the reader and every child have returned. It waits on a disconnected
// context: once the fan-out is cancelled it still waits for its
// coroutines, which end at their next step.
func (s *itemFanOut) dispatch(ended func(int) error) {
	wait, _ := workflow.NewDisconnectedContext(s.wctx)
	for {
		start := false
		s.r.idle(s.ctx, func() {
			_ = workflow.Await(wait, func() bool {
				start = s.mayStart()
				return start || s.finished > 0 || len(s.ended) > 0 || s.over()
			})
		})
		s.r.busy -= s.finished
		s.finished = 0
		switch {
		case len(s.ended) > 0:
			s.handOver(ended)
		case s.over():
			return
		case start:
			s.startChild()
		}
	}
}

// handOver hands ended the children that returned, in the order they did.
func (s *itemFanOut) handOver(ended func(int) error) {
	for len(s.ended) > 0 {
		i := s.ended[0]
		s.ended = s.ended[1:]
		if err := ended(i); err != nil {
			s.fail(err)
		}
	}
}

// mayStart says whether the next child may start, seen from the caller's
// idle wait: over mocks only once the one before has ended or the run
// has settled.
func (s *itemFanOut) mayStart() bool {
	switch {
	case len(s.queue) == 0 || s.first != nil || s.wctx.Err() != nil:
		return false
	case s.r.inOrder:
		return (s.running == 0 || s.r.busy == 0) && (s.limit <= 0 || s.running < s.limit)
	}
	return s.limit <= 0 || s.running < s.limit
}

// over: the reader and every child have returned, and no child is left
// to start or to hand over.
func (s *itemFanOut) over() bool {
	return s.readDone && s.running == 0 && len(s.ended) == 0 && (len(s.queue) == 0 || s.first != nil || s.wctx.Err() != nil)
}

// startChild runs the child of the next held item on a coroutine of its
// own, its stops keyed under the item's index.
func (s *itemFanOut) startChild() {
	item := s.queue[0]
	s.queue = s.queue[1:]
	s.running++
	s.r.busy++
	workflow.Go(s.wctx, func(c workflow.Context) {
		defer func() { s.running--; s.ended = append(s.ended, item.index); s.finished++ }()
		err := protect(inBranch(on(s.ctx, c), s.state, item.index), s.state, item.index, func(ctx context.Context, i int) error {
			return s.work(ctx, i, item.input)
		})
		if err != nil {
			s.fail(err)
		}
	})
}
