// Package testflows runs workflows under an observer, for the tests of the
// observers: a state retried on a named error (retry.flow.yaml), and a map
// fan-out whose items may fail (mapreduce.flow.yaml). They are copies of
// the golden cases retry and mapreduce, generated here so that this
// package imports nothing above it.
package testflows

import (
	"context"
	"time"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// flaky fails its first Fails calls with RateLimited ("slow down").
type flaky struct{ Fails int }

func (h *flaky) Call(context.Context, RetryState) (RetryUpdate, error) {
	if h.Fails > 0 {
		h.Fails--
		return RetryUpdate{}, flowcrt.NewError("RateLimited", "slow down")
	}
	return RetryUpdate{}.WithResult("done"), nil
}

// RunRetry runs retry.flow.yaml, whose one state "call" fails fails times
// before it succeeds; the retry intervals take no time.
func RunRetry(fails int, opts ...flowcrt.Option) error {
	opts = append(opts, flowcrt.WithClock(flowcrt.NewFakeClock(time.Unix(0, 0))))
	_, err := NewRetry(&flaky{Fails: fails}, opts...).Run(context.Background(), RetryState{})
	return err
}

// scorer scores tickets, failing with Unscorable on the ticket "bad" and
// panicking on the ticket "panic".
type scorer struct{}

func (scorer) Load(context.Context, MapReduceState) (MapReduceUpdate, error) {
	return MapReduceUpdate{}, nil
}

func (scorer) Score(_ context.Context, _ MapReduceState, item Ticket) (MapReduceUpdate, error) {
	switch item.ID {
	case "bad":
		return MapReduceUpdate{}, flowcrt.NewError("Unscorable", item.ID)
	case "panic":
		panic("cannot score")
	}
	return MapReduceUpdate{}.WithTotal(item.Priority), nil
}

func (scorer) Report(context.Context, MapReduceState) (MapReduceUpdate, error) {
	return MapReduceUpdate{}, nil
}

// RunMap runs mapreduce.flow.yaml over tickets of these ids: state "load" fans
// out to state "score" for each, two at a time, then "report" runs.
func RunMap(opt flowcrt.Option, ids ...string) error {
	_, err := NewMapReduce(scorer{}, opt).Run(context.Background(), tickets(ids))
	return err
}

func tickets(ids []string) MapReduceState {
	var s MapReduceState
	for i, id := range ids {
		s.Tickets = append(s.Tickets, Ticket{ID: id, Priority: i + 1})
	}
	return s
}

// RunMapSession runs mapreduce.flow.yaml over tickets of these ids as session id.
func RunMapSession(id string, opts []flowcrt.Option, ids ...string) error {
	s := tickets(ids)
	_, err := NewMapReduce(scorer{}, opts...).Invoke(context.Background(), id, &s)
	return err
}
