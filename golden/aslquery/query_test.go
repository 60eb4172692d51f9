package aslquery

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

func run(t *testing.T, input string) string {
	t.Helper()
	in, err := flowcrt.DecodeASLInput([]byte(input))
	require.NoError(t, err)
	out, err := NewQuery(nil).Run(context.Background(), in)
	require.NoError(t, err)
	b, err := json.Marshal(out)
	require.NoError(t, err)
	return string(b)
}

// Bracket steps after a dot, a final union of names (one object of the
// members), and filters comparing with literals, @ paths and $ paths.
func TestJaywayPaths(t *testing.T) {
	out := run(t, `{
		"items": [{"name": "a", "qty": 0, "sold": 0}, {"name": "b", "qty": 3, "sold": 1}, {"name": "c", "qty": 5, "sold": 5}],
		"min": 4,
		"Snapshots": [{"State": "completed"}],
		"files": [{"bucket": "b1", "key": "k1", "size": 1}, {"bucket": "b2", "key": "k2"}]
	}`)
	assert.JSONEq(t, `{
		"first": "a",
		"state": "completed",
		"positive": ["b", "c"],
		"objects": [{"bucket": "b1", "key": "k1"}, {"bucket": "b2", "key": "k2"}],
		"atLeastMin": ["c"],
		"balanced": ["a", "c"],
		"picked": {"bucket": "b1", "key": "k1"}
	}`, out)
}
