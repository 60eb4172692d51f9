// Package gentext holds the wording that more than one target of the
// generator prints, so that generated code and graphs say the same thing.
package gentext

import "strconv"

// ConcurrencyWords describes a fan-out's concurrency limit after its
// branches or items: "" for none, ", one after another" for 1.
func ConcurrencyWords(limit int) string {
	switch limit {
	case 0:
		return ""
	case 1:
		return ", one after another"
	}
	return ", at most " + strconv.Itoa(limit) + " at a time"
}
