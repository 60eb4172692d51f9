// Package old is the first version of the review workflow of
// golden/schemachange.
package old

// Assessment is what a reviewer wrote.
type Assessment struct {
	Score int    `json:"score"`
	Notes []Note `json:"notes"`
}

// Note is one remark of a review.
type Note struct {
	Text string `json:"text"`
}
