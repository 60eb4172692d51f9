package mapreduce

// Ticket is one item of the iteration.
type Ticket struct {
	ID       string `json:"id"`
	Priority int    `json:"priority"`
}
