package defaultonly

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// handlers return labels that no entry names: only the defaults match.
type handlers struct{}

func (handlers) First(ctx context.Context, s DefaultOnlyState) (DefaultOnlyUpdate, string, error) {
	return DefaultOnlyUpdate{}.WithTrail([]string{"first"}), "anything", nil
}

func (handlers) Second(ctx context.Context, s DefaultOnlyState) (DefaultOnlyUpdate, string, error) {
	return DefaultOnlyUpdate{}.WithTrail([]string{"second"}), "", nil
}

func (handlers) Third(ctx context.Context, s DefaultOnlyState) (DefaultOnlyUpdate, error) {
	return DefaultOnlyUpdate{}.WithTrail([]string{"third"}), nil
}

func TestDefaults(t *testing.T) {
	out, err := NewDefaultOnly(handlers{}).Run(context.Background(), DefaultOnlyState{})
	require.NoError(t, err)
	assert.Equal(t, []string{"first", "second", "third"}, out.Trail)
}
