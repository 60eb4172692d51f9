package schemagen

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A key of a front-end table without a schema, or a schema for a key the
// table lost, is an error, not a schema that quietly disagrees.
func TestBuilderReportsDrift(t *testing.T) {
	b := &Builder{}
	b.Object("a task", []string{"id", "handler"}, map[string]any{"id": String, "retries": Integer})
	_, err := b.Document("t", map[string]any{}, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `a task: key "handler" has no schema`)
	assert.Contains(t, err.Error(), `a task: schema for key "retries", which the front-end does not accept`)
}

func TestBuilderObject(t *testing.T) {
	b := &Builder{}
	o := b.Object("a task", []string{"id"}, map[string]any{"id": String}, "id")
	src, err := b.Document("tasks", o, map[string]any{})
	require.NoError(t, err)
	var doc map[string]any
	require.NoError(t, json.Unmarshal(src, &doc))
	assert.Equal(t, "https://json-schema.org/draft/2020-12/schema", doc["$schema"])
	assert.Equal(t, false, doc["additionalProperties"])
	assert.Equal(t, []any{"id"}, doc["required"])
}
