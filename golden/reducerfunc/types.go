package reducerfunc

// MaxInt is the reducer of best: the state keeps the largest value seen.
func MaxInt(old, new int) int {
	return max(old, new)
}
