package asl_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/compiler"
	"github.com/flowc-dev/flowc/compiler/asl"
	"github.com/flowc-dev/flowc/compiler/yamlx"
	"github.com/flowc-dev/flowc/ir"
)

// jsonStrings are JSON string literals with every escape RFC 8259 §7
// allows, surrogates paired and alone, and raw characters that YAML
// refuses or reads as line breaks.
var jsonStrings = []string{
	`"\ud834\udd1e"`, `"\uD834\uDD1E"`, `"a\u0000b"`, `"\/"`, `"\b\f\n\r\t\"\\\/"`, `"\u00e9\u20AC\uffff"`,
	`"\ud834"`, `"\udd1e"`, `"\ud834x"`, `"\ud834\u0041"`, `"\ud834\ud834\udd1e"`, `"\udd1e\ud834"`,
	"\"\x7f\u0080\u0085\u009f\u2028\u2029\ufffe\uffff\"", "\"\xff\xed\xa0\x80\"", `"é𝄞"`,
}

// lowerJSON parses and lowers src as the file m.asl.json.
func lowerJSON(t *testing.T, src string) (*ir.Workflow, *yamlx.Reader) {
	t.Helper()
	r := &yamlx.Reader{File: "m.asl.json"}
	root, notJSON := r.ParseSource([]byte(src))
	require.Nil(t, notJSON)
	require.NotNil(t, root, r.Diags.Lines())
	return asl.Lower(r, root, "m", "m"), r
}

// A JSON string means in a definition what encoding/json decodes it to, as
// a value and as a key.
func TestJSONStringEscapes(t *testing.T) {
	for _, lit := range jsonStrings {
		var want string
		require.NoError(t, json.Unmarshal([]byte(lit), &want), lit)
		src := `{"StartAt": "A", "States": {"A": {"Type": "Pass", "End": true, "Result": {` + lit + `: ` + lit + `}}}}`
		w, r := lowerJSON(t, src)
		require.False(t, r.Diags.HasErrors(), "%s: %s", lit, r.Diags.Lines())
		field := w.States[0].ASL.Result.Fields[0]
		assert.Equal(t, want, field.Key, lit)
		assert.Equal(t, want, field.Value.Value, lit)
	}
}

// A node after a respelt string keeps its line and column in the file.
func TestJSONPositionsAfterEscapes(t *testing.T) {
	src := "{\"StartAt\": \"A\", \"States\": {\"A\": {\"Type\": \"Pass\", \"Comment\": \"\\ud834\\udd1e\\/\u2028\xff\\u00e9𝄞\", \"Bogus\": 1,\n" +
		"\"End\": true, \"Bogus2\": \"\\/\"}}}"
	_, r := lowerJSON(t, src)
	first, _, _ := strings.Cut(src, "\n")
	col := utf8.RuneCountInString(first[:strings.Index(first, `"Bogus"`)]) + 1
	lines := r.Diags.Errors().Lines()
	assert.Contains(t, lines, "m.asl.json:1:"+strconv.Itoa(col)+": unknown key `Bogus`")
	assert.Contains(t, lines, "m.asl.json:2:14: unknown key `Bogus2`")
}

// A machine that is not JSON is rejected where encoding/json stops, though
// YAML would read it (AWS refuses it), in the file compiled and in one it
// imports; a task chain's .json file is read as the YAML it also is.
func TestJSONTrailingComma(t *testing.T) {
	machine := "{\"StartAt\": \"A\", \"States\": {\"A\": {\"Type\": \"Succeed\"},}}"
	w, ds := compiler.Lower("m.asl.json", []byte(machine), compiler.Options{})
	assert.Nil(t, w)
	assert.Contains(t, ds.Lines(), "m.asl.json:1:54: invalid JSON")

	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "t.asl.json"), []byte(machine), 0o644))
	main := `{"Imports": {"t": "t.asl.json"}, "StartAt": "A", "States": {"A": {"Type": "Include", "Template": "t", "End": true}}}`
	_, ds = compiler.Lower(filepath.Join(dir, "m.asl.json"), []byte(main), compiler.Options{})
	assert.Contains(t, ds.Lines(), "t.asl.json:1:54: invalid JSON")

	chain := `{"id": "c", "tasks": [{"id": "a", "handler": "noop", "transition": {"branches": [{"operator": "default", "goto": "end"}]}},]}`
	w, ds = compiler.Lower("c.chain.json", []byte(chain), compiler.Options{})
	assert.NotNil(t, w, ds.Lines())
	assert.NotContains(t, ds.Lines(), "invalid JSON")
}

// An imported .json definition is read by the same rules, through
// compiler.Compile.
func TestJSONEscapesInImport(t *testing.T) {
	dir := t.TempDir()
	tmpl := `{"StartAt": "T", "States": {"T": {"Type": "Pass", "Result": "\ud834\udd1e\/", "End": true}}}`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "t.asl.json"), []byte(tmpl), 0o644))
	main := `{"Imports": {"t": "t.asl.json"}, "StartAt": "A", "States": {"A": {"Type": "Include", "Template": "t", "End": true}}}`
	path := filepath.Join(dir, "m.asl.json")
	w, ds := compiler.Compile(path, []byte(main), compiler.Options{NoPackage: true})
	require.NotNil(t, w, ds.Lines())
	inner := w.States[0].ASL.Branches[0].States[0]
	assert.Equal(t, "\U0001D11E/", inner.ASL.Result.Value)
}

// Any JSON string, escapes and raw characters alike, means what
// encoding/json decodes it to.
func FuzzJSONString(f *testing.F) {
	for _, lit := range jsonStrings {
		f.Add(lit[1 : len(lit)-1])
	}
	f.Fuzz(func(t *testing.T, body string) {
		lit := `"` + body + `"`
		var want string
		if json.Unmarshal([]byte(lit), &want) != nil {
			return
		}
		r := &yamlx.Reader{File: "m.json"}
		root, _ := r.ParseSource([]byte(`{"k": ` + lit + `}`))
		require.NotNil(t, root, r.Diags.Lines())
		assert.Equal(t, want, root.Content[1].Value, lit)
	})
}
