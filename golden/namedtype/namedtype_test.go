package namedtype

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// handlers: Load sets the ticket and records it; Route names the state it
// runs in.
type handlers struct{ ticket Ticket }

func (h handlers) Load(ctx context.Context, s TicketsState) (TicketsUpdate, error) {
	return TicketsUpdate{}.WithTicket(h.ticket).WithHistory([]Ticket{h.ticket}), nil
}

func (handlers) Route(ctx context.Context, s TicketsState) (TicketsUpdate, error) {
	return TicketsUpdate{}.WithRoute(flowcrt.StateFromContext(ctx)), nil
}

func TestNamedType(t *testing.T) {
	tests := []struct {
		ticket Ticket
		want   string
	}{
		{Ticket{Priority: 5, Title: "URGENT: db down", Owner: "ann"}, "page"},
		{Ticket{Priority: 4, Title: "urgent: lowercase", Owner: "ann"}, "escalate"}, // startswith is case-sensitive
		{Ticket{Priority: 3, Title: "URGENT: but low", Owner: "ann"}, "queue"},
		{Ticket{Priority: 1, Title: "typo"}, "assign"},
		{Ticket{Priority: 9, Title: "URGENT"}, "page"},
		{Ticket{Priority: 1, Title: "typo", Owner: "bob"}, "queue"},
	}
	for _, tt := range tests {
		old := Ticket{Priority: 1, Title: "previous", Owner: "zed"}
		wf := NewTickets(handlers{ticket: tt.ticket}, flowcrt.WithStateContext())
		out, err := wf.Run(context.Background(), TicketsState{Ticket: old, History: []Ticket{old}})
		require.NoError(t, err)
		assert.Equal(t, tt.want, out.Route, "%+v", tt.ticket)
		assert.Equal(t, tt.ticket, out.Ticket)
		assert.Equal(t, []Ticket{old, tt.ticket}, out.History)
	}
}
