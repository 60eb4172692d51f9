package diag

// Suggest returns the candidate closest to name when it is close enough to be
// a likely typo (edit distance at most a third of the name, at least 1), else "".
// Ties go to the earliest candidate, so callers control the order.
func Suggest(name string, candidates []string) string {
	best, bestDist := "", len(name)/3+1
	if bestDist < 2 {
		bestDist = 2
	}
	for _, c := range candidates {
		if d := distance(name, c); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// DidYouMean renders a suggestion as a message suffix, or "" when there is none.
func DidYouMean(name string, candidates []string) string {
	if s := Suggest(name, candidates); s != "" {
		return " (did you mean `" + s + "`?)"
	}
	return ""
}

// distance is the edit distance over runes in which swapping two adjacent
// runes counts as one edit (optimal string alignment), so that "Wrok" is
// one typo away from "Work".
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	before := make([]int, len(rb)+1) // row i-2
	prev := make([]int, len(rb)+1)   // row i-1
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], before[j-2]+1)
			}
		}
		before, prev, cur = prev, cur, before
	}
	return prev[len(rb)]
}
