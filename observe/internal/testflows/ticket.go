package testflows

// Ticket is one item of mapreduce.flow.yaml's iteration.
type Ticket struct {
	ID       string `json:"id"`
	Priority int    `json:"priority"`
}
