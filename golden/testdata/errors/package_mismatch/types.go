package support

// Ticket is a support ticket.
type Ticket struct {
	ID       string `json:"id"`
	Priority int    `json:"priority"`
}

// Customer is who filed the ticket.
type Customer struct {
	Name string `json:"name"`
}
