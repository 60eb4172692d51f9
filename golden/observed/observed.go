// Package observed runs golden workflows under an observer, for the tests
// of the observers (package observe and observe/otel): a state retried on
// a named error, and a map fan-out whose items may fail. It lives beside
// the cases it runs, so that nothing below the tests imports them.
package observed

import (
	"context"
	"time"

	"github.com/flowc-dev/flowc/golden/mapreduce"
	"github.com/flowc-dev/flowc/golden/retry"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// flaky fails its first Fails calls with RateLimited ("slow down").
type flaky struct{ Fails int }

func (h *flaky) Call(context.Context, retry.RetryState) (retry.RetryUpdate, error) {
	if h.Fails > 0 {
		h.Fails--
		return retry.RetryUpdate{}, flowcrt.NewError("RateLimited", "slow down")
	}
	return retry.RetryUpdate{}.WithResult("done"), nil
}

// Retry runs golden/retry, whose one state "call" fails fails times before
// it succeeds; the retry intervals take no time.
func Retry(fails int, opts ...flowcrt.Option) error {
	opts = append(opts, flowcrt.WithClock(flowcrt.NewFakeClock(time.Unix(0, 0))))
	_, err := retry.NewRetry(&flaky{Fails: fails}, opts...).Run(context.Background(), retry.RetryState{})
	return err
}

// scorer scores tickets, failing with Unscorable on the ticket "bad" and
// panicking on the ticket "panic".
type scorer struct{}

func (scorer) Load(context.Context, mapreduce.MapReduceState) (mapreduce.MapReduceUpdate, error) {
	return mapreduce.MapReduceUpdate{}, nil
}

func (scorer) Score(_ context.Context, _ mapreduce.MapReduceState, item mapreduce.Ticket) (mapreduce.MapReduceUpdate, error) {
	switch item.ID {
	case "bad":
		return mapreduce.MapReduceUpdate{}, flowcrt.NewError("Unscorable", item.ID)
	case "panic":
		panic("cannot score")
	}
	return mapreduce.MapReduceUpdate{}.WithTotal(item.Priority), nil
}

func (scorer) Report(context.Context, mapreduce.MapReduceState) (mapreduce.MapReduceUpdate, error) {
	return mapreduce.MapReduceUpdate{}, nil
}

// Map runs golden/mapreduce over tickets of these ids: state "load" fans
// out to state "score" for each, two at a time, then "report" runs.
func Map(opt flowcrt.Option, ids ...string) error {
	_, err := mapreduce.NewMapReduce(scorer{}, opt).Run(context.Background(), tickets(ids))
	return err
}

func tickets(ids []string) mapreduce.MapReduceState {
	var s mapreduce.MapReduceState
	for i, id := range ids {
		s.Tickets = append(s.Tickets, mapreduce.Ticket{ID: id, Priority: i + 1})
	}
	return s
}

// MapSession runs golden/mapreduce over tickets of these ids as session id.
func MapSession(id string, opts []flowcrt.Option, ids ...string) error {
	s := tickets(ids)
	_, err := mapreduce.NewMapReduce(scorer{}, opts...).Invoke(context.Background(), id, &s)
	return err
}
