package impl_test

import (
	"encoding/json"
	"maps"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/runtime/impl"
)

type labels map[string]string

func TestMergeMap(t *testing.T) {
	tests := []struct {
		name     string
		old, upd labels
		want     labels
	}{
		{"both nil", nil, nil, nil},
		{"nil old", nil, labels{"a": "1"}, labels{"a": "1"}},
		{"nil update", labels{"a": "1"}, nil, labels{"a": "1"}},
		{"empty update", labels{}, labels{}, labels{}},
		{"update wins", labels{"a": "1", "b": "2"}, labels{"b": "3", "c": "4"}, labels{"a": "1", "b": "3", "c": "4"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			oldCopy, updCopy := maps.Clone(tt.old), maps.Clone(tt.upd)

			got := impl.MergeMap(tt.old, tt.upd)

			assert.Equal(t, tt.want, got)
			assert.Equal(t, oldCopy, tt.old, "old must not change")
			assert.Equal(t, updCopy, tt.upd, "update must not change")
			if got != nil {
				got["new"] = "x"
				assert.NotContains(t, tt.old, "new", "the result must be a new map")
				assert.NotContains(t, tt.upd, "new", "the result must be a new map")
			}
		})
	}
}

func TestAppendSlice(t *testing.T) {
	withRoom := make([]string, 1, 10)
	withRoom[0] = "a"
	tests := []struct {
		name     string
		old, upd []string
		want     []string
	}{
		{"both nil", nil, nil, nil},
		{"nil old", nil, []string{"b"}, []string{"b"}},
		{"nil update", []string{"a"}, nil, []string{"a"}},
		{"empty", []string{}, nil, []string{}},
		{"appends in order", []string{"a", "b"}, []string{"c", "d"}, []string{"a", "b", "c", "d"}},
		{"old with spare capacity", withRoom, []string{"b"}, []string{"a", "b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := impl.AppendSlice(tt.old, tt.upd)

			assert.Equal(t, tt.want, got)
			if len(tt.old) > 0 {
				got[0] = "changed"
				assert.NotEqual(t, "changed", tt.old[0], "the result must not share old's array")
			}
		})
	}
	// AppendSlice must not write into old's spare capacity.
	_ = impl.AppendSlice(withRoom[:1], []string{"b"})
	assert.Equal(t, []string{"a", ""}, withRoom[:2])
}

func TestAppendSliceMessages(t *testing.T) {
	old := impl.Messages{{Role: "user", Content: "hi"}}
	got := impl.AppendSlice(old, impl.Messages{{Role: "assistant", Content: "hello"}})

	data, err := json.Marshal(got)
	require.NoError(t, err)
	assert.JSONEq(t, `[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}]`, string(data))
}

func TestHasKey(t *testing.T) {
	m := labels{"urgent": ""}
	assert.True(t, impl.HasKey(m, "urgent"))
	assert.False(t, impl.HasKey(m, "later"))
	assert.False(t, impl.HasKey(labels(nil), "urgent"))
}

func TestContains(t *testing.T) {
	assert.True(t, impl.Contains([]int{1, 2, 3}, 2))
	assert.False(t, impl.Contains([]int{1, 2, 3}, 4))
	assert.False(t, impl.Contains([]string(nil), ""))
}
