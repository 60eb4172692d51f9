package asl_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/compiler"
	"github.com/flowc-dev/flowc/ir"
)

// A module goes without StartAt, in flowc and in its schema; any other
// machine needs one in both.
func TestModuleWithoutStartAt(t *testing.T) {
	s := compiledSchema(t)
	for def, valid := range map[string]bool{
		`{"Module": true, "Exports": ["A"], "States": {"A": {"Type": "Pass"}}}`:   true,
		`{"Module": false, "Exports": ["A"], "States": {"A": {"Type": "Pass"}}}`:  false,
		`{"States": {"A": {"Type": "Pass", "End": true}}, "Comment": "no start"}`: false,
	} {
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(def))
		require.NoError(t, err)
		w, ds := compiler.Compile("m.asl.json", []byte(def), compiler.Options{NoPackage: true})
		if valid {
			assert.NoError(t, s.Validate(doc), def)
			require.NotNil(t, w, ds.Lines())
			assert.Equal(t, "A", w.Start.ID, "a module starts at its first export")
			assert.Equal(t, ir.TransEnd, w.States[0].Next.Kind, "the last state of a module ends")
			continue
		}
		assert.Error(t, s.Validate(doc), def)
		assert.Nil(t, w, def)
	}
}

// A parameter the template does not declare is a warning, and is
// substituted all the same, even in a template that declares none.
func TestUndeclaredParameter(t *testing.T) {
	dir := t.TempDir()
	parent := filepath.Join(dir, "main.asl.json")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "t.json"), []byte(
		`{"StartAt": "Go", "States": {"Go": {"Type": "Task", "Agent": "{{who}}", "End": true}}}`), 0o644))
	src := []byte(`{"Imports": {"t": "./t.json"}, "StartAt": "Use", "States": {"Use": {"Type": "Include", "Template": "t", "Parameters": {"who": "Writer"}, "End": true}}}`)
	w, ds := compiler.Compile(parent, src, compiler.Options{NoPackage: true})
	require.NotNil(t, w, ds.Lines())
	assert.Contains(t, ds.Lines(), `warning: the template does not declare parameter "who"`)
	inner := w.States[0].ASL.Branches[0].States[0]
	assert.Equal(t, "Writer", inner.ASL.Agent.Name)
}

// A template's own Budget holds for its states, not for the parent's
// states lowered after it.
func TestTemplateBudgetStaysInTheTemplate(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "t.json"), []byte(
		`{"Budget": {"MaxCost": 1}, "StartAt": "In", "States": {"In": {"Type": "Task", "Agent": "A", "End": true}}}`), 0o644))
	src := []byte(`{"Budget": {"MaxCost": 5}, "Imports": {"t": "./t.json"}, "StartAt": "Use", "States": {
		"Use": {"Type": "Include", "Template": "t", "Next": "After"},
		"After": {"Type": "Task", "Agent": "B", "End": true}}}`)
	w, ds := compiler.Compile(filepath.Join(dir, "main.asl.json"), src, compiler.Options{NoPackage: true})
	require.NotNil(t, w, ds.Lines())
	assert.Equal(t, 1.0, w.States[0].ASL.Branches[0].States[0].ASL.Agent.RunLimit.MaxCost)
	assert.Equal(t, 5.0, w.States[1].ASL.Agent.RunLimit.MaxCost)
}

// flowc's schema accepts the composition golden's templates and module,
// numbers given as placeholders included.
func TestSchemaAcceptsTemplates(t *testing.T) {
	s := compiledSchema(t)
	files, err := filepath.Glob("../../golden/aslmodules/*/*.json")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(src))
		require.NoError(t, err, f)
		assert.NoError(t, s.Validate(doc), f)
	}
}

// An Override reaches a state inside the template's Parallel branches.
func TestOverrideNestedState(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "t.json"), []byte(`{"StartAt": "P", "States": {"P": {"Type": "Parallel",
		"Branches": [{"StartAt": "Deep", "States": {"Deep": {"Type": "Task", "Agent": "W", "End": true}}}], "End": true}}}`), 0o644))
	src := []byte(`{"Imports": {"t": "./t.json"}, "StartAt": "I", "States": {"I": {"Type": "Include", "Template": "t",
		"Override": {"States": {"Deep": {"TimeoutSeconds": 7}}}, "End": true}}}`)
	w, ds := compiler.Compile(filepath.Join(dir, "main.asl.json"), src, compiler.Options{NoPackage: true})
	require.NotNil(t, w, ds.Lines())
	deep := w.States[0].ASL.Branches[0].States[0].ASL.Branches[0].States[0]
	assert.Equal(t, "I/Deep", deep.ID)
	assert.Equal(t, 7*time.Second, deep.Timeout)
}

// A module state with an outcome label ends there, where a state with
// neither Next nor End would go on to the next one.
func TestOutcomeLabelEndsModule(t *testing.T) {
	def := `{"Module": true, "Exports": ["A", "C"], "States": {
		"A": {"Type": "Pass", "Next": "B"},
		"B": {"Type": "Pass", "Output": "done"},
		"C": {"Type": "Pass"},
		"D": {"Type": "Pass"}}}`
	w, ds := compiler.Compile("m.asl.json", []byte(def), compiler.Options{NoPackage: true})
	require.NotNil(t, w, ds.Lines())
	next := map[string]ir.TransitionKind{}
	for _, s := range w.States {
		next[s.ID] = s.Next.Kind
	}
	assert.Equal(t, map[string]ir.TransitionKind{"A": ir.TransGoto, "B": ir.TransEnd, "C": ir.TransGoto, "D": ir.TransEnd}, next)
}

// An import whose file is not there is an error at the import, naming the
// field that asks for a handler instead; HandlerImports makes the
// Include states of an import call the handler named after it, whether
// its file is there or not, and may name only Imports.
func TestMissingImport(t *testing.T) {
	dir := t.TempDir()
	parent := filepath.Join(dir, "main.asl.json")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "here.json"), []byte(
		`{"StartAt": "Go", "States": {"Go": {"Type": "Pass", "End": true}}}`), 0o644))
	use := func(imports, handlers string) []byte {
		return []byte(`{"Imports": ` + imports + `,` + handlers + `
 "StartAt": "Use", "States": {"Use": {"Type": "Include", "Template": "lib", "End": true}}}`)
	}

	w, ds := compiler.Compile(parent, use(`{"lib": "./gone.asl.json"}`, ""), compiler.Options{NoPackage: true})
	assert.Nil(t, w)
	assert.Contains(t, ds.Lines(), filepath.ToSlash(parent)+`:1:22: import "./gone.asl.json": stat `)
	assert.Contains(t, ds.Lines(), "no such file or directory; to call a handler method for it instead, add \"lib\" to the workflow's `HandlerImports`")

	for _, file := range []string{"./gone.asl.json", "./here.json"} {
		w, ds = compiler.Compile(parent, use(`{"lib": "`+file+`"}`, ` "HandlerImports": ["lib"],`), compiler.Options{NoPackage: true})
		require.NotNil(t, w, ds.Lines())
		assert.Empty(t, ds, file)
		require.NotNil(t, w.States[0].Handler, file)
		assert.Equal(t, "Lib", w.States[0].Handler.Name, file)
		assert.Empty(t, w.States[0].ASL.Branches, "%s is not compiled in", file)
	}

	w, ds = compiler.Compile(parent, use(`{"lib": "./here.json"}`, ` "HandlerImports": ["lbi"],`), compiler.Options{NoPackage: true})
	assert.Nil(t, w)
	assert.Contains(t, ds.Lines(), "main.asl.json:1:57: HandlerImports names \"lbi\", which is not one of the Imports (did you mean `lib`?)")
}
