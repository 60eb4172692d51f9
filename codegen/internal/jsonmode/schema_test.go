package jsonmode

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

// Schemas that map onto Go one way get a type; the others none.
func TestSchemaType(t *testing.T) {
	typeOf := func(schema string) string {
		var s map[string]any
		if err := json.Unmarshal([]byte(schema), &s); err != nil {
			t.Fatal(err)
		}
		typ, ok := schemaType(s)
		if !ok {
			return "none"
		}
		return fmt.Sprintf("%#v", typ)
	}
	assert.Equal(t, "struct {\n\tA string    `json:\"a\"`\n\tB *int64    `json:\"b,omitempty\"`\n\tC []float64 `json:\"c,omitempty\"`\n}",
		typeOf(`{"type": "object", "required": ["a"], "properties": {"a": {"type": "string"}, "b": {"type": "integer"}, "c": {"type": "array", "items": {"type": "number"}}}}`))
	assert.Equal(t, "map[string]any", typeOf(`{"type": "object"}`))
	for _, schema := range []string{
		`{"type": "object", "properties": {"a\"b": {"type": "string"}}}`,
		`{"type": "object", "properties": {"a-b": {"type": "string"}, "a_b": {"type": "string"}}}`,
		`{"type": ["string", "null"]}`,
		`{"anyOf": [{"type": "string"}]}`,
		`{"type": "object", "properties": {"x": {"oneOf": []}}}`,
	} {
		assert.Equal(t, "none", typeOf(schema), schema)
	}
}
