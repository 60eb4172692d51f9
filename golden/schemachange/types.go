// Package schemachange is the review workflow whose Assessment.score became a
// string: checkpoints of package old are refused, naming the field.
package schemachange

// Assessment is what a reviewer wrote; its score is now a grade.
type Assessment struct {
	Score string `json:"score"`
	Notes []Note `json:"notes"`
}

// Note is one remark of a review.
type Note struct {
	Text string `json:"text"`
}
