// Package schemagen builds the JSON Schemas (draft 2020-12) of the YAML
// dialects from the key tables their front-ends check with. Each object's
// keys come from a front-end table and each key must be given a value
// schema here: a key added to a table without one, or a schema left for a
// key that is gone, makes Err report it, so schema and front-end cannot
// drift apart unnoticed.
package schemagen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Value schemas with the front-ends' (compiler/yamlx) reading of scalars.
var (
	// String: yamlx keeps a number's text where it expects a string.
	String   = map[string]any{"type": []string{"string", "number"}}
	Integer  = map[string]any{"type": "integer"}
	Number   = map[string]any{"type": "number"}
	Boolean  = map[string]any{"type": "boolean"}
	Any      = map[string]any{}
	Duration = map[string]any{"type": []string{"string", "number"}, "description": "a Go duration such as 30s or 1m30s, or a number of seconds"}
	// Strings: a list of strings, or one string standing for a list of one.
	Strings    = map[string]any{"anyOf": []any{String, ArrayOf(String)}}
	StringMap  = map[string]any{"type": "object", "additionalProperties": String}
	ScalarMap  = map[string]any{"type": "object", "additionalProperties": map[string]any{"type": []string{"string", "number", "boolean", "null"}}}
	StringList = ArrayOf(String)
)

// ArrayOf is the schema of a list of v.
func ArrayOf(v any) map[string]any { return map[string]any{"type": "array", "items": v} }

// MapOf is the schema of a mapping of any keys to v.
func MapOf(v any) map[string]any { return map[string]any{"type": "object", "additionalProperties": v} }

// Ref points at a definition of the document.
func Ref(def string) map[string]any { return map[string]any{"$ref": "#/$defs/" + def} }

// Enum is a string that is one of values.
func Enum(values ...string) map[string]any { return map[string]any{"enum": values} }

// Nullable also accepts null, which JSON writers use for an absent member.
func Nullable(v any) map[string]any {
	return map[string]any{"anyOf": []any{v, map[string]any{"type": "null"}}}
}

// Builder collects the objects of one schema and the keys left undescribed.
type Builder struct {
	problems []string
}

// Object is the schema of a mapping with exactly the keys of the front-end
// table keys (no others), the value of each described by types.
func (b *Builder) Object(what string, keys []string, types map[string]any, required ...string) map[string]any {
	props := map[string]any{}
	for _, k := range keys {
		v, ok := types[k]
		if !ok {
			b.problems = append(b.problems, fmt.Sprintf("%s: key %q has no schema", what, k))
			continue
		}
		props[k] = v
	}
	for k := range types {
		if !slices.Contains(keys, k) {
			b.problems = append(b.problems, fmt.Sprintf("%s: schema for key %q, which the front-end does not accept", what, k))
		}
	}
	o := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		o["required"] = required
	}
	return o
}

// Document marshals the schema whose root is root, with the definitions
// defs, or reports the keys the front-end tables and the schema disagree on.
func (b *Builder) Document(title string, root, defs map[string]any) ([]byte, error) {
	if len(b.problems) > 0 {
		slices.Sort(b.problems)
		return nil, fmt.Errorf("schema out of step with the front-end:\n%s", strings.Join(b.problems, "\n"))
	}
	root["$schema"] = "https://json-schema.org/draft/2020-12/schema"
	root["title"] = title
	root["$defs"] = defs
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false) // operators such as ">" read as themselves
	enc.SetIndent("", "  ")
	if err := enc.Encode(root); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(out.Bytes(), []byte("\n")), nil
}
