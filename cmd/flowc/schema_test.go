package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"

	"github.com/flowc-dev/flowc/compiler"
)

var updateSchemas = flag.Bool("update", false, "rewrite docs/<dialect>-schema.json")

// schemaOf runs `flowc schema NAME` and compiles what it prints.
func schemaOf(t *testing.T, name string) (*jsonschema.Schema, []byte) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	require.Equal(t, exitOK, run([]string{"schema", name}, nil, &stdout, &stderr), stderr.String())
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(stdout.Bytes()))
	require.NoError(t, err, name)
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	require.NoError(t, c.AddResource(name+".json", doc))
	s, err := c.Compile(name + ".json")
	require.NoError(t, err, name)
	return s, stdout.Bytes()
}

// The schemas are committed under docs/, where editors can fetch them.
func TestSchemaFilesCommitted(t *testing.T) {
	for _, d := range compiler.Dialects {
		_, src := schemaOf(t, d.Name)
		file := filepath.Join("..", "..", "docs", schemaFile(d))
		if *updateSchemas {
			require.NoError(t, os.WriteFile(file, src, 0o644))
		}
		got, err := os.ReadFile(file)
		require.NoError(t, err)
		assert.Equal(t, string(src), string(got), "run go test ./cmd/flowc -run SchemaFiles -update")
	}
}

// schemaFile is the name of d's schema under docs/: a renamed dialect's
// keeps its first name, which editors' settings already point at.
func schemaFile(d *compiler.Dialect) string {
	if len(d.Aliases) > 0 {
		return d.Aliases[0] + "-schema.json"
	}
	return d.Name + "-schema.json"
}

// dialectOf names the schema of a definition file by its suffix.
func dialectOf(name string) string {
	for _, d := range compiler.Dialects {
		for _, suf := range d.Suffixes {
			if strings.HasSuffix(name, suf) {
				return d.Name
			}
		}
	}
	return ""
}

// decode reads a definition as a validator sees it: JSON as JSON, YAML
// turned into the JSON values it stands for.
func decode(t *testing.T, name string, src []byte) any {
	t.Helper()
	if strings.HasSuffix(name, ".json") {
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(src))
		require.NoError(t, err, name)
		return v
	}
	var doc yaml.Node
	require.NoError(t, yaml.Unmarshal(src, &doc), name)
	return yamlValue(t, doc.Content[0])
}

func yamlValue(t *testing.T, n *yaml.Node) any {
	switch n.Kind {
	case yaml.AliasNode:
		return yamlValue(t, n.Alias)
	case yaml.MappingNode:
		m := map[string]any{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			m[n.Content[i].Value] = yamlValue(t, n.Content[i+1])
		}
		return m
	case yaml.SequenceNode:
		items := []any{}
		for _, c := range n.Content {
			items = append(items, yamlValue(t, c))
		}
		return items
	}
	switch n.Tag {
	case "!!null":
		return nil
	case "!!bool", "!!int", "!!float":
		var v any
		require.NoError(t, n.Decode(&v))
		if i, ok := v.(int); ok {
			return json.Number(strconv.Itoa(i))
		}
		return v
	}
	return n.Value
}

// Every definition of the goldens, examples and benchmarks is valid
// against the schema of its dialect.
func TestSchemaAcceptsEveryDefinition(t *testing.T) {
	schemas := map[string]*jsonschema.Schema{}
	for _, d := range compiler.Dialects {
		schemas[d.Name], _ = schemaOf(t, d.Name)
	}
	checked := map[string]int{}
	for _, root := range []string{"golden", "examples", "bench"} {
		err := filepath.WalkDir(filepath.Join("..", "..", root), func(path string, e fs.DirEntry, err error) error {
			if e.IsDir() && e.Name() == "testdata" {
				return filepath.SkipDir // error cases
			}
			dialect := dialectOf(path)
			if err != nil || dialect == "" {
				return err
			}
			src, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.NoError(t, schemas[dialect].Validate(decode(t, path, src)), path)
			checked[dialect]++
			return nil
		})
		require.NoError(t, err)
	}
	assert.Greater(t, checked["flow"], 60)
	assert.Greater(t, checked["chain"], 8)
	assert.Greater(t, checked["asl"], 10)
}

// Definitions with unknown keys or values of the wrong type are rejected:
// error cases of the goldens whose first problem is such, and small ones.
func TestSchemaRejectsMalformed(t *testing.T) {
	cases := map[string]string{}
	for _, c := range []string{
		"unknown_state_key/input.flow.yaml", "unknown_top_key/input.flow.yaml", "retry_zero_attempts/input.flow.yaml",
		"codemie-references/input.flow.yaml", "chain-unknown-keys/input.chain.yaml", "chain-contenox-problems/input.chain.json",
		"chain-json-positions/input.chain.json", "asl-unknown-fields/input.asl.json", "asl-yaml-positions/input.asl.yaml",
	} {
		src, err := os.ReadFile(filepath.Join("..", "..", "golden", "testdata", "errors", c))
		require.NoError(t, err)
		cases[c] = string(src)
	}
	for name, src := range map[string]string{
		"end not a boolean.flow.yaml":      "states:\n  - id: a\n    end: yes please\n",
		"timeout a list.flow.yaml":         "states:\n  - id: a\n    timeout: [1s]\n",
		"state without id.flow.yaml":       "states:\n  - handler: A\n",
		"unknown next key.flow.yaml":       "states:\n  - id: a\n    next: {state_id: end, goto: b}\n",
		"unknown approval type.flow.yaml":  "states:\n  - id: a\n    type: review\n",
		"assistant field type.flow.yaml":   "assistants:\n  - id: a\n    temperature: hot\nstates:\n  - id: s\n    assistant_id: a\n",
		"wrapped unknown key.flow.yaml":    "execution_config:\n  states:\n    - id: a\n      nxet: {state_id: end}\n",
		"catalogue entry a list.flow.yaml": "name: [x]\nexecution_config:\n  states:\n    - id: a\n",
		"unknown operator.chain.yaml":      "tasks:\n  - id: a\n    handler: noop\n    transition: {branches: [{operator: startswith, when: x, goto: end}]}\n",
		"execute_config type.chain.yaml":   "tasks:\n  - id: a\n    handler: chat_completion\n    execute_config: {model: m, shift: maybe}\n",
		"unknown retry key.chain.json":     `{"tasks": [{"id": "a", "handler": "noop", "execute_config": {"retry_policy": {"attempts": 3}}}]}`,
		"state field of another.asl.json":  `{"StartAt": "A", "States": {"A": {"Type": "Pass", "Resource": "x", "End": true}}}`,
		"End not a boolean.asl.json":       `{"StartAt": "A", "States": {"A": {"Type": "Pass", "End": "yes"}}}`,
		"retrier attempts text.asl.json":   `{"StartAt": "A", "States": {"A": {"Type": "Task", "Resource": "r", "End": true, "Retry": [{"ErrorEquals": ["States.ALL"], "MaxAttempts": "3"}]}}}`,
		"catcher without errors.asl.json":  `{"StartAt": "A", "States": {"A": {"Type": "Task", "Resource": "r", "End": true, "Catch": [{"ErrorEquals": [], "Next": "A"}]}}}`,
		"comparison operand type.asl.json": `{"StartAt": "A", "States": {"A": {"Type": "Choice", "Choices": [{"Variable": "$.n", "NumericEquals": "1", "Next": "B"}], "Default": "B"}, "B": {"Type": "Succeed"}}}`,
	} {
		cases[name] = src
	}
	for name, src := range cases {
		s, _ := schemaOf(t, dialectOf(name))
		assert.Error(t, s.Validate(decode(t, name, []byte(src))), name)
	}
}

func TestSchemaCommand(t *testing.T) {
	var stdout, stderr bytes.Buffer
	assert.Equal(t, exitOK, run([]string{"schema"}, nil, &stdout, &stderr))
	// One line per dialect, in the list's order, its columns aligned.
	lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
	require.Len(t, lines, len(compiler.Dialects))
	for i, d := range compiler.Dialects {
		assert.True(t, strings.HasPrefix(lines[i], d.Name+" "), lines[i])
		assert.Equal(t, strings.Index(lines[0], "*"), strings.Index(lines[i], d.Files()), lines[i])
		assert.Equal(t, len(lines[0])-len(compiler.Dialects[0].About), strings.Index(lines[i], d.About), lines[i])
	}
	assert.Contains(t, lines[0], "flow   *.flow.yaml, *.flow.yml ")
	stdout.Reset()
	assert.Equal(t, exitUsage, run([]string{"schema", "chian"}, nil, &stdout, &stderr))
	assert.Contains(t, stderr.String(), "unknown dialect \"chian\" (did you mean `chain`?)")
	assert.Empty(t, stdout.String())
}

// `flowc schema native`, the flow dialect's name before it was renamed,
// still prints its schema: scripts and editor settings use it.
func TestSchemaOldName(t *testing.T) {
	_, flow := schemaOf(t, "flow")
	_, native := schemaOf(t, "native")
	assert.Equal(t, string(flow), string(native))
}
