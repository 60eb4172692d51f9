package main

// Ticket is a support request as it arrives from the help desk.
type Ticket struct {
	Title    string `json:"title"`
	Body     string `json:"body"`
	Priority int    `json:"priority"` // 1 (low) to 5 (outage)
}
