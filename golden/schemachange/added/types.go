// Package added is the review workflow of golden/schemachange with a
// field added to Note: checkpoints of package old resume with it zero.
package added

// Assessment is what a reviewer wrote.
type Assessment struct {
	Score int    `json:"score"`
	Notes []Note `json:"notes"`
}

// Note is one remark of a review, now with its author.
type Note struct {
	Text   string `json:"text"`
	Author string `json:"author"`
}
