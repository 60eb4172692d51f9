package namedtype

// Ticket is a support ticket, a named type of the workflow's package.
type Ticket struct {
	Priority int    `json:"priority"`
	Title    string // no tag: conditions use `title`, matched to the Go name
	Owner    string `json:"assignee"`
}
