package impl_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// Branches record concurrently, each into its own list; a branch that
// outgrows its room must not write into its neighbour's.
func TestRecordsKeepBranchesApart(t *testing.T) {
	recs := impl.NewRecords[string](4, 2)
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			rec := recs.Of(i)
			for j := range i + 1 { // branch 2 and 3 outgrow their room of 2
				*rec = append(*rec, fmt.Sprintf("%d.%d", i, j))
			}
		})
	}
	wg.Wait()
	assert.Equal(t, [][]string{{"0.0"}, {"1.0", "1.1"}, {"2.0", "2.1", "2.2"}, {"3.0", "3.1", "3.2", "3.3"}}, recs.Lists())
}

func TestRecordsOfNothing(t *testing.T) {
	assert.Empty(t, impl.NewRecords[int](0, 3).Lists())
	recs := impl.NewRecords[int](2, 0)
	*recs.Of(1) = append(*recs.Of(1), 7)
	assert.Equal(t, [][]int{{}, {7}}, recs.Lists())
}

// A join's append copies the old value once, then appends in place; the
// old value and the updates are never written.
func TestAppendOwned(t *testing.T) {
	old := make([]int, 2, 10)
	old[0], old[1] = 1, 2
	var own bool
	out := impl.AppendOwned(old, []int{3}, &own)
	assert.True(t, own)
	out = impl.AppendOwned(out, []int{4, 5}, &own)
	assert.Equal(t, []int{1, 2, 3, 4, 5}, out)
	assert.Equal(t, []int{1, 2, 0}, old[:3], "old's spare capacity is untouched")

	own = false
	assert.Nil(t, impl.AppendOwned[[]int](nil, nil, &own))
	assert.False(t, own, "nil is nobody's copy")
	assert.Equal(t, []int{9}, impl.AppendOwned(nil, []int{9}, &own))
}

func TestMergeOwned(t *testing.T) {
	old := map[string]int{"a": 1}
	var own bool
	out := impl.MergeOwned(old, map[string]int{"b": 2}, &own)
	out = impl.MergeOwned(out, map[string]int{"a": 3}, &own)
	assert.Equal(t, map[string]int{"a": 3, "b": 2}, out)
	assert.Equal(t, map[string]int{"a": 1}, old)

	own = false
	assert.Nil(t, impl.MergeOwned[map[string]int](nil, nil, &own))
	assert.False(t, own)
	out = impl.MergeOwned(nil, map[string]int{"x": 1}, &own)
	out = impl.MergeOwned(out, map[string]int{"y": 2}, &own)
	assert.Equal(t, map[string]int{"x": 1, "y": 2}, out)
}

func TestCloneFuncs(t *testing.T) {
	s := [][]string{{"a"}, nil}
	c := impl.CloneSliceFunc(s, slices.Clone[[]string])
	c[0][0] = "changed"
	assert.Equal(t, [][]string{{"a"}, nil}, s)
	assert.Nil(t, impl.CloneSliceFunc[[][]string](nil, slices.Clone[[]string]))

	m := map[string][]int{"k": {1}}
	cm := impl.CloneMapFunc(m, slices.Clone[[]int])
	cm["k"][0] = 2
	cm["new"] = nil
	assert.Equal(t, map[string][]int{"k": {1}}, m)
	assert.Nil(t, impl.CloneMapFunc[map[string][]int](nil, slices.Clone[[]int]))
}

func TestItemsError(t *testing.T) {
	err := impl.ItemsError("/data/users/3", "/data/users/3")
	assert.EqualError(t, err, `iter_key "/data/users/3": there is no value at /data/users/3`)
	assert.Equal(t, "TaskFailed", impl.ErrorName(err))
}

// A panic in one branch cancels the siblings that are still running, and
// FanOut waits for them: nothing outlives it (TestMain checks for leaks).
func TestFanOutPanicCancelsSiblings(t *testing.T) {
	started := make(chan struct{}, 3)
	err := impl.FanOut(context.Background(), "split", 4, 0, func(ctx context.Context, i int) error {
		if i == 3 {
			for range 3 {
				<-started
			}
			panic("branch 3 broke")
		}
		started <- struct{}{}
		<-ctx.Done()
		return ctx.Err()
	})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `panic in state "split": branch 3 broke`)
}
