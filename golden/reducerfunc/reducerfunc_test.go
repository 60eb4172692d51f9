package reducerfunc

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// measurer returns its scores one per call and asks to measure again until
// none is left.
type measurer struct{ scores []int }

func (m *measurer) Measure(ctx context.Context, s BestState) (BestUpdate, string, error) {
	v := m.scores[0]
	m.scores = m.scores[1:]
	action := "again"
	if len(m.scores) == 0 {
		action = "stop"
	}
	return BestUpdate{}.WithBest(v).WithScores([]int{v}), action, nil
}

func TestMaxInt(t *testing.T) {
	tests := []struct {
		start  int
		scores []int
		want   int
	}{
		{0, []int{3, 7, 5}, 7},
		{10, []int{3, 7, 5}, 10}, // the input counts as the old value
		{-5, []int{-9, -7}, -5},
		{-10, []int{-9, -7}, -7},
	}
	for _, tt := range tests {
		out, err := NewBest(&measurer{scores: tt.scores}).Run(context.Background(), BestState{Best: tt.start})
		require.NoError(t, err)
		assert.Equal(t, tt.want, out.Best, "start %d, scores %v", tt.start, tt.scores)
		assert.Equal(t, tt.scores, out.Scores)
	}
}
