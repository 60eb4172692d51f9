package asl_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/compiler"
	"github.com/flowc-dev/flowc/compiler/asl"
)

var update = flag.Bool("update", false, "rewrite docs/asl-schema.json")

const schemaFile = "../../docs/asl-schema.json"

// The committed schema is the one the front-end's tables make.
func TestSchemaFile(t *testing.T) {
	want, err := asl.Schema()
	require.NoError(t, err)
	want = append(want, '\n')
	if *update {
		require.NoError(t, os.WriteFile(schemaFile, want, 0o644))
	}
	got, err := os.ReadFile(schemaFile)
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got), "run go test ./compiler/asl -run SchemaFile -update")
}

func compiledSchema(t *testing.T) *jsonschema.Schema {
	src, err := asl.Schema()
	require.NoError(t, err)
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(src))
	require.NoError(t, err)
	c := jsonschema.NewCompiler()
	require.NoError(t, c.AddResource("asl-schema.json", doc))
	s, err := c.Compile("asl-schema.json")
	require.NoError(t, err)
	return s
}

// Every JSON state machine of the goldens, examples and differential cases
// that flowc accepts, the schema accepts.
func TestSchemaAcceptsWhatFlowcAccepts(t *testing.T) {
	s := compiledSchema(t)
	var files []string
	for _, pattern := range []string{"../../golden/*/*.asl.json", "../../asldiff/cases/*/*.asl.json", "../../examples/*/*.asl.json", "../../bench/*/*.asl.json"} {
		m, err := filepath.Glob(pattern)
		require.NoError(t, err)
		files = append(files, m...)
	}
	require.NotEmpty(t, files)
	checked := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		if w, _ := compiler.Compile(f, src, compiler.Options{NoPackage: true}); w == nil {
			continue
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(src))
		require.NoError(t, err, f)
		assert.NoError(t, s.Validate(doc), f)
		checked++
	}
	assert.Greater(t, checked, 100)
}

// The schema knows the fields of each state type.
func TestSchemaRejectsUnknownFields(t *testing.T) {
	s := compiledSchema(t)
	for name, def := range map[string]string{
		"field of another type": `{"StartAt": "A", "States": {"A": {"Type": "Pass", "Resource": "x", "End": true}}}`,
		"unknown state type":    `{"StartAt": "A", "States": {"A": {"Type": "Job", "End": true}}}`,
		"nested rule field":     `{"StartAt": "A", "States": {"A": {"Type": "Choice", "Choices": [{"Not": {"Variable": "$.a", "IsNull": true, "Nxt": "A"}, "Next": "A"}]}}}`,
		"branch field":          `{"StartAt": "A", "States": {"A": {"Type": "Parallel", "Branches": [{"StartAt": "B", "States": {"B": {"Type": "Succeed"}}, "End": true}], "End": true}}}`,
	} {
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(def))
		require.NoError(t, err)
		assert.Error(t, s.Validate(doc), name)
	}
}
