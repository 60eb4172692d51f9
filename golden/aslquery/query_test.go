package aslquery

import (
	"context"
	"encoding/json"
	"strings"
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

const input = `{
	"items": [{"name": "a", "qty": 0, "sold": 0}, {"name": "b", "qty": 3, "sold": 1}, {"name": "c", "qty": 5, "sold": 5}],
	"min": 4,
	"Snapshots": [{"State": "completed"}],
	"files": [{"bucket": "b1", "key": "k1", "size": 1}, {"bucket": "b2", "key": "k2"}]
}`

// Bracket steps after a dot, a final union of names (one object of the
// members), filters comparing with literals, @ paths and $ paths, and
// functions ending a path.
func TestJaywayPaths(t *testing.T) {
	out := run(t, input)
	assert.JSONEq(t, `{
		"first": "a",
		"state": "completed",
		"positive": ["b", "c"],
		"objects": [{"bucket": "b1", "key": "k1"}, {"bucket": "b2", "key": "k2"}],
		"atLeastMin": ["c"],
		"balanced": ["a", "c"],
		"picked": {"bucket": "b1", "key": "k1"},
		"count": 3,
		"sold": 6,
		"fields": ["bucket", "key", "size"]
	}`, field(t, out, "selected"))
}

// Assign reads the result as $ and the variables as they were when the
// state began; later states read $name in paths and intrinsics. A branch
// or an iteration reads the outer variables, and what it assigns stays
// inside it. A Choice applies the matching rule's Assign (its own only
// with the Default).
func TestVariables(t *testing.T) {
	out := run(t, input)
	assert.JSONEq(t, `{"greeting": "hi", "next": 5, "who": "a!"}`, field(t, out, "used"))
	assert.JSONEq(t, `[{"local": 100, "count": 5}, {"count": 5, "previous": 4}]`, field(t, out, "fan"))
	assert.JSONEq(t, `[{"text": "hi a"}, {"text": "hi b"}, {"text": "hi c"}]`, field(t, out, "seen"))
	assert.JSONEq(t, `5`, field(t, out, "count"))
	assert.JSONEq(t, `"five"`, field(t, out, "rule"))
}

// Reading a variable that was never assigned is States.Runtime: with
// another count the Choice takes its Default, which assigns no $rule.
func TestUnassignedVariable(t *testing.T) {
	in, err := flowcrt.DecodeASLInput([]byte(strings.Replace(input, `"min": 4`, `"min": 1`, 1)))
	require.NoError(t, err)
	_, err = NewQuery(nil).Run(context.Background(), in)
	require.Error(t, err)
	assert.Equal(t, "States.Runtime", flowcrt.ErrorName(err))
	assert.ErrorContains(t, err, "$rule")
}

func field(t *testing.T, out, name string) string {
	t.Helper()
	var m map[string]json.RawMessage
	require.NoError(t, json.Unmarshal([]byte(out), &m))
	return string(m[name])
}
