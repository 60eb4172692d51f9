package research

// KeepLongest keeps the longer of two summaries.
func KeepLongest(old, new string) string {
	if len(new) > len(old) {
		return new
	}
	return old
}

// Union merges two source lists, but takes one argument too many.
func Union(old, new []string, limit int) []string {
	return append(old, new...)
}

// MaxScore returns the larger score, as the wrong type.
func MaxScore(old, new float64) int {
	return int(max(old, new))
}

// Budget is not a function.
var Budget = 10
